#!/bin/sh
# The run of policies/bomberman-2p-harvester-ppo (issue 34), as run from python/ on 2026-11-30 07:44-08:50 UTC
# (62 minutes of budget: seeding the imitation data, one imitation epoch and one DAgger round took 22 minutes,
# PPO the other 40: 23 updates, 188k learner steps at 51-194 steps/s beside other training runs, load 7-12).
# BOTARENA_BIN and BOTARENA_LIB were built from commit 43c367d into /tmp/b4:
#   go build -o /tmp/b4/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o /tmp/b4/libbotarena.so ./cmd/libbotarena
# It starts from the DAgger student of docs/training/bomberman-2p-harvester (--init; that run's folder
# /work/runs/bomberman-harvester), and reuses that run's match data instead of replaying it:
O=/work/runs/bomberman-harvester/imitation
R=/work/runs/bomber4/run
mkdir -p $R/imitation/data
cp -r $O/league $R/imitation/league        # harvester against hunter: 300 games (the league is continued)
cp $O/data/*.parquet $R/imitation/data/
for f in $O/dagger/round_01/data/*.parquet; do cp $f $R/imitation/data/games-dagger01-${f##*/games-}; done
for f in $O/dagger/round_02/data/*.parquet; do cp $f $R/imitation/data/games-dagger02-${f##*/games-}; done
# --imitate-games 1 then adds one game to that league (237,030 decisions in all, harvester's labels on the
# clone's states included), --imitate-epochs 1 refits the student once on them (74.1% held out), and one DAgger
# round (300 games of the student against hunter under the wary mask, harvester labelling: it won 38 and played
# harvester's choice on 69.8% of 71,094 decisions) refits it on all 308,124 (75.2% held out); then PPO against
# the league, the imitation term kept (--imitate-coef 0.5). The run's mask is the wary one; the policy is played
# with safe_mask_strict as well (added after the run started, a5cf2ed: see eval.sh and mask-check.sh).
BOTARENA_BIN=/tmp/b4/botarena BOTARENA_LIB=/tmp/b4/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
nice -n 5 python -m botarena.train --game bomberman/2p \
  --config '{"view_radius": 11, "safe_mask": true, "safe_mask_wary": true}' \
  --init /work/runs/bomberman-harvester/imitation/dagger/round_02/student.policy.safetensors \
  --self-play --overlap --bf16 --threads 1 --minutes 62 --out /work/runs/bomber4/run --resume auto \
  --opponent hunter --imitate harvester --imitate-games 1 --imitate-epochs 1 --imitate-coef 0.5 \
  --dagger-rounds 1 --dagger-games 300 --dagger-epochs 1 \
  --league-bots "hunter,harvester,reference,policy:/work/main/policies/bomberman-2p-safe.policy.safetensors?sample" \
  --snapshot-every 15 --snapshot-share 0.15 --league-games 16 --eval-games 0 --gauntlet-games 0
cp $R/policy.safetensors ../policies/bomberman-2p-harvester-ppo.policy.safetensors
