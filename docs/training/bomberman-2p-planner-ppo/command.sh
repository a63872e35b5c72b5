#!/bin/sh
# The run of bomberman-2p-planner-ppo (helper bomber12, issue 34), from python/, 2026-12-01 04:01-04:19 UTC
# (18 minutes, 29 updates, 237k learner steps at 126-466 steps/s beside other runs, load 7-8).
# B holds botarena and libbotarena.so built from 8379e50 (d7cba0a's strict mask):
#   go build -o $B/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o $B/libbotarena.so ./cmd/libbotarena
# PPO from the arg-max clone of planner, against hunter, harvester and planner (weights 2:2:1), with a small
# learning rate and entropy term, and the imitation term toward planner kept (24 of planner's games against the
# same mixture, 8,407 decisions, no refit: --imitate-epochs 0).
B=${B:-/work/runs/bomber12/bin}
BOTARENA_BIN=$B/botarena BOTARENA_LIB=$B/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
nice -n 5 python -m botarena.train --game bomberman/2p \
  --config '{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}' \
  --init ../policies/bomberman-2p-planner-touched.policy.safetensors \
  --opponent 'hunter*2,harvester*2,planner' \
  --imitate planner --imitate-games 24 --imitate-epochs 0 --imitate-coef 0.5 \
  --lr 1e-4 --ent-coef 0.001 --seed 1212 \
  --overlap --threads 1 --minutes 18 --checkpoint-every 4 \
  --out /work/runs/bomber12/run --resume auto --eval-games 0 --gauntlet-games 0
