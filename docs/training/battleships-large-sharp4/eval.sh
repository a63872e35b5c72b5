#!/bin/sh
# The gauntlet of battleships-large-sharp4 (issue 34, helper ships11): eval.sh NEW SHARP3 SHIELD, in an empty
# directory, with botarena built from this commit on PATH. Everything under the shield_mask config, 200 games a
# seating, 400 a pairing over both seats. Seeds 2525 and 2727 (unseen in training: 211 there; apart from the
# earlier gauntlets' seeds); 2626 screened the checkpoints and is not used here.
#   2525: the new policy sampling against hunter, admiral, marksman, reference, arg-max against hunter, admiral,
#         marksman, and head to head against large-sharp3 (both sampling); large-sharp3 and large-shield sampling
#         against hunter, admiral and marksman (the measurement before training, m1/ in the scratch folder);
#   2727: the new policy, large-sharp3 and large-shield sampling against hunter (a second seed for the claim).
# One JSON a row (gauntlet/; the sharp3 and shield rows on 2525 are the same commands run before training, before/);
# ../battleships-large-sharp2/gmd.py gathers them into gauntlet.md. A row whose JSON exists is skipped.
P=$1; S3=$2; SH=$3
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
t() { [ -s "$3.json" ] && return; botarena tournament battleships/large --workers 1 --config "$M" --agents "$1" --focus p --games 200 --seed $2 --json > "$3.json"; }
for o in hunter admiral marksman reference; do t "p=policy:$P?sample,$o" 2525 new-sample-$o-2525; done
for o in hunter admiral marksman; do t "p=policy:$P,$o" 2525 new-argmax-$o-2525; done
t "p=policy:$P?sample,sharp3=policy:$S3?sample" 2525 new-sample-sharp3-2525
for o in hunter admiral marksman; do
  t "p=policy:$S3?sample,$o" 2525 sharp3-sample-$o-2525
  t "p=policy:$SH?sample,$o" 2525 shield-sample-$o-2525
done
for n in new sharp3 shield; do
  case $n in new) Q=$P;; sharp3) Q=$S3;; shield) Q=$SH;; esac
  t "p=policy:$Q?sample,hunter" 2727 $n-sample-hunter-2727
done
