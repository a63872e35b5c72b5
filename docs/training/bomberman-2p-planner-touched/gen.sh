#!/bin/sh
# planner (played) with harvester's label beside each decision; whole-map view; mask wary+strict (as bomber10's gen.sh)
B=/work/runs/bomber11/bin/botarena
CFG='{"view_radius":0,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
d=$1; opp=$2; seed=$3; games=$4
if [ ! -d $d/league ]; then
  mkdir -p $d
  $B league init $d/league --game bomberman/2p --seed $seed --config "$CFG"
  $B league add $d/league teacher "dagger:harvester:planner"
  $B league add $d/league opponent $opp
fi
$B league run $d/league --games $games --match round-robin --data $d/data --workers 1 --png ''
