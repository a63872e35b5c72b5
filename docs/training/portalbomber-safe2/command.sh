#!/bin/sh
# The portalbomber-safe2 run (issue 34, 2026-11-29): from the committed portalbomber-safe policy, with the
# safe mask, at a lower learning rate, in two stages (63 minutes of training in all). Run from python/ with
# BOTARENA_BIN and BOTARENA_LIB pointing at a botarena binary and libbotarena built from 70339f3
# (`go build -o DIR/botarena ./cmd/botarena`, `CGO_ENABLED=1 go build -buildmode=c-shared -o DIR/libbotarena.so ./cmd/libbotarena`).
# The run used /work/runs/portal2/stage1/run and /work/runs/portal2/run as --out, on the 2-core machine
# with other runs beside it (load 7-17).
set -e
# Stage 1: the PFSP league of raider, greedy, practice and its snapshots (at most 15% of the mixture),
# 72 minutes asked; stopped by hand after update 156 (19 minutes), when PFSP had put raider, greedy and
# practice level (each at the 2% floor under the snapshots' weights). Its snapshot of update 150 goes on.
PYTHONPATH=src python -m botarena.train --game portalbomber --config '{"safe_mask":true}' \
  --init ../policies/portalbomber-safe.policy.safetensors \
  --self-play --opponent raider --league-bots "raider,greedy,practice" --snapshot-share 0.15 --lr 1e-4 \
  --snapshot-every 25 --league-games 20 --eval-games 50 --gauntlet-games 0 \
  --threads 1 --bf16 --overlap --skip-forced --minutes 72 --seed 3402 \
  --out ../runs/portalbomber-safe2-stage1 --resume auto &
STAGE1=$!
while [ ! -f ../runs/portalbomber-safe2-stage1/checkpoints/update_00150.policy.safetensors ]; do sleep 10; done
sleep 30; kill -TERM $STAGE1; wait $STAGE1 || true
# Stage 2: a fixed raider-heavy mixture (raider 12/17, greedy 4/17, practice 1/17), 44 minutes.
PYTHONPATH=src python -m botarena.train --game portalbomber --config '{"safe_mask":true}' \
  --init ../runs/portalbomber-safe2-stage1/checkpoints/update_00150.policy.safetensors \
  --opponent "raider*12,greedy*4,practice" --lr 1e-4 \
  --eval-games 20 --gauntlet-games 0 \
  --threads 1 --bf16 --overlap --skip-forced --minutes 44 --seed 3403 \
  --out ../runs/portalbomber-safe2 --resume auto
