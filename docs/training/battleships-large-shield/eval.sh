#!/bin/sh
# The gauntlet of battleships-large-shield (issue 34, helper ships9): eval.sh POLICY SHARP2 SEED, in an empty
# directory, with botarena built from this commit on PATH. Seed 9191 (unseen in training: 137 there; apart from the
# earlier gauntlets' 3636, 3838, 4747, 4949, 5757, 6767, 7878, 8989, 5656, 6565). 200 games a seating, 400 a
# pairing over both seats. Rows:
#   new-*:     the new policy with its config (shield_mask on), sampling and arg-max, against hunter, admiral,
#              marksman and reference, and head to head against large-sharp2 (both under shield_mask);
#   sharp2-*:  the committed large-sharp2 with its own config (no shield_mask), the same opponents;
#   sharp2m-*: large-sharp2 under shield_mask, untrained: what the mask alone gives.
# A fourth argument NAME runs only the policy's rows, named NAME-* instead of new-* (the second run, shield2).
# One JSON a row; ../battleships-large-sharp2/gmd.py gathers them into gauntlet.json and gauntlet.md.
P=$1; S=$2; SEED=$3; NEW=${4:-new}
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
t() { botarena tournament battleships/large --workers 1 --config "$1" --agents "$2" --focus p --games 200 --seed $SEED --json > "$3.json"; }
for o in hunter admiral marksman reference; do
  t "$M" "p=policy:$P?sample,$o" $NEW-sample-$o
  t "$M" "p=policy:$P,$o" $NEW-argmax-$o
  [ -n "$4" ] && continue
  t "$C" "p=policy:$S?sample,$o" sharp2-sample-$o
  t "$C" "p=policy:$S,$o" sharp2-argmax-$o
  t "$M" "p=policy:$S?sample,$o" sharp2m-sample-$o
done
t "$M" "p=policy:$P?sample,sharp2=policy:$S?sample" $NEW-sample-sharp2
t "$M" "p=policy:$P,sharp2=policy:$S" $NEW-argmax-sharp2
