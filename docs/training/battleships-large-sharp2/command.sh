#!/bin/sh
# The battleships-large-sharp2 run (issue 34, 2026-12-01; helper ships7): 40 minutes on the shared 2-core machine
# (load average 35-43, beside other helpers' runs and battleships-medium-sharp2), nice -n 5. The second round of
# the sharp recipe: battleships-large-sharp (--init) distilled into itself sampled at temperature 0.3 (400 of its
# games, 3 epochs at 5e-4; about 10 of the 40 minutes), then PPO with no entropy bonus (--ent-coef 0) against
# hunter, admiral and reference, keeping that imitation term (0.5): 9 updates, 73,728 steps (23-97 steps/s).
# From /work/main/python (editable install in the torch venv) at edb0534, with BOTARENA_BIN / BOTARENA_LIB built
# from edb0534 (go build -o /work/runs/ships7/bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build
# -buildmode=c-shared -o /work/runs/ships7/bin/libbotarena.so ./cmd/libbotarena), OMP_NUM_THREADS=1. P is a copy
# of policies/battleships-large-sharp.policy.safetensors. The game's training default adds points_reward 0.01.
# The policy is the run's last (run/policy.safetensors).
P=/work/runs/ships7/large-sharp.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 40 --seed 97 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.3" --imitate-games 400 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships7/large/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
