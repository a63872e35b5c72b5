#!/bin/sh
# The battleships-small-sharp run (issue 34, 2026-11-30; helper ships6), 22 minutes on the shared 2-core machine
# (load average about 2-5), nice -n 5: battleships-small-hunt (--init) distilled into itself sampled at
# temperature 0.3 (its own games, 600 of them, 20,603 decisions, 3 epochs at 5e-4), then PPO with no entropy
# bonus (--ent-coef 0) against hunter, admiral and reference, keeping that imitation term (0.5): 241 updates,
# 1,974,272 steps. The recipe of battleships-medium-sharp. From python/ of a git archive of 5363279 with
# PYTHONPATH=src, OMP_NUM_THREADS=1 and BOTARENA_BIN / BOTARENA_LIB built from it
# (go build -o /work/runs/ships6/bin/botarena ./cmd/botarena;
# CGO_ENABLED=1 go build -buildmode=c-shared -o /work/runs/ships6/bin/libbotarena.so ./cmd/libbotarena).
# The game's training default adds points_reward 0.01 to the config. The evaluated policy is the run's last
# (run/policy.safetensors, update 241).
P=../policies/battleships-small-hunt.policy.safetensors
python -m botarena.train --game battleships/small \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --threads 1 --overlap --minutes 22 --seed 87 \
  --ent-coef 0 \
  --out /work/runs/ships6/run --resume auto --checkpoint-every 2 \
  --imitate "policy:$P?temp=0.3" --imitate-games 600 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --eval-games 0 --gauntlet-games 0
