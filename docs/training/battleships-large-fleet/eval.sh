#!/bin/sh
# ships14 gauntlet (issue 34), 14x14: eval.sh SPEC NAME SEED CONFIG [OPPONENTS], botarena on PATH; medium-fleet's
# eval.sh on battleships/large. SPEC is an agent spec (policy:PATH?sample: sampling). 200 games a seating (400 a
# pairing, both seats) against each of OPPONENTS (default: hunter admiral marksman reference) under CONFIG; one JSON
# a row, gauntlet/NAME-OPP-SEED.json.
P=$1; NAME=$2; SEED=$3; M=$4; OPP=${5:-hunter admiral marksman reference}
mkdir -p gauntlet
for o in $OPP; do
  nice -n 5 botarena tournament battleships/large --workers 1 --config "$M" --agents "p=$P,$o" --focus p --games 200 --seed $SEED --json > gauntlet/$NAME-$o-$SEED.json
done
