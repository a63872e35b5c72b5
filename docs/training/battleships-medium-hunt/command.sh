#!/bin/sh
# The battleships-medium-hunt run (issue 34, 2026-11-30), 50 minutes on the shared 2-core machine (load
# average 6-11, beside other helpers' training runs and matches), nice -n 5: about 24 minutes of imitation and
# DAgger, then 155,648 PPO learner steps (19 updates; 84-117 learner steps/s). From python/ of a git archive
# of ccc99c8, with BOTARENA_BIN and BOTARENA_LIB built from the same tree (go build -o /tmp/ships2/bin/botarena
# ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared -o /tmp/ships2/bin/libbotarena.so
# ./cmd/libbotarena) and PYTHONPATH=src. The game's training default adds points_reward 0.01 to the config
# (botarena games battleships). The density-plane cache (c0b5437) changes no byte, so c0b5437 or later
# trains the same. The committed policy is the run's checkpoint of update 5
# (run/checkpoints/update_00005.policy.safetensors, 40,960 PPO steps), chosen by its arg-max win rate against
# hunter on selection seed 5252 (gauntlet.md); run/policy.safetensors (update 19) is the "final" rows.
python -m botarena.train --game battleships \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --opponent 'hunter*3,reference' --threads 1 --overlap --bf16 --minutes 50 --seed 71 \
  --out /work/runs/ships2/medium/run --resume auto --checkpoint-every 5 \
  --imitate hunter --imitate-games 1200 --imitate-epochs 10 --imitate-lr 2e-3 \
  --dagger-rounds 2 --dagger-games 300 --dagger-epochs 2 --imitate-coef 0.2 \
  --eval-games 0 --gauntlet-games 0
# The gauntlet (gauntlet.md), seed 3636, unseen in training:
#   C='{"placement":"learn","shot_mask":true,"density_plane":true}'
#   botarena tournament battleships --config "$C" --agents "p=policy:PATH?sample,hunter,reference" --focus p --games 200 --seed 3636 --json
#   botarena tournament battleships --config "$C" --agents "p=policy:PATH,hunter,reference" --focus p --games 200 --seed 3636 --json
#   botarena tournament battleships --config "$C" --agents "random,hunter,reference" --focus random --games 100 --seed 3636 --json
#   botarena tournament battleships --config "$C" --agents "hunter,reference" --focus hunter --games 100 --seed 3636 --json
