#!/bin/sh
# The battleships-large-sharp4 run (issue 34, 2026-12-01; helper ships11): the sharp recipe from
# large-sharp3 under the shield_mask config: large-sharp3 distilled into itself sampled at temperature 0.5 (400 of
# its games against the mixture, 3 epochs at 5e-4), then PPO with no entropy bonus keeping that imitation term
# (0.5), opponents weighted toward hunter; 15 minutes on the shared 2-core machine, nice -n 5, torch venv,
# BOTARENA_BIN / BOTARENA_LIB built from 18a010a, OMP_NUM_THREADS=1. P is a copy of
# policies/battleships-large-sharp3.policy.safetensors. Temperature 0.5, not 0.3: large-sharp3 at 0.5 and 0.3 won
# alike against hunter (92.0% / 90.8% on seed 2525, 93.5% / 94.0% on 2626), and 0.5 narrows the fleets less.
# The policy is the run's last (run/policy.safetensors): 13 PPO updates, 106,496 steps, at load 5-8.
P=/work/runs/ships11/hunt/large-sharp3.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*4,admiral*2,marksman,reference' --ent-coef 0 --minutes 15 --seed 223 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.5" --imitate-games 400 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships11/sharp/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
