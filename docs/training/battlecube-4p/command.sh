#!/bin/sh
# The 4-player Battle³ run (issue 34, 2026-11-29): the committed 2-player duel policy, trained on in
# 4-player cubes (one task) against a PFSP league of stalker, teebot, the two committed Battle³
# policies and its own snapshots; the training opponent a mixture of teebot and stalker.
# Run from python/ with PYTHONPATH=src; BOTARENA_BIN and BOTARENA_LIB pointing at a binary and library
# built from HEAD e4a923f apart from the shared working tree. Resumable (run it again).
exec nice -n 5 python -m botarena.train --game battlecube \
  --init ../policies/battlecube-2p-duel.policy.safetensors \
  --self-play --bf16 --threads 1 --minutes 80 --gamma 0.995 --seed 11 --out ../runs/battlecube-4p --resume auto \
  --opponent "teebot,stalker" \
  --league-bots "stalker,teebot,policy:../policies/battlecube-2p-duel.policy.safetensors?sample,policy:../policies/battlecube-2p.policy.safetensors?sample" \
  --snapshot-every 10 --checkpoint-every 10 --league-games 20 --eval-games 50 --gauntlet-games 0
