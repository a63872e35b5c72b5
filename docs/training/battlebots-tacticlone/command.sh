#!/bin/sh
# battlebots-tacticlone (issue 34, helper bb15, 2026-12-01): clone the `tactician` built-in bot, then PPO keeping
# the imitation term. A negative result: no policy committed. As run: from python/ (PYTHONPATH=src) at HEAD 64ddf3b,
# one torch thread, nice -n 5, BOTARENA_BIN and BOTARENA_LIB built from that commit, OUT=/work/runs/bb15.
#
# One command: a wider network than the committed policies' (conv 32,64 instead of 16,32; hidden 256), from
# scratch, behaviour-cloned on 2,000 full-length bouts of tactician (both seats, against the mixture below by
# weight), 10 epochs, then 2 DAgger rounds of 600 bouts (tactician labels the clone's states), 3 epochs each;
# then PPO under a budget that includes the imitation (about 24 min); as run, --minutes 32 (to update 17),
# then the same command resumed (--resume auto) with --minutes 42 (to update 41, 330k learner steps; the gauntlet's
# checkpoint), then with --minutes 50 (to update 70; screened only): 5 value-only updates
# (--value-warmup 5; checkpoint update_00005 is the clone with a fitted value head), then PPO with
# 0.5 x the cross-entropy on the tactician's decisions in every minibatch, the learner in seat 0 in 3 envs of 4,
# full 1000-round bouts, hp_reward 0.1, entropy 0.001.
set -e
OUT=${OUT:-runs/battlebots-tacticlone}
P=../policies
MIX="tactician*5,warden*5,duelist*5,gambit*5,policy:$P/battlebots-seat0.policy.safetensors?sample*3,policy:$P/battlebots-gambit.policy.safetensors?sample*2,policy:$P/battlebots-duelist.policy.safetensors?sample,sniper*3,huggy*2,nop,random,policy:$P/battlebots.policy.safetensors?sample,policy:$P/battlebots-league.policy.safetensors?sample,policy:$P/battlebots-holdout.policy.safetensors?sample,policy:$P/battlebots-sniper.policy.safetensors?sample,policy:$P/battlebots-all.policy.safetensors?sample"
python -m botarena.train --game battlebots --channels 32,64 --hidden 256 --config '{"hp_reward": 0.1}' --opponent "$MIX" --learner-seats 0,0,0,1 \
  --imitate tactician --imitate-games 2000 --imitate-epochs 10 --dagger-rounds 2 --dagger-games 600 --dagger-epochs 3 --imitate-coef 0.5 \
  --value-warmup 5 --num-envs 256 --num-steps 32 --overlap --threads 1 --seed 1516 --minutes 42 --ent-coef 0.001 \
  --checkpoint-every 5 --eval-games 0 --gauntlet-games 0 --out "$OUT/out2" --resume auto

# The first attempt (train-first-clone.log): the committed policies' network (16,32; 256), from
# battlebots-seat0's weights, 600 bouts, 4 epochs, 2 DAgger rounds of 300 bouts, 2 epochs; stopped after one
# value-only update (--total-steps 8192). Same MIX, --imitate-coef 0.2, --checkpoint-every 10, seed 1515:
#   python -m botarena.train --game battlebots --init $P/battlebots-seat0.policy.safetensors --config '{"hp_reward": 0.1}' \
#     --opponent "$MIX" --learner-seats 0,0,0,1 --imitate tactician --imitate-games 600 --imitate-epochs 4 \
#     --dagger-rounds 2 --dagger-games 300 --dagger-epochs 2 --imitate-coef 0.2 --value-warmup 5 --num-envs 256 \
#     --num-steps 32 --overlap --threads 1 --seed 1515 --total-steps 8192 --ent-coef 0.001 --checkpoint-every 10 \
#     --eval-games 0 --gauntlet-games 0 --out "$OUT/out" --resume auto
