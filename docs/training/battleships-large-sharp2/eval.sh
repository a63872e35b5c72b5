#!/bin/sh
# The gauntlet of a ships7 policy (issue 34): eval.sh SIZE POLICY SHARP SEED, SIZE battleships (medium) or
# battleships/large. 100 games a seating, 200 a pairing over both seats, sampling and arg-max, against hunter,
# admiral, reference and the committed sharp policy of that size (sampling against it sampling, arg-max against
# its arg-max); one JSON a row (gmd.py gathers them into gauntlet.json). Seeds unseen in training (97 / 98) and
# apart from the earlier gauntlets' 3636 / 3838 / 4747 / 4949: 5757 (large), 5656 (medium), and 6767 / 6565 for
# the repeat rows. Then the race model without return fire (scant.py; race.go.txt, race.py in
# docs/training/battleships-medium-sharp; seed 77).
G=$1; P=$2; S=$3; SEED=$4
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
for o in hunter admiral reference; do
  botarena tournament $G --config "$C" --agents "p=policy:$P?sample,$o" --focus p --games 100 --seed $SEED --json > sample-$o.json
  botarena tournament $G --config "$C" --agents "p=policy:$P,$o" --focus p --games 100 --seed $SEED --json > argmax-$o.json
done
botarena tournament $G --config "$C" --agents "p=policy:$P?sample,sharp=policy:$S?sample" --focus p --games 100 --seed $SEED --json > sample-sharp.json
botarena tournament $G --config "$C" --agents "p=policy:$P,sharp=policy:$S" --focus p --games 100 --seed $SEED --json > argmax-sharp.json
