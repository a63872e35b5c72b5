#!/bin/sh
# DAgger round (helper bomber11, issue 34): the student (sampling) plays hunter and harvester, planner labels each of
# its decisions (dagger:planner:policy:STUDENT?sample); the game's own touched planes and opponent scalars, view 11.
# dagger.sh STUDENT OUTDIR GAMES_PER_OPPONENT SEED_BASE  (seeds SEED_BASE+1 against hunter, +2 against harvester)
B=/work/runs/bomber11/bin2/botarena
CFG='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
st=$1; out=$2; games=$3; sb=$4; i=1
for opp in hunter harvester; do
  d=$out/$opp
  if [ ! -d $d/league ]; then
    mkdir -p $d
    $B league init $d/league --game bomberman/2p --seed $((sb + i)) --config "$CFG"
    $B league add $d/league student "dagger:planner:policy:$st?sample"
    $B league add $d/league opponent $opp
  fi
  $B league run $d/league --games $games --match round-robin --data $d/data --workers 1 --png ''
  i=$((i + 1))
done
