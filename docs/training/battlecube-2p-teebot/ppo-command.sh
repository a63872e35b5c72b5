#!/bin/sh
# Stage 3 of the battlecube/2p teebot run (issue 34): PPO in the PFSP league from mix2.py round 2 student (the clone after one DAgger round against teebot).
# Run from /work/main/python with PYTHONPATH=src; resumable (run it again).
export BOTARENA_BIN=/work/runs/battlecube-teebot/bin/botarena
exec nice -n 5 /tmp/tv/bin/python -m botarena.train --game battlecube/2p \
  --init /work/runs/battlecube-teebot/mix2/round_02_teebot/student.policy.safetensors \
  --self-play --bf16 --threads 1 --minutes 28 --gamma 0.995 --seed 3 --out /work/runs/battlecube-teebot/ppo --resume auto \
  --opponent teebot \
  --league-bots "stalker,teebot,policy:/work/main/policies/battlecube-2p.policy.safetensors?sample" \
  --snapshot-every 10 --checkpoint-every 10 --league-games 20 --eval-games 50 --gauntlet-games 0
