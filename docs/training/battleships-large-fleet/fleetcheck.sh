#!/bin/sh
# ships14 fleetcheck.sh POLICY TAG [N]: medium-fleet's fleetcheck.sh on 14x14: N (default 100) sampled games of
# POLICY (battleships/large) from seat 0 against admiral (seeds 130000..; analysis, not a gauntlet), recorded under
# rec/TAG-fleet-*, then ../battleships-small-fleet/fleets.py (ships12's) on them. CFG: the config (default
# large-sharp4's + fleet_planes).
M=${CFG:-'{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'}
N=${3:-100}; i=0; case "$1" in *\?*) AG="policy:$1";; *) AG="policy:$1?sample";; esac
mkdir -p rec
while [ $i -lt $N ]; do
  s=$((130000 + i))
  [ -f rec/$2-fleet-$s.jsonl ] || nice -n 5 botarena play battleships/large --config "$M" --agents "$AG,admiral" --seed $s --record rec/$2-fleet-$s.jsonl > /dev/null 2>&1
  i=$((i + 1))
done
python3 $(dirname $0)/../battleships-small-fleet/fleets.py $2 fleet 130000
