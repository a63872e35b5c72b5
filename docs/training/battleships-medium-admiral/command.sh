#!/bin/sh
# The battleships-medium-admiral run (issue 34, 2026-11-30), 45 minutes on the shared 2-core machine (load
# average 6-12, beside other helpers' training runs and matches), nice -n 5: battleships-medium-hunt taught
# the new built-in admiral (hunter's shooting, a searched fleet; env/battleships/admiral.go, bf86878) by
# imitation and DAgger (about 12 minutes), then 229,376 PPO learner steps (28 updates; 85-136 learner
# steps/s) with the imitation term kept. From python/ of a git archive of 5945962 plus admiral.go and kit.go
# of bf86878 (the same agent; bf86878 adds admiral to the gauntlet list only), with BOTARENA_BIN and
# BOTARENA_LIB built from that tree (go build -o /tmp/ships3/bin/botarena ./cmd/botarena; CGO_ENABLED=1 go
# build -buildmode=c-shared -o /tmp/ships3/bin/libbotarena.so ./cmd/libbotarena) and PYTHONPATH=src; bf86878
# or later trains the same. The game's training default adds points_reward 0.01 to the config. The committed
# policy is the run's last (run/policy.safetensors, update 28).
python -m botarena.train --game battleships \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init ../policies/battleships-medium-hunt.policy.safetensors \
  --opponent 'hunter*3,reference' --threads 1 --overlap --bf16 --minutes 45 --seed 81 \
  --out /work/runs/ships3/medium/run --resume auto --checkpoint-every 3 \
  --imitate admiral --imitate-games 600 --imitate-epochs 3 --imitate-lr 1e-3 \
  --dagger-rounds 2 --dagger-games 300 --dagger-epochs 2 --imitate-coef 0.2 \
  --eval-games 0 --gauntlet-games 0
# The gauntlet (gauntlet.md), seed 3636, unseen in training (81), 100 games a seating, so 200 a pairing:
#   C='{"placement":"learn","shot_mask":true,"density_plane":true}'
#   for o in hunter admiral reference; do
#     botarena tournament battleships --config "$C" --agents "p=policy:PATH?sample,$o" --focus p --games 100 --seed 3636 --json
#     botarena tournament battleships --config "$C" --agents "p=policy:PATH,$o" --focus p --games 100 --seed 3636 --json
#   done
