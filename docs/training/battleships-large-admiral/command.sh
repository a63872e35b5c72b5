#!/bin/sh
# The battleships-large-admiral run (issue 34, 2026-11-30), 62 minutes on the shared 2-core machine (load
# average 11-22, beside other helpers' training runs and tests), nice -n 5: battleships-large-hunt (the 14x14
# clone of hunter, --init) taught the built-in admiral (hunter's shooting, a searched fleet) by imitation (500
# games, 39,351 decisions, 3 epochs of ~128 s) and two DAgger rounds of 200 games (the clone won 24 and then
# 36 of 100 games against hunter in them; refitted on all 72,371 decisions), then 81,920 PPO learner steps
# (10 updates of 8,192; 39-53 learner steps/s) against hunter, admiral and reference with the imitation term
# kept (0.2). About 36 of the 62 minutes went to imitation and DAgger. From python/ of a git archive of
# 5b4579d, with BOTARENA_BIN and BOTARENA_LIB built from the same tree (go build -o /tmp/ships4/bin/botarena
# ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared -o /tmp/ships4/bin/libbotarena.so
# ./cmd/libbotarena) and PYTHONPATH=src, OMP_NUM_THREADS=1. --bf16 was ignored (no bfloat16 instructions on
# this CPU). The game's training default adds points_reward 0.01 to the config. The committed policy is the
# run's last (run/policy.safetensors, update 10).
python -m botarena.train --game battleships/large \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --init ../policies/battleships-large-hunt.policy.safetensors \
  --opponent 'hunter*2,admiral,reference' --threads 1 --overlap --bf16 --minutes 62 --seed 91 \
  --out /work/runs/ships4/large/run --resume auto --checkpoint-every 2 \
  --imitate admiral --imitate-games 500 --imitate-epochs 3 --imitate-lr 1e-3 \
  --dagger-rounds 2 --dagger-games 200 --dagger-epochs 2 --imitate-coef 0.2 \
  --eval-games 0 --gauntlet-games 0
# The gauntlet (gauntlet.md), seed 3838, unseen in training (91; DAgger 91 + 7919 r), 100 games a seating, so
# 200 a pairing and 100 from each seat:
#   C='{"placement":"learn","shot_mask":true,"density_plane":true}'
#   for o in hunter admiral reference; do
#     botarena tournament battleships/large --config "$C" --agents "p=policy:PATH?sample,$o" --focus p --games 100 --seed 3838 --json
#     botarena tournament battleships/large --config "$C" --agents "p=policy:PATH,$o" --focus p --games 100 --seed 3838 --json
#   done
