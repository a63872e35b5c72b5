#!/bin/sh
# The battleships-large-shield run (issue 34, 2026-12-01; helper ships9): 25 minutes on the shared 2-core machine,
# nice -n 5, from /work/main/python (editable install in the torch venv) at 0fcf117, BOTARENA_BIN / BOTARENA_LIB built
# from it (go build -o bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared -o bin/libbotarena.so
# ./cmd/libbotarena), OMP_NUM_THREADS=1. P is a copy of policies/battleships-large-sharp2.policy.safetensors.
# large-sharp2 under the shield_mask config, its shield decisions fitted to marksman's (2801:3201 is the 14x14
# shield block: --imitate-actions keeps those decisions only, 198 in 400 games), 2 epochs, then 50 PPO updates
# (409,600 steps) with no entropy bonus keeping that imitation term (0.5). The policy is the run's last.
P=/work/runs/ships9/large-sharp2.policy.safetensors
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --ent-coef 0 --minutes 25 --seed 137 --threads 1 --overlap \
  --imitate marksman --imitate-actions 2801:3201 --imitate-games 400 --imitate-epochs 2 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships9/shield/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
