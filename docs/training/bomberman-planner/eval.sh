#!/bin/sh
# The planner's evaluation (issue 34, 2026-11-30), from the repository root with bin/botarena built.
# Seeds 34001-34004, unseen in tuning (tuning used the harness on seeds 1000-1039 and 2000-2039).
set -e
B=${B:-bin/botarena}
O=${O:-runs/bomberman-planner}
mkdir -p $O
# 2 players, 100 games a seat (against harvester 60 a seat), every seat.
$B tournament bomberman/2p --agents planner,hunter --games 100 --seed 34001 --json > $O/2p-hunter.json
$B tournament bomberman/2p --agents planner,harvester --games 60 --seed 34002 --json > $O/2p-harvester.json
$B tournament bomberman/2p --agents planner,harvester --games 40 --seed 34012 --json > $O/2p-harvester-b.json
$B tournament bomberman/2p --agents planner,reference --games 100 --seed 34003 --json > $O/2p-reference.json
$B tournament bomberman/2p --config '{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}' \
  --agents 'planner,ppo=policy:policies/bomberman-2p-harvester-ppo.policy.safetensors?sample' --games 25 --seed 34005 --json > $O/2p-ppo.json
# 4 players, alone against three hunters: the harness (docs/training/bomberman-planner/planner_scratch_test.go.txt,
# copied to env/bomberman/planner_scratch_test.go), which moves the planner one seat on every game.
cp docs/training/bomberman-planner/planner_scratch_test.go.txt env/bomberman/planner_scratch_test.go
(cd env/bomberman && go test -c -tags scratch -o /tmp/planner-scratch.test .)
rm env/bomberman/planner_scratch_test.go
for s in 34100 34200; do
  S_P=4 S_OPP=hunter S_ME=planner S_N=40 S_SEED=$s S_V=1 /tmp/planner-scratch.test -test.run TestScratchPlanner > $O/4p-hunter-$s.txt
done
for s in 34300 34400; do
  S_P=4 S_OPP=harvester S_ME=planner S_N=20 S_SEED=$s S_V=1 /tmp/planner-scratch.test -test.run TestScratchPlanner > $O/4p-harvester-$s.txt
done
# Six recorded games against hunter, read round by round (recordings/summary.txt).
for s in 101 102 103 104 105 106; do
  if [ $((s % 2)) = 1 ]; then a=planner,hunter; else a=hunter,planner; fi
  $B play bomberman/2p --agents $a --seed $s --record $O/hunter-$s.jsonl --json > $O/hunter-$s.json
done
python3 docs/training/bomberman-planner/recordings.py $O/hunter-10[1-6].jsonl > $O/summary.txt
