#!/bin/bash
# ships15 gauntlet (issue 34), 14x14: sampling, both seats, 200 games a seating (400 a pairing a seed), seeds 7171,
# 7272, 7373 (new). gauntlet.sh NAME=POLICY [NAME=POLICY ...]; run from the repository root; JSON in
# docs/training/battleships-large-gunner/gauntlet/NAME-OPP-SEED.json; table: ../battleships-medium-fleet/table.py.
# Every policy plays under large-sharp4's config M. First admiral on the three seeds for every policy, then hunter
# and marksman on 7171 and 7272, reference and gunner on 7171.
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
G=docs/training/battleships-large-gunner/gauntlet; mkdir -p $G
run() {  # NAME POLICY SEED OPPONENT
  nice -n 5 bin/botarena tournament battleships/large --workers 2 --config "$M" --agents "p=policy:$2?sample,$4" --focus p --games 200 --seed $3 --json > $G/$1-$4-$3.json
}
for a in "$@"; do for s in 7171 7272 7373; do run ${a%%=*} ${a#*=} $s admiral; done; done
for a in "$@"; do for s in 7171 7272; do for o in hunter marksman; do run ${a%%=*} ${a#*=} $s $o; done; done; done
for a in "$@"; do for o in reference gunner; do run ${a%%=*} ${a#*=} 7171 $o; done; done
