#!/bin/sh
# eval-run.sh: the evaluation as run (09:00-09:05 UTC; B=/tmp/cube4/botarena built from a9d01f9, O=/work/runs/cube4/eval,
# one worker each). Every command is one of ../battlecube-4p-cycle/eval.sh's (its seeds, pairings, games a seat)
# with C='{"history":true,"tasks_scalar":true}', but the one-task cubes against three stalkers: 200 cubes of its
# 1,000-cube seed. Time was short: not run, the one-task cubes against three teebots (400 games, 1,000-tick draws)
# and the 1,000-cube sets. clone_02 (c2): the first two commands only, with c2 and its file.
# The tables: ../battlecube-4p-cycle/table.py O cf ../battlecube-4p-history2 hist2; recorded cubes:
# B=$B ../battlecube-4p-cycle/rec.sh POLICY DIR "$C", read with ../battlecube-4p-history2/deaths3.py DIR/*.jsonl.
P=${P:-/work/runs/cube4/mix/clone_final.policy.safetensors}; C='{"history":true,"tasks_scalar":true}'
B=${B:-/tmp/cube4/botarena}; O=${O:-/work/runs/cube4/eval}; S=2026112931
T="nice -n 15 $B tournament --config $C --focus cf --workers 1 --json"
mkdir -p $O
$T battlecube/tasks3 --agents "cf=policy:$P?sample,teebot,stalker" --lone --games 50 --seed $S > $O/cf-battlecube-tasks3-sample.json
$T battlecube/tasks3 --agents "cf=policy:$P,teebot,stalker" --lone --games 50 --seed $S > $O/cf-battlecube-tasks3-argmax.json
$T battlecube --agents "cf=policy:$P?sample,stalker" --lone --games 50 --seed 2026112932 > $O/cf-stalker-sample-200.json
$T battlecube --agents "cf=policy:$P,stalker" --lone --games 50 --seed 2026112932 > $O/cf-stalker-argmax-200.json
$T battlecube/2p --agents "cf=policy:$P?sample,teebot,stalker" --games 100 --seed $S > $O/cf-2p-sample.json
$T battlecube/2p --agents "cf=policy:$P,teebot,stalker" --games 100 --seed $S > $O/cf-2p-argmax.json
