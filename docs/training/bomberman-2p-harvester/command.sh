#!/bin/sh
# The run of docs/training/bomberman-2p-harvester (issue 34), as run from python/ on 2026-11-30 04:58 UTC,
# with BOTARENA_BIN and BOTARENA_LIB built from commit e2cbc3b (the commit that adds the harvester):
#   go build -o DIR/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o DIR/libbotarena.so ./cmd/libbotarena
# It was stopped by hand at 05:46 UTC, 48 minutes in, at the start of DAgger round 2 (the machine's load of
# 10-12 made each round take 20 minutes, so no PPO update would have run before the budget ended); the policy
# evaluated is imitation/dagger/round_02/student.policy.safetensors, the clone after the first DAgger refit.
# The evaluation: eval.sh.
BOTARENA_BIN=DIR/botarena BOTARENA_LIB=DIR/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
python -m botarena.train --game bomberman/2p --config '{"view_radius": 11, "safe_mask": true}' \
  --init ../policies/bomberman-2p-safe.policy.safetensors \
  --self-play --overlap --bf16 --threads 1 --minutes 60 --out /work/runs/bomberman-harvester --resume auto \
  --opponent hunter --imitate harvester --imitate-games 300 --imitate-epochs 4 --imitate-coef 0.5 \
  --dagger-rounds 3 --dagger-games 500 --dagger-epochs 2 \
  --league-bots "hunter,harvester,reference,policy:../policies/bomberman-2p-safe.policy.safetensors?sample" \
  --snapshot-every 15 --league-games 16 --eval-games 50 --gauntlet-games 0
