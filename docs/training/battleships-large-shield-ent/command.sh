#!/bin/sh
# The battleships-large-shield-ent run (issue 34, 2026-12-01; helper ships10): 10 minutes on the shared 2-core machine
# (load average 3-6; 342 steps/s), nice -n 5, torch venv, BOTARENA_BIN / BOTARENA_LIB built from 8379e50,
# OMP_NUM_THREADS=1. P is a copy of policies/battleships-large-sharp2.policy.safetensors. ships9's shield2 run
# (../battleships-large-shield/command2.sh: PPO alone under shield_mask) with a small entropy bonus (0.003) to keep
# the fleets varied: 25 updates (204,800 steps). The policy is the run's last.
P=/work/runs/ships10/battleships-large-sharp2.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0.003 --minutes 10 --seed 153 --threads 1 --overlap \
  --out /work/runs/ships10/large/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
