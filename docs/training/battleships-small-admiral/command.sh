#!/bin/sh
# The battleships-small-admiral run (issue 34, 2026-11-30; its policy not committed: a negative result),
# 25 minutes on the shared 2-core machine (load
# average 6-12, beside other helpers' training runs and matches), nice -n 5: battleships-small-hunt taught
# the new built-in admiral (hunter's shooting, a searched fleet; env/battleships/admiral.go, bf86878) by
# imitation and DAgger (about 4 minutes), then 458,752 PPO learner steps (56 updates; 240-460 learner
# steps/s) with the imitation term kept. From python/ of a git archive of 5945962 plus admiral.go and kit.go
# of bf86878 (the same agent; bf86878 adds admiral to the gauntlet list only), with BOTARENA_BIN and
# BOTARENA_LIB built from that tree (go build -o /tmp/ships3/bin/botarena ./cmd/botarena; CGO_ENABLED=1 go
# build -buildmode=c-shared -o /tmp/ships3/bin/libbotarena.so ./cmd/libbotarena) and PYTHONPATH=src; bf86878
# or later trains the same. The game's training default adds points_reward 0.01 to the config. The evaluated
# policy is the run's last (run/policy.safetensors, update 56).
python -m botarena.train --game battleships/small \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init ../policies/battleships-small-hunt.policy.safetensors \
  --opponent 'hunter*3,reference' --threads 1 --overlap --bf16 --minutes 25 --seed 82 \
  --out /work/runs/ships3/small/run --resume auto --checkpoint-every 3 \
  --imitate admiral --imitate-games 600 --imitate-epochs 3 --imitate-lr 1e-3 \
  --dagger-rounds 2 --dagger-games 300 --dagger-epochs 2 --imitate-coef 0.2 \
  --eval-games 0 --gauntlet-games 0
# The gauntlet (gauntlet.md), seed 3535, unseen in training (82), 100 games a seating, so 200 a pairing:
#   C='{"placement":"learn","shot_mask":true,"density_plane":true}'
#   for o in hunter admiral reference; do
#     botarena tournament battleships/small --config "$C" --agents "p=policy:PATH?sample,$o" --focus p --games 100 --seed 3535 --json
#     botarena tournament battleships/small --config "$C" --agents "p=policy:PATH,$o" --focus p --games 100 --seed 3535 --json
#   done
