#!/bin/sh
# eval.sh NAME POLICY [WHICH]: ../battlecube-4p-history2/eval.sh's commands and seeds (its hist2-*.json are the
# baseline) with C='{"history":true,"tasks_scalar":true}': the policy (sampling and arg-max) alone against three
# teebots and against three stalkers, 50 cubes a seat (200 a pairing), in battlecube/tasks3 and in battlecube
# (one task), seed 2026112931; 2 players (battlecube/2p) against teebot and stalker, 100 a seat. Not run: the
# 1,000-cube set. WHICH: fast (tasks3, 2p; default), onetask, or all (the six at once). W: tournament workers.
# As run: B=/tmp/cube5/botarena built from 4793605, O=/work/runs/cube5/eval, `eval.sh dist POLICY all` (12:07 UTC on), `eval.sh dist3 POLICY all` (12:23 on).
# The same binary reproduced hist2-battlecube-tasks3-argmax.json pair for pair (repro-hist2-battlecube-tasks3-argmax.json).
N=$1; P=$2; C=${C:-'{"history":true,"tasks_scalar":true}'}; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube5/bin/botarena}; O=${O:-/work/runs/cube5/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
case ${3:-fast} in
fast)
  for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone & done
  for m in sample argmax; do tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json & done
  wait ;;
onetask)
  for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone & done
  wait ;;
all)
  for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone & done
  for m in sample argmax; do tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json & done
  for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone & done
  wait ;;
esac
echo DONE
