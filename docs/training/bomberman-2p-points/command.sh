#!/bin/sh
# The bomberman/2p run with the game's points as shaping (issue 34), from policies/bomberman-2p-safe;
# run from python/ with PYTHONPATH=src. Against hunter the committed policy survives most games and loses
# them on points at the round cap (11 of 20 recorded games), so this run rewards the points it scores.
exec nice -n 5 /tmp/tv/bin/python -m botarena.train --game bomberman/2p \
  --config '{"view_radius": 11, "safe_mask": true, "points_reward": 0.001}' \
  --init /work/main/policies/bomberman-2p-safe.policy.safetensors \
  --self-play --overlap --bf16 --threads 1 --minutes 60 --out /work/runs/bomberman-points --resume auto \
  --opponent hunter --league-bots "hunter,reference,policy:/work/main/policies/bomberman-2p-safe.policy.safetensors?sample" \
  --snapshot-every 15 --league-games 16 --eval-games 50 --gauntlet-games 0
