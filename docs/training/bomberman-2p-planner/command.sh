#!/bin/sh
# The run of docs/training/bomberman-2p-planner (issue 34, helper bomber8), as run on 2026-11-30 20:36-21:26 UTC
# (50 minutes of budget at load 11-25 beside four other agents: planner's 240 games and the clone's two epochs took
# 15 minutes, two DAgger rounds 14, PPO the other 21: 35 updates, 287k learner steps at 160-250 steps/s).
# BOTARENA_BIN and BOTARENA_LIB were built from commit e8edcc5 (git archive of it, so that others' uncommitted
# edits in the shared tree stay out) into DIR:
#   go build -o DIR/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o DIR/libbotarena.so ./cmd/libbotarena
# From python/. It starts from policies/bomberman-2p-harvester-ppo (--init), under the wary + strict mask;
# imitates planner (240 games against hunter and harvester, 2 epochs), 2 DAgger rounds (160 games each, planner
# labelling the student's states, 1 epoch on everything so far), then PPO against hunter, harvester, planner and
# reference with planner's imitation term kept (--imitate-coef 0.5). The policy (not committed) is OUT/policy.safetensors.
BOTARENA_BIN=DIR/botarena BOTARENA_LIB=DIR/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
python -m botarena.train --game bomberman/2p \
  --config '{"view_radius": 11, "safe_mask": true, "safe_mask_wary": true, "safe_mask_strict": true}' \
  --init ../policies/bomberman-2p-harvester-ppo.policy.safetensors \
  --self-play --overlap --bf16 --threads 1 --minutes 50 --out /work/runs/bomber8/run --resume auto --seed 8 \
  --opponent hunter,harvester --imitate planner --imitate-games 240 --imitate-epochs 2 --imitate-coef 0.5 \
  --dagger-rounds 2 --dagger-games 160 --dagger-epochs 1 \
  --league-bots "hunter,harvester,planner,reference" \
  --snapshot-every 6 --snapshot-share 0.15 --league-games 16 --eval-games 0 --gauntlet-games 0
