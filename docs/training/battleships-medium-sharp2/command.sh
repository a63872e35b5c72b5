#!/bin/sh
# The battleships-medium-sharp2 run (issue 34, 2026-12-01; helper ships7): 35 minutes on the shared 2-core machine
# (load average 35-43, beside battleships-large-sharp2 and other helpers' runs), nice -n 5. The second round of
# the sharp recipe: battleships-medium-sharp (--init) distilled into itself sampled at temperature 0.3 (600 of its
# games, 3 epochs at 5e-4), then PPO with no entropy bonus (--ent-coef 0) against hunter, admiral and reference,
# keeping that imitation term (0.5): 20 updates, 163,840 steps. From /work/main/python at edb0534 with BOTARENA_BIN /
# BOTARENA_LIB built from edb0534 into /work/runs/ships7/bin, OMP_NUM_THREADS=1. P is a copy of
# policies/battleships-medium-sharp.policy.safetensors. Not committed as a policy (notes.md).
P=/work/runs/ships7/medium-sharp.policy.safetensors
python -m botarena.train --game battleships \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 35 --seed 98 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.3" --imitate-games 600 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships7/medium/run --resume auto --checkpoint-every 2 --eval-games 0 --gauntlet-games 0
