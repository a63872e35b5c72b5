#!/bin/sh
# The gauntlet of battleships-large-sharp3 (issue 34, helper ships8): eval.sh POLICY SHARP2 SEED, run in an empty
# directory once for each of the seeds 7878 and 8989 (unseen in training: 99 here, 97 / 87 / 91 before; apart
# from the earlier gauntlets' 3838 / 4949 / 5757 / 6767). ships7's protocol
# (../battleships-large-sharp2/eval.sh): 100 games a seating, 200 a pairing over both seats, sampling and
# arg-max, against hunter, admiral, reference and the committed large-sharp2 (sampling against it sampling,
# arg-max against its arg-max); the same rows for large-sharp2 itself (POLICY = SHARP2, its "sharp" rows left
# out) on the same seeds and binaries; one JSON a row (../battleships-large-sharp2/gmd.py gathers them into
# gauntlet.json). Then the race model without return fire (../battleships-large-sharp2/scant.py and decomp.py;
# ../battleships-medium-sharp/race.go.txt built from the start commit as RACE_BIN, race.py and fleets.py on
# PYTHONPATH; seed 77).
P=$1; S=$2; SEED=$3
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
for o in hunter admiral reference; do
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P?sample,$o" --focus p --games 100 --seed $SEED --json > sample-$o-$SEED.json
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P,$o" --focus p --games 100 --seed $SEED --json > argmax-$o-$SEED.json
done
if [ "$P" != "$S" ]; then
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P?sample,sharp2=policy:$S?sample" --focus p --games 100 --seed $SEED --json > sample-sharp2-$SEED.json
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P,sharp2=policy:$S" --focus p --games 100 --seed $SEED --json > argmax-sharp2-$SEED.json
fi
