#!/bin/sh
# fleetcheck.sh POLICY TAG [N]: N (default 100) sampled games from seat 0 against admiral (seeds 130000..), recorded
# under rec/TAG-fleet-*, then fleets.py on them.
export PATH=/work/runs/ships12/bin:$PATH
M=${CFG:-'{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'}
N=${3:-100}; i=0; case "$1" in *\?*) AG="policy:$1";; *) AG="policy:$1?sample";; esac
while [ $i -lt $N ]; do
  s=$((130000 + i))
  [ -f rec/$2-fleet-$s.jsonl ] || nice -n 5 botarena play battleships/small --config "$M" --agents "$AG,admiral" --seed $s --record rec/$2-fleet-$s.jsonl > /dev/null 2>&1
  i=$((i + 1))
done
python3 fleets.py $2 fleet 130000
