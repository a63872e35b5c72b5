#!/bin/sh
# battlebots-holdout (issue 34): PPO from the committed battlebots-duelist policy against a mixture
# weighted towards duelist, bouts capped at 250 rounds in training (max_rounds; the bout is still won by
# the higher HP), the game's own HP shaping (hp_reward 0.1). Evaluation (the gauntlet) plays the full
# 1000-round game unshaped. Run from python/ (PYTHONPATH=src); 72 minutes, one torch thread.
python -m botarena.train --game battlebots --init ../policies/battlebots-duelist.policy.safetensors \
  --config '{"hp_reward": 0.1, "max_rounds": 250}' \
  --opponent "duelist*8,sniper*3,huggy,nop,random,policy:../policies/battlebots.policy.safetensors?sample,policy:../policies/battlebots-league.policy.safetensors?sample" \
  --num-envs 256 --num-steps 32 --overlap --threads 1 --seed 34 --minutes 72 \
  --checkpoint-every 10 --eval-games 0 --gauntlet-games 0 --out "${OUT:-runs/battlebots-holdout}" --resume auto
# The gauntlet, 100 games per pairing and seating, full-length unshaped bouts (from the repository root):
# bin/botarena tournament battlebots --gauntlet --agents 'trained=policy:policies/battlebots-holdout.policy.safetensors?sample,trained-argmax=policy:policies/battlebots-holdout.policy.safetensors' \
#   --focus trained,trained-argmax --games 100 --seed 11400714819323198519 --json
