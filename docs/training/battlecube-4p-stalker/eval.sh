#!/bin/sh
# (As run: the binary built from 884d595 at /tmp/cube/botarena, outputs to /work/runs/cube/eval; NAME was
# "s1" for this run's policy and "base" for policies/battlecube-4p.policy.safetensors. The 1,000-game stalker
# rows: the same tournament with --agents "NAME=policy:PATH[?sample],stalker" --games 250 --seed 2026112932.)
# eval.sh NAME POLICY: the policy (sampling and arg-max) alone against three teebots / three stalkers,
# 50 games a seat, in battlecube and battlecube/tasks3; and 2-player battlecube/2p against teebot and stalker, 100 a seat.
N=$1; P=$2; S=2026112931; B=/tmp/cube/botarena; O=/work/runs/cube/eval
cd /work/main
for g in battlecube battlecube/tasks3; do
  t=$(echo $g | tr / -)
  nice -n 15 $B tournament $g --agents "$N=policy:$P?sample,teebot,stalker" --focus $N --lone --games 50 --seed $S --workers 1 --json > $O/$N-$t-sample.json
  nice -n 15 $B tournament $g --agents "$N=policy:$P,teebot,stalker" --focus $N --lone --games 50 --seed $S --workers 1 --json > $O/$N-$t-argmax.json
done
nice -n 15 $B tournament battlecube/2p --agents "$N=policy:$P?sample,teebot,stalker" --focus $N --games 100 --seed $S --workers 1 --json > $O/$N-2p-sample.json
nice -n 15 $B tournament battlecube/2p --agents "$N=policy:$P,teebot,stalker" --focus $N --games 100 --seed $S --workers 1 --json > $O/$N-2p-argmax.json
echo DONE
