#!/bin/sh
# As run: a copy of this script with absolute paths; a first start with --bf16 was stopped after two updates (13 minutes,
# bench/2026-11-29-battlecube-bf16.txt) and the run started afresh without it; train.log is that second start.
# Battle³ 4-player cubes against stalker (issue 34, 2026-11-29): battlecube-4p trained on in one-task cubes
# against a mixture of stalker (weight 3) and teebot (1), drawn per opponent seat at each episode start,
# the learner in every seat; the game's own reward; no league. 35 minutes, one torch thread, fp32
# (--bf16 ran the update 8x slower on this AVX2-only CPU: docs/training.md).
# Run from python/ with PYTHONPATH=src; BOTARENA_BIN and BOTARENA_LIB pointing at a binary and library
# built from 884d595 apart from the shared working tree. Resumable (run it again).
exec nice -n 5 python -m botarena.train --game battlecube \
  --init ../policies/battlecube-4p.policy.safetensors \
  --overlap --threads 1 --minutes 35 --gamma 0.995 --seed 21 --out ../runs/battlecube-4p-stalker --resume auto \
  --opponent "stalker*3,teebot" --checkpoint-every 10 --eval-games 0 --gauntlet-games 0
