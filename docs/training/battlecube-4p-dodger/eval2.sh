#!/bin/sh
# eval2.sh NAME POLICY: eval.sh's pairings and seeds in the order run for the final policy when time was
# short: sampling first (tasks3, one task, 2 players), then arg-max; without the 1,000-cube sets.
N=$1; P=$2; C=${C:-'{"history":true,"tasks_scalar":true}'}; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube4/botarena}; O=${O:-/work/runs/cube4/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do
  tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone
  tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone
  tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json
done
echo DONE
