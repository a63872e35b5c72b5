#!/bin/sh
# battlebots-gambit (issue 34), as run: from python/ (PYTHONPATH=src), one torch thread, BOTARENA_BIN and
# BOTARENA_LIB built from commit 47df736 (the first with the built-in bot `gambit`).
OUT=${OUT:-runs/battlebots-gambit}
# 1. The opening (72 s): from the committed battlebots-holdout policy, imitate the built-in `gambit` (the
#    duelist with an opening: walk the diagonal, a bullet when the enemy stands in line 2-3 cells away,
#    step off the line when in danger) in 8-round bouts, so that its games hold the opening only:
#    2,000 games against a duelist-weighted mixture, 4 epochs, then 2 DAgger rounds of 1,000 games
#    (gambit labels the clone's states), 2 epochs each; then one PPO update.
python -m botarena.train --game battlebots --init ../policies/battlebots-holdout.policy.safetensors \
  --config '{"hp_reward": 0.1, "max_rounds": 8}' \
  --opponent "duelist*4,policy:../policies/battlebots-duelist.policy.safetensors?sample*2,sniper,huggy" \
  --imitate gambit --imitate-games 2000 --imitate-epochs 4 --imitate-lr 3e-4 --dagger-rounds 2 --dagger-games 1000 --dagger-epochs 2 \
  --total-steps 8192 --num-envs 256 --num-steps 32 --threads 1 --seed 341 \
  --eval-games 0 --gauntlet-games 0 --out "$OUT/opening" --resume auto
# 2. PPO from the clone against a mixture weighted towards duelist and gambit, with the committed
#    policies, the game's HP shaping (hp_reward 0.1) and short bouts in training (max_rounds: the bout is
#    still won by the higher HP; evaluation plays the full 1000-round bout, unshaped).
MIX="duelist*6,gambit*2,policy:../policies/battlebots-duelist.policy.safetensors?sample*3,sniper*3,huggy,nop,random,policy:../policies/battlebots.policy.safetensors?sample,policy:../policies/battlebots-league.policy.safetensors?sample,policy:../policies/battlebots-holdout.policy.safetensors?sample"
# 2a. 100-round bouts, the default entropy coefficient (0.01); this part was stopped after the
#     checkpoint of update 100 (13.6 minutes, 0.82M steps), when the policy's entropy had risen from
#     0.9 to 1.4 and its sampled play lost long bouts to duelist.
python -m botarena.train --game battlebots --init "$OUT/opening/policy.safetensors" \
  --config '{"hp_reward": 0.1, "max_rounds": 100}' --opponent "$MIX" \
  --num-envs 256 --num-steps 32 --overlap --threads 1 --seed 342 --minutes 55 \
  --checkpoint-every 10 --eval-games 0 --gauntlet-games 0 --out "$OUT/ppo" --resume auto
# 2b. Resumed from update 100 with 200-round bouts and entropy coefficient 0.003 to the 55 minutes
#     (update 427), then the same command with --minutes 68 (update 543, 4.45M learner steps).
for M in 55 68; do
python -m botarena.train --game battlebots --init "$OUT/opening/policy.safetensors" \
  --config '{"hp_reward": 0.1, "max_rounds": 200}' --opponent "$MIX" \
  --num-envs 256 --num-steps 32 --overlap --threads 1 --seed 342 --minutes $M --ent-coef 0.003 \
  --checkpoint-every 10 --eval-games 0 --gauntlet-games 0 --out "$OUT/ppo" --resume auto
done
# The gauntlet, 100 full-length unshaped games per pairing and seating (from the repository root):
# bin/botarena tournament battlebots --gauntlet --agents 'trained=policy:policies/battlebots-gambit.policy.safetensors?sample,trained-argmax=policy:policies/battlebots-gambit.policy.safetensors' \
#   --focus trained,trained-argmax --games 100 --seed 3434343434 --json
