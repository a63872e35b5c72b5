#!/bin/sh
# The battleships-medium-shield run (issue 34, 2026-12-01; helper ships9): 10 minutes on the shared 2-core machine,
# nice -n 5, torch venv, BOTARENA_BIN / BOTARENA_LIB built from 0fcf117, OMP_NUM_THREADS=1. P is a copy of
# policies/battleships-medium-sharp.policy.safetensors: PPO alone (no imitation, no entropy bonus) under the shield_mask
# config (../battleships-large-shield/notes.md). The policy is the run's last.
P=/work/runs/ships9/medium-sharp.policy.safetensors
python -m botarena.train --game battleships \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 10 --seed 141 --threads 1 --overlap \
  --out /work/runs/ships9/medium/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
