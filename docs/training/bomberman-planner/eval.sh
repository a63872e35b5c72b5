#!/bin/sh
# The planner's evaluation (issue 34, 2026-11-30), from the repository root with bin/botarena built.
# Seeds 34001-34004, unseen in tuning (tuning used the harness on seeds 1000-1039 and 2000-2079).
# The first part gave the first version's figures (gauntlet.md) with bin/botarena built at commit 5af9bd6;
# built later, it plays the current planner. The second part (v2-*) is the second version's.
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

# The second version (helper bomber9, issue 34): the opponent model picked per opponent (adapt).
# (The first version's games against harvester on seeds 34042 and 34052: the same two commands with bin/botarena
# built at e8edcc5.) Seeds 34041-34043, 34052 and the harness seeds 34140, 34340, 34540, unseen in tuning (seeds 2000-2079).
$B tournament bomberman/2p --agents planner,hunter --games 100 --seed 34041 --json > $O/v2-2p-hunter.json
$B tournament bomberman/2p --agents planner,harvester --games 100 --seed 34042 --json > $O/v2-2p-harvester.json
$B tournament bomberman/2p --agents planner,harvester --games 100 --seed 34052 --json > $O/v2-2p-harvester-b.json
$B tournament bomberman/2p --agents planner,reference --games 100 --seed 34043 --json > $O/v2-2p-reference.json
# Against the first version (planner0 in the harness: the first version's settings, adapt off), 2 players,
# and 4 players alone against three hunters and three harvesters.
S_P=2 S_OPP=planner0 S_ME=planner S_N=100 S_SEED=34540 S_V=1 /tmp/planner-scratch.test -test.run TestScratchPlanner > $O/v2-2p-planner0-34540.txt
S_P=4 S_OPP=hunter S_ME=planner S_N=40 S_SEED=34140 S_V=1 /tmp/planner-scratch.test -test.run TestScratchPlanner > $O/v2-4p-hunter-34140.txt
S_P=4 S_OPP=harvester S_ME=planner S_N=40 S_SEED=34340 S_V=1 /tmp/planner-scratch.test -test.run TestScratchPlanner > $O/v2-4p-harvester-34340.txt
