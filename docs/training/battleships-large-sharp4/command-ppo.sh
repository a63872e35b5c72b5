#!/bin/sh
# The PPO-alone run before battleships-large-sharp4, stopped by hand at update 48 of 50 minutes (issue 34, 2026-12-01; helper ships11): 50 minutes on the shared 2-core machine,
# nice -n 5, from /work/main/python (editable install in the torch venv /work/runs/tv) at 18a010a, BOTARENA_BIN /
# BOTARENA_LIB built from it (go build -o bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared
# -o bin/libbotarena.so ./cmd/libbotarena), OMP_NUM_THREADS=1. P is a copy of
# policies/battleships-large-sharp3.policy.safetensors. large-sharp3 put under the shield_mask config (untrained
# there it already wins ~90% against hunter sampling, and its sampling equals its arg-max, so a further sharp
# round has nothing to sharpen), then PPO alone, no entropy bonus, opponents weighted toward hunter.
# Checkpoints every update; the policy is the run's last unless notes.md names a checkpoint.
P=/work/runs/ships11/hunt/large-sharp3.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*4,admiral*2,marksman,reference' --ent-coef 0 --minutes 50 --seed 211 --threads 1 --overlap \
  --out /work/runs/ships11/hunt/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
