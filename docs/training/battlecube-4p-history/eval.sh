#!/bin/sh
# eval.sh NAME POLICY CONFIG: the policy (sampling and arg-max) alone against three teebots and against three
# stalkers, 50 cubes a seat (200 a pairing), in battlecube, seed 2026112931 (apart from training); 1,000 cubes
# against three stalkers (250 a seat, seed 2026112932); then battlecube/tasks3 as the first; all with game
# config CONFIG ('{"history":true}' for this run's policy, '{}' for battlecube-4p). W: tournament workers.
# As run: B=/tmp/cubehist/botarena built from 9d50d01, O=/work/runs/cube-history/eval, W=2, NAME "hist" for
# this run's policy. For "base" (policies/battlecube-4p.policy.safetensors) the JSONs are helper-55's
# (docs/training/battlecube-4p-stalker/base-*.json, the same commands and seeds, a binary of 884d595): this
# binary's base-battlecube-sample.json came out identical to that file, pair for pair.
N=$1; P=$2; C=$3; S=2026112931; W=${W:-1}; B=${B:-/tmp/cubehist/botarena}; O=${O:-/work/runs/cube-history/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N --lone --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json; done
for m in sample argmax; do tour battlecube $m stalker 250 2026112932 $N-stalker-$m-1000.json; done
for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json; done
echo DONE
