#!/bin/sh
# The run of docs/training/bomberman-2p-planner-sharp (helper bomber13, issue 34), from the repository root,
# 2026-12-01 05:29-06:25 UTC beside three other helpers' runs (load 5-8 on 2 cores).
# B holds botarena and libbotarena.so built from fb03688 (--value-warmup):
#   go build -o $B/botarena ./cmd/botarena
#   CGO_ENABLED=1 go build -buildmode=c-shared -o $B/libbotarena.so ./cmd/libbotarena
# W: the run's folder.
B=${B:-/work/runs/bomber13/bin}; W=${W:-/work/runs/bomber13}
# 1. Sharpen: bomberman-2p-planner-touched with its policy head (last linear layer, weight and bias) divided by 0.2,
#    so that sampling it (?sample) draws exactly what planner-touched draws at temperature 0.2 (?temp=0.2): no
#    training. This file is policies/bomberman-2p-planner-sharp.policy.safetensors.
python3 docs/training/bomberman-2p-planner-sharp/sharpen.py policies/bomberman-2p-planner-touched.policy.safetensors \
  $W/pol/sharp02.policy.safetensors 0.2
# 2. PPO from it: 3 updates of the value head alone (--value-warmup 3), then PPO at lr 3e-4 unannealed, no entropy
#    bonus, against hunter, harvester, planner and reference (2:2:1:1), the imitation term toward its own sampled play
#    kept (48 of its games, 15,515 decisions, coefficient 0.5), a checkpoint every 2 updates.
S=$W/pol/sharp02.policy.safetensors
cd python && BOTARENA_BIN=$B/botarena BOTARENA_LIB=$B/libbotarena.so PYTHONPATH=src OMP_NUM_THREADS=1 \
nice -n 5 python -m botarena.train --game bomberman/2p \
  --config '{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}' \
  --init $S \
  --opponent 'hunter*2,harvester*2,planner,reference' \
  --imitate "policy:$S?sample" --imitate-games 48 --imitate-epochs 0 --imitate-coef 0.5 \
  --value-warmup 3 --lr 3e-4 --no-anneal-lr --ent-coef 0 --seed 1313 \
  --overlap --threads 1 --minutes 55 --checkpoint-every 2 \
  --out $W/run --resume auto --eval-games 0 --gauntlet-games 0
