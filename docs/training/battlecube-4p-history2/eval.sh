#!/bin/sh
# eval.sh NAME POLICY: the policy (sampling and arg-max), game config {"history":true}, alone against three
# teebots and against three stalkers, 50 cubes a seat (200 a pairing), in battlecube, seed 2026112931 (apart
# from training); 1,000 cubes against three stalkers (250 a seat, seed 2026112932); battlecube/tasks3 as the
# first; 2 players (battlecube/2p) against teebot and stalker, 100 a seat (200 a pairing). The same commands
# and seeds as docs/training/battlecube-4p-history/eval.sh (plus its 2-player rows). W: tournament workers.
# As run: B=/tmp/cube2/botarena built from dceb2d2, O=/work/runs/cube2/eval, W=1; NAME "hist2" for this
# run's policy, "hist" for policies/battlecube-4p-history.policy.safetensors (the baseline).
N=$1; P=$2; C='{"history":true}'; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube2/botarena}; O=${O:-/work/runs/cube2/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone; done
for m in sample argmax; do tour battlecube $m stalker 250 2026112932 $N-stalker-$m-1000.json --lone; done
for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone; done
for m in sample argmax; do tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json; done
echo DONE
