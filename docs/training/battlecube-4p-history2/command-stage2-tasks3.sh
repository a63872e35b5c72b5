#!/bin/sh
# Stage 2 (negative result, not committed as a policy): battlecube-4p-history2 trained on in battlecube/tasks3
# cubes with {"history": true} for 40 minutes, opponent mixture teebot (weight 3) and stalker (1) per seat
# (42% of the cubes three teebots), otherwise as command.sh. As run: from python/ of the same archive of
# dceb2d2, --init /work/runs/cube2/stage1/policy.safetensors (= policies/battlecube-4p-history2),
# --out /work/runs/cube2/stage2; 02:14-02:55 UTC.
exec nice -n 5 python -m botarena.train --game battlecube/tasks3 --config '{"history": true}' \
  --init ../policies/battlecube-4p-history2.policy.safetensors \
  --overlap --threads 1 --minutes 40 --gamma 0.995 --seed 36 --out ../runs/battlecube-4p-history2-tasks3 --resume auto \
  --opponent "teebot*3,stalker" --checkpoint-every 10 --eval-games 0 --gauntlet-games 0
