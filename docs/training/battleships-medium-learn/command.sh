#!/bin/sh
# From python/ of a checkout at 70304cd (run from a git archive of it, /work/runs/bships/src/python), with BOTARENA_BIN and BOTARENA_LIB pointing at that build.
# Run as written under nice -n 5 on the shared 2-core machine (load average 9-16), 45 minutes, 426k learner steps.
python -m botarena.train --game battleships --config '{"placement":"learn","points_reward":0.01}' \
  --self-play --bf16 --overlap --threads 1 --minutes 45 --seed 53 \
  --out /work/runs/bships/run --resume auto \
  --opponent hunter --imitate hunter --imitate-games 400 --imitate-epochs 6 --imitate-coef 0.3 \
  --dagger-rounds 2 --dagger-games 200 --dagger-epochs 2 \
  --league-bots "hunter,reference" --snapshot-every 25 --league-games 16 \
  --eval-games 0 --gauntlet-games 0
