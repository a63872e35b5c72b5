#!/bin/sh
# eval.sh NAME POLICY: the gauntlet of docs/training/battlecube-4p-history2/eval.sh (same seeds and commands)
# with the game config C (default {"history":true,"cycle_marks":true}): the policy (sampling and arg-max)
# alone against three teebots and against three stalkers, 50 cubes a seat (200 a pairing), in battlecube,
# seed 2026112931 (apart from training); 1,000 cubes against three stalkers (250 a seat, seed 2026112932);
# battlecube/tasks3 as the first; 2 players (battlecube/2p) against teebot and stalker, 100 a seat.
# As run: B=/tmp/cube3/botarena built from cedaf58, O=/work/runs/cube3/eval, W=2 (05:41-05:56 UTC). The baseline
# (battlecube-4p-history2, C={"history":true}) is docs/training/battlecube-4p-history2/hist2-*.json, which
# this binary reproduced (see gauntlet.md).
N=$1; P=$2; C=${C:-'{"history":true,"cycle_marks":true}'}; S=2026112931; W=${W:-1}; B=${B:-/tmp/cube3/botarena}; O=${O:-/work/runs/cube3/eval}
mkdir -p $O
tour() { # tour GAME MODE(sample|argmax) OPPONENTS GAMES SEED OUT [--lone]
  q=""; [ "$2" = sample ] && q="?sample"
  nice -n 15 $B tournament $1 --config "$C" --agents "$N=policy:$P$q,$3" --focus $N $7 --games $4 --seed $5 --workers $W --json > $O/$6
}
for m in sample argmax; do tour battlecube/tasks3 $m teebot,stalker 50 $S $N-battlecube-tasks3-$m.json --lone; done
for m in sample argmax; do tour battlecube $m teebot,stalker 50 $S $N-battlecube-$m.json --lone; done
for m in sample argmax; do tour battlecube $m stalker 250 2026112932 $N-stalker-$m-1000.json --lone; done
for m in sample argmax; do tour battlecube/2p $m teebot,stalker 100 $S $N-2p-$m.json; done
echo DONE
