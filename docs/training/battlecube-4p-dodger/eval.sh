#!/bin/sh
# eval.sh NAME POLICY: the gauntlet of ../battlecube-4p-history2/eval.sh and ../battlecube-4p-cycle/eval.sh (same
# seeds and commands) with the game config C (default {"history":true,"tasks_scalar":true}): the policy
# (sampling and arg-max) alone against three teebots and against three stalkers, 50 cubes a seat (200 a
# pairing), in battlecube/tasks3 and battlecube, seed 2026112931 (apart from training); 1,000 one-task cubes
# against three stalkers (250 a seat, seed 2026112932); 2 players (battlecube/2p) against teebot and stalker,
# 100 a seat. As run: B=/tmp/cube4/botarena built from a9d01f9, O=/work/runs/cube4/eval, W=2. The baseline
# (battlecube-4p-history2, C={"history":true}) is ../battlecube-4p-history2/hist2-*.json, which this binary
# reproduced pair for pair (see gauntlet.md).
N=$1; P=$2; C=${C:-'{"history":true,"tasks_scalar":true}'}; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube4/botarena}; O=${O:-/work/runs/cube4/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone; done
for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone; done
for m in sample argmax; do tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json; done
for m in sample argmax; do tour battlecube $m stalker 250 2026112932 $N-stalker-$m-1000.json --lone; done
echo DONE
