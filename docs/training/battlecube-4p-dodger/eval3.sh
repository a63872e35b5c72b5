#!/bin/sh
# eval3.sh NAME POLICY: what was run for the final policy when time was short (09:00-09:25 UTC), beside
# eval2.sh's first command (tasks3 sampling): one-task cubes alone against three stalkers, 50 a seat, seed
# 2026112932 (the seed of eval.sh's 1,000-cube set, 200 cubes here), then 2 players against teebot and
# stalker, 100 a seat, seed 2026112931, then tasks3 arg-max (as eval.sh), sampling before arg-max.
N=$1; P=$2; C=${C:-'{"history":true,"tasks_scalar":true}'}; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube4/botarena}; O=${O:-/work/runs/cube4/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do tour battlecube $m stalker 50 2026112932 $N-stalker-$m-200.json --lone; done
tour battlecube/2p sample teebot,stalker 100 $S $N-2p-sample.json
tour battlecube/tasks3 argmax teebot,stalker 50 $S $N-battlecube-tasks3-argmax.json --lone
echo DONE
