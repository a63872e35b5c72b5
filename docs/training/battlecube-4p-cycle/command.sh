#!/bin/sh
# battlecube-4p-cycle (issue 34, 2026-11-30): battlecube-4p-history2 with the cycle-mark scalars
# ({"history": true, "cycle_marks": true}; --init widens its 7 scalars to 21 with zero columns), in stages
# that alternate tasks3 and one-task cubes (the trainer takes one game config a run):
#   A  battlecube/tasks3, opponents teebot*3,stalker, 20 updates (163,840 learner steps; as run: a 28-minute
#      budget stopped by hand after update 20, 18.5 minutes)
#   (A's policy with the 14 new scalars' input scale x10 and their trunk columns / 10: rescale.py, the same
#      function, so that Adam moves their weights' effect 10 times faster)
#   A2 battlecube/tasks3, teebot*5,stalker (58% of the cubes three teebots), 18 minutes
#   B  battlecube (one task), stalker*3,teebot, 10 minutes
#   C  battlecube/tasks3, teebot*5,stalker, 12 minutes
# One torch thread, fp32, --overlap, nice -n 5, the learner in every seat, the game's own reward.
# As run: from python/ of a git archive of cedaf58 (/tmp/cube3/src), PYTHONPATH=src, BOTARENA_BIN and
# BOTARENA_LIB built from it, R=/work/runs/cube3, 04:40-05:45 UTC beside two other training runs (load
# average 6-11 on 2 cores). Resumable (run it again; a finished stage has R/NAME/DONE).
set -e
R=${R:-../runs/battlecube-4p-cycle}; C='{"history": true, "cycle_marks": true}'
stage() { # stage NAME GAME OPPONENTS BUDGET SEED INIT
  [ -f $R/$1/DONE ] && return 0
  nice -n 5 python -m botarena.train --game $2 --config "$C" --init $6 $4 \
    --overlap --threads 1 --gamma 0.995 --seed $5 --out $R/$1 --resume auto \
    --opponent "$3" --checkpoint-every 5 --eval-games 0 --gauntlet-games 0
  touch $R/$1/DONE
}
stage A battlecube/tasks3 "teebot*3,stalker" "--total-steps 163840" 37 ../policies/battlecube-4p-history2.policy.safetensors
[ -f $R/A-x10.policy.safetensors ] || python ../docs/training/battlecube-4p-cycle/rescale.py $R/A/policy.safetensors $R/A-x10.policy.safetensors 7 10
stage A2 battlecube/tasks3 "teebot*5,stalker" "--minutes 18" 40 $R/A-x10.policy.safetensors
stage B battlecube "stalker*3,teebot" "--minutes 10" 38 $R/A2/policy.safetensors
stage C battlecube/tasks3 "teebot*5,stalker" "--minutes 12" 39 $R/B/policy.safetensors
