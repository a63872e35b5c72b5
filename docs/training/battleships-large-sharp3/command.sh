#!/bin/sh
# The battleships-large-sharp3 run (issue 34, 2026-12-01; helper ships8): 30 minutes on the shared 2-core machine
# (load average 3-15), nice -n 5. The third round of the sharp recipe: battleships-large-sharp2 (--init) distilled
# into itself sampled at temperature 0.3 (400 of its games, 3 epochs at 5e-4; about 1.5 of the 30 minutes), then
# PPO with no entropy bonus (--ent-coef 0) against hunter, admiral and reference, keeping that imitation term (0.5):
# 31 updates, 253,952 steps (74-333 steps/s).
# From /work/main/python (editable install in the torch venv) at ecca2c8, with BOTARENA_BIN / BOTARENA_LIB built
# from ecca2c8 (go build -o /work/runs/ships8/bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build
# -buildmode=c-shared -o /work/runs/ships8/bin/libbotarena.so ./cmd/libbotarena), OMP_NUM_THREADS=1. P is a copy
# of policies/battleships-large-sharp2.policy.safetensors. The game's training default adds points_reward 0.01.
# The policy is the run's last (run/policy.safetensors).
P=/work/runs/ships8/large-sharp2.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 30 --seed 99 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.3" --imitate-games 400 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships8/large/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
