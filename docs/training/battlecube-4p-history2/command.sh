#!/bin/sh
# battlecube-4p-history2 (issue 34, 2026-11-30): battlecube-4p-history trained on in the same one-task cubes
# for 50 more minutes: game battlecube with {"history": true}, --init the committed
# policies/battlecube-4p-history.policy.safetensors, opponent mixture stalker (weight 3) and teebot (1) drawn
# per opponent seat at each episode start (42% of the cubes three stalkers, 1.6% three teebots), the learner
# in every seat, the game's own reward, no league; one torch thread, fp32, --overlap, nice -n 5.
# As run: from python/ of a git archive of dceb2d2 (/tmp/cube2/src), PYTHONPATH=src, BOTARENA_BIN and
# BOTARENA_LIB built from that archive, --out /work/runs/cube2/stage1; 50 minutes (01:24-02:14 UTC), 70
# updates, 573,440 learner steps, 137-264 steps/s beside a BattleBots training run (load average 5-6 on 2
# cores). Resumable (run it again).
exec nice -n 5 python -m botarena.train --game battlecube --config '{"history": true}' \
  --init ../policies/battlecube-4p-history.policy.safetensors \
  --overlap --threads 1 --minutes 50 --gamma 0.995 --seed 35 --out ../runs/battlecube-4p-history2 --resume auto \
  --opponent "stalker*3,teebot" --checkpoint-every 10 --eval-games 0 --gauntlet-games 0
