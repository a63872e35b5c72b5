#!/bin/sh
# The second run (shield2, not committed; notes.md): the same start and config, PPO alone (no imitation), 15 minutes, seed 139.
P=/work/runs/ships9/large-sharp2.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 15 --seed 139 --threads 1 --overlap \
  --out /work/runs/ships9/shield2/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
