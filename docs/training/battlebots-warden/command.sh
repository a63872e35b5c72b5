#!/bin/sh
# battlebots-warden (issue 34): from python/ of a git archive of 2ef46c4 (PYTHONPATH=src), one torch
# thread, BOTARENA_BIN and BOTARENA_LIB built from that commit.
set -e
OUT=${OUT:-runs/battlebots-warden}
P=../policies
# 1. The opening: from battlebots-seat0, imitate the built-in warden in 3-round bouts (its seat-0 opening
#    SE, wait, bullet SE, and the cautious duelist's first moves from seat 1): 1,000 games, 2 epochs, then
#    2 DAgger rounds of 600 games (the warden labels the clone's states), 2 epochs each; one PPO update.
#    (Imitating the whole warden in 100-round bouts failed: 20% held-out accuracy, and the clone won 0 of
#    123 bouts against duelist; that branch was stopped in its first DAgger round.)
IMIX="duelist*4,gambit*4,policy:$P/battlebots-seat0.policy.safetensors?sample*2,policy:$P/battlebots-gambit.policy.safetensors?sample*2,sniper"
python -m botarena.train --game battlebots --init $P/battlebots-seat0.policy.safetensors \
  --config '{"hp_reward": 0.1, "max_rounds": 3}' --opponent "$IMIX" \
  --imitate warden --imitate-games 1000 --imitate-epochs 2 --imitate-lr 3e-4 \
  --dagger-rounds 2 --dagger-games 600 --dagger-epochs 2 \
  --total-steps 8192 --num-envs 256 --num-steps 32 --threads 1 --seed 3511 \
  --eval-games 0 --gauntlet-games 0 --out "$OUT/opening" --resume auto
# 2. PPO from the clone, the learner in seat 0 in 3 envs of 4, full 1000-round bouts, hp_reward 0.1,
#    entropy 0.001, against a mixture weighted towards duelist, gambit, warden and the committed policies.
MIX="duelist*6,gambit*6,warden*4,policy:$P/battlebots-seat0.policy.safetensors?sample*3,policy:$P/battlebots-gambit.policy.safetensors?sample*3,policy:$P/battlebots-duelist.policy.safetensors?sample*2,sniper*3,huggy*2,nop*2,random*2,policy:$P/battlebots.policy.safetensors?sample,policy:$P/battlebots-league.policy.safetensors?sample,policy:$P/battlebots-holdout.policy.safetensors?sample,policy:$P/battlebots-sniper.policy.safetensors?sample,policy:$P/battlebots-all.policy.safetensors?sample"
python -m botarena.train --game battlebots --init "$OUT/opening/policy.safetensors" \
  --config '{"hp_reward": 0.1}' --opponent "$MIX" --learner-seats 0,0,0,1 \
  --num-envs 256 --num-steps 32 --overlap --threads 1 --seed 3512 --minutes ${PPO_MINUTES:-30} --ent-coef 0.001 \
  --checkpoint-every 10 --eval-games 0 --gauntlet-games 0 --out "$OUT/ppo" --resume auto
# As run: OUT=/work/runs/bots3/out, PPO_MINUTES=30; the PPO part ran 135 updates (1.11M learner steps) at load
# averages 3-13, 250-1,500 learner steps/s (the warden and the duelist-based opponents cost 1-2 ms a round).
#
# The branch that failed first (train-full-imitation-branch.log), stopped in its first DAgger round: the same
# command as step 1 but imitating the whole warden in 100-round bouts, 600 games, 4 epochs, 2 DAgger rounds of
# 400 games (--config '{"hp_reward": 0.1, "max_rounds": 100}' --imitate-games 600 --imitate-epochs 4
# --dagger-games 400, --seed 3501): held-out accuracy 20-22%, and the clone won 0 of 123 bouts against duelist.
#
# The evaluation (from the repository root of the same archive), a screen of 30 games per seating on a seed
# unseen in training, and the baselines:
# bin/botarena tournament battlebots --agents "trained=policy:$OUT/ppo/policy.safetensors?sample,duelist,gambit,warden,sniper,huggy,nop,random,policy:policies/battlebots-seat0.policy.safetensors?sample,policy:policies/battlebots-holdout.policy.safetensors?sample" \
#   --focus trained --games 30 --seed 3434343434 --json > eval.json
# bin/botarena tournament battlebots --agents 'trained=policy:policies/battlebots-seat0.policy.safetensors?sample,warden' --focus trained --games 100 --seed 3434343434 --json > seat0-vs-warden.json
# The warden itself (commit 0df5888):
# bin/botarena tournament battlebots --agents t=warden,duelist,gambit --focus t --games 100 --seed 777 --json > warden-duelist-gambit.json
# bin/botarena tournament battlebots --agents t=warden,sniper,huggy,nop,random --focus t --games 100 --seed 778 --json > warden-older-bots.json
