#!/bin/sh
# The battleships-medium-sharp run (issue 34, 2026-11-30; helper ships5), 48 minutes of PPO on the shared
# 2-core machine (load average 15-25, beside other helpers' runs and battleships-large-sharp), nice -n 5:
# battleships-medium-admiral (--init) distilled into itself sampled at temperature 0.3 (its own games, 600 of
# them, 3 epochs at 5e-4), then PPO with no entropy bonus (--ent-coef 0) against hunter, admiral and reference,
# keeping that imitation term (0.5). From python/ of a git archive of e8edcc5 with PYTHONPATH=src and
# BOTARENA_BIN / BOTARENA_LIB built from it (go build -o /work/runs/ships5/bin/botarena ./cmd/botarena;
# CGO_ENABLED=1 go build -buildmode=c-shared -o /work/runs/ships5/bin/libbotarena.so ./cmd/libbotarena).
# The game's training default adds points_reward 0.01 to the config. The committed policy is the run's last
# (run/policy.safetensors).
P=../policies/battleships-medium-admiral.policy.safetensors
python -m botarena.train --game battleships \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init $P \
  --opponent 'hunter*2,admiral*2,reference' --threads 1 --overlap --minutes 48 --seed 86 \
  --ent-coef 0 \
  --out /work/runs/ships5/medium/run --resume auto --checkpoint-every 2 \
  --imitate "policy:$P?temp=0.3" --imitate-games 600 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --eval-games 0 --gauntlet-games 0
