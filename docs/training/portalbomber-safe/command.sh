#!/bin/sh
# The portalbomber-safe run (issue 34, 2026-11-29): 80 minutes of PPO in the self-play league from the
# committed portalbomber policy, with the safe mask. Run from python/ with BOTARENA_BIN and BOTARENA_LIB
# pointing at a botarena binary and libbotarena built from f84cc03 (`go build -o DIR/botarena ./cmd/botarena`,
# `CGO_ENABLED=1 go build -buildmode=c-shared -o DIR/libbotarena.so ./cmd/libbotarena`).
# The run used --out /work/runs/portal-safe/run on the 2-core machine with other runs beside it.
PYTHONPATH=src python -m botarena.train --game portalbomber --config '{"safe_mask":true}' \
  --init ../policies/portalbomber.policy.safetensors \
  --self-play --opponent raider --league-bots "raider,greedy,practice,policy:../policies/portalbomber.policy.safetensors?sample" \
  --snapshot-every 25 --league-games 20 --eval-games 50 --gauntlet-games 0 \
  --threads 1 --bf16 --overlap --skip-forced --minutes 80 --seed 34 \
  --out ../runs/portalbomber-safe --resume auto
