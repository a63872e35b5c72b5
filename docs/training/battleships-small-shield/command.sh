#!/bin/sh
# The battleships-small-shield run (issue 34, 2026-12-01; helper ships10): 12 minutes on the shared 2-core machine
# (load average 2-8), nice -n 5, from /work/main/python (editable install in the torch venv) at 8379e50, BOTARENA_BIN /
# BOTARENA_LIB built from it (go build -o bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared
# -o bin/libbotarena.so ./cmd/libbotarena), OMP_NUM_THREADS=1. P is a copy of
# policies/battleships-small-sharp.policy.safetensors. The recipe of ../battleships-medium-shield/command.sh on 7x7:
# small-sharp under the shield_mask config, PPO alone (no imitation, no entropy bonus), 105 updates (860,160 steps).
# The policy is the run's last (run/policy.safetensors).
P=/work/runs/ships10/small-sharp.policy.safetensors
python -m botarena.train --game battleships/small \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 12 --seed 151 --threads 1 --overlap \
  --out /work/runs/ships10/small/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
