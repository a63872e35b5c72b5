#!/bin/sh
# The gauntlet of battleships-small-shield (issue 34, 2026-12-01, helper ships10): eval.sh POLICY SHARP SEED [NAME], in
# an empty directory, with botarena built from this commit on PATH. Seed 4343 (unseen in training: 151 there; apart
# from the earlier gauntlets' 9191, 9292, 3636, 3838, 4747, 4949, 5757, 6767, 7878, 8989, 5656, 6565). 200 games a
# seating, 400 a pairing over both seats. Rows:
#   new-*:    the new policy under shield_mask, sampling and arg-max, against hunter, admiral, marksman and reference,
#             and head to head against small-sharp (both under shield_mask);
#   sharpm-*: battleships-small-sharp under shield_mask, untrained (what the mask alone gives), sampling and arg-max;
#   sharp-*:  battleships-small-sharp with its own config (no shield_mask), sampling.
# One JSON a row; ../battleships-large-sharp2/gmd.py gathers them into gauntlet.json and gauntlet.md.
P=$1; S=$2; SEED=$3; NEW=${4:-new}
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
t() { botarena tournament battleships/small --workers 1 --config "$1" --agents "$2" --focus p --games 200 --seed $SEED --json > "$3.json"; }
for o in hunter admiral marksman reference; do
  t "$M" "p=policy:$P?sample,$o" $NEW-sample-$o
  t "$M" "p=policy:$P,$o" $NEW-argmax-$o
  [ -n "$4" ] && continue
  t "$M" "p=policy:$S?sample,$o" sharpm-sample-$o
  t "$M" "p=policy:$S,$o" sharpm-argmax-$o
  t "$C" "p=policy:$S?sample,$o" sharp-sample-$o
done
t "$M" "p=policy:$P?sample,sharp=policy:$S?sample" $NEW-sample-sharp
t "$M" "p=policy:$P,sharp=policy:$S" $NEW-argmax-sharp
