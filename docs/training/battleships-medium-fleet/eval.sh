#!/bin/sh
# ships13 gauntlet (issue 34), 10x10: eval.sh SPEC NAME SEED CONFIG [OPPONENTS], in an empty directory, botarena on PATH.
# SPEC is an agent spec (policy:PATH?sample: sampling). 200 games a seating (400 a pairing, both seats) against
# each of OPPONENTS (default: hunter admiral marksman reference) under CONFIG; one JSON a row, NAME-OPP-SEED.json.
P=$1; NAME=$2; SEED=$3; M=$4; OPP=${5:-hunter admiral marksman reference}
for o in $OPP; do
  nice -n 5 botarena tournament battleships --workers 1 --config "$M" --agents "p=$P,$o" --focus p --games 200 --seed $SEED --json > $NAME-$o-$SEED.json
done
