#!/bin/sh
# The battlecube/2p run against teebot (issue 34), from the stalker run's final policy; run from
# /work/main/python with PYTHONPATH=src. BOTARENA_BIN: a binary built from HEAD (25aedc8) apart from
# the shared working tree, so that other engineers' edits do not rebuild it mid-run.
export BOTARENA_BIN=/work/runs/battlecube-teebot/bin/botarena
exec nice -n 5 /tmp/tv/bin/python -m botarena.train --game battlecube/2p \
  --init /work/runs/battlecube-dagger/policy.safetensors \
  --self-play --bf16 --threads 1 --minutes 65 --gamma 0.995 --out /work/runs/battlecube-teebot --resume auto \
  --opponent teebot --imitate stalker --imitate-games 20000 --imitate-epochs 6 --imitate-coef 0.3 \
  --dagger-rounds 3 --dagger-games 400 --dagger-epochs 3 \
  --league-bots "stalker,teebot,policy:/work/main/policies/battlecube-2p.policy.safetensors?sample" \
  --snapshot-every 25 --league-games 20 --eval-games 50 --gauntlet-games 0
