#!/bin/sh
# The battleships-small-hunt run (issue 34, 2026-11-30), 50 minutes on the shared 2-core machine (load
# average 5-7, beside other helpers' training runs), nice -n 5: 9.7 minutes of imitation and DAgger, then
# 630,784 PPO learner steps. From python/ of a git archive of caafb80, with BOTARENA_BIN and BOTARENA_LIB
# built from the same tree (go build -o /tmp/ships/botarena ./cmd/botarena; CGO_ENABLED=1 go build
# -buildmode=c-shared -o /tmp/ships/libbotarena.so ./cmd/libbotarena) and PYTHONPATH=src. The game's
# training default adds points_reward 0.01 to the config (botarena games battleships/small).
python -m botarena.train --game battleships/small \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --opponent 'hunter*3,reference' --threads 1 --overlap --bf16 --minutes 50 --seed 61 \
  --out /work/runs/ships/run --resume auto --checkpoint-every 5 \
  --imitate hunter --imitate-games 1500 --imitate-epochs 14 --imitate-lr 2e-3 \
  --dagger-rounds 2 --dagger-games 300 --dagger-epochs 2 --imitate-coef 0.2 \
  --eval-games 0 --gauntlet-games 0
# The gauntlet (gauntlet.md), seed 3535, unseen in training:
#   C='{"placement":"learn","shot_mask":true,"density_plane":true}'
#   botarena tournament battleships/small --config "$C" --agents "p=policy:PATH?sample,hunter,reference" --focus p --games 200 --seed 3535 --json
#   botarena tournament battleships/small --config "$C" --agents "p=policy:PATH,hunter,reference" --focus p --games 200 --seed 3535 --json
