#!/bin/sh
# The run of bomberman-2p-strict (issue 34), as run from python/ on 2026-11-30 10:52-12:13 UTC (80 minutes of budget:
# reading the match data and the one imitation epoch took 10, PPO the other 70: 47 updates, 385k learner steps at
# 51-184 steps/s beside other training runs and evaluations, load 7-13). A negative result: not committed as a policy.
# PPO under the strict safe mask
# from policies/bomberman-2p-harvester-ppo (--init), against a league of hunter, harvester, reference,
# bomberman-2p-safe and bomberman-2p-harvester-ppo (PFSP, so the weight goes to the ones it loses to), the imitation
# term of harvester kept (--imitate-coef 0.5 throughout). The reward is the game's training default, as in the earlier
# runs: win/loss plus points_reward 0.002 x the game's own points (the policy file records it); no new shaping.
# BOTARENA_BIN and BOTARENA_LIB were built from commit 4793605 into /tmp/b5:
#   go build -o /tmp/b5/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o /tmp/b5/libbotarena.so ./cmd/libbotarena
# It reuses the match data of the earlier runs (harvester's 300 games against hunter and harvester's labels on the
# clones' states: the two DAgger rounds of docs/training/bomberman-2p-harvester and the one of
# docs/training/bomberman-2p-harvester-ppo), 308,124 decisions; --imitate-games 1 adds one game. --imitate-epochs 1
# is the least the trainer takes; at --imitate-lr 1e-6 that epoch leaves the PPO policy as it is (it logs the
# held-out agreement with harvester), so the run starts as bomberman-2p-harvester-ppo's function.
O=/work/runs/bomber4/run/imitation
R=/work/runs/bomber5/run
mkdir -p $R/imitation/data
cp -r $O/league $R/imitation/league
cp $O/data/*.parquet $R/imitation/data/
for f in $O/dagger/round_01/data/*.parquet; do cp $f $R/imitation/data/games-dagger03-${f##*/games-}; done
BOTARENA_BIN=/tmp/b5/botarena BOTARENA_LIB=/tmp/b5/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
nice -n 5 /tmp/tv/bin/python -m botarena.train --game bomberman/2p \
  --config '{"view_radius": 11, "safe_mask": true, "safe_mask_wary": true, "safe_mask_strict": true}' \
  --init ../policies/bomberman-2p-harvester-ppo.policy.safetensors \
  --self-play --overlap --threads 1 --minutes ${MINUTES:-80} --out $R --resume auto \
  --opponent hunter --imitate harvester --imitate-games 1 --imitate-epochs 1 --imitate-lr 1e-6 --imitate-coef ${COEF:-0.5} \
  --league-bots "hunter,harvester,reference,policy:/work/main/policies/bomberman-2p-safe.policy.safetensors?sample,policy:/work/main/policies/bomberman-2p-harvester-ppo.policy.safetensors?sample" \
  --snapshot-every 6 --snapshot-share 0.15 --league-games 12 --checkpoint-every 2 --eval-games 0 --gauntlet-games 0
