#!/bin/sh
# ships12 (issue 34, 2026-12-01): s2, the candidate of notes.md (not committed as a policy). On the shared 2-core
# machine (load 5-8), nice -n 5, OMP_NUM_THREADS=1, from /work/main/python (editable install in the torch venv),
# BOTARENA_BIN / BOTARENA_LIB built from 30324b6, the commit that adds fleet_planes (go build -o bin/botarena ./cmd/botarena;
# CGO_ENABLED=1 go build -buildmode=c-shared -o bin/libbotarena.so ./cmd/libbotarena). P is a copy of
# policies/battleships-small-shield.policy.safetensors.
#
# 1. Run c: small-shield's shots and shields (actions 1..1352, not its placements) distilled into itself sampled
#    at temperature 0.3 (600 games, 3 epochs at 5e-4), then PPO with no entropy bonus keeping that imitation term
#    (0.5). The run had --minutes 32 and was stopped at update 59 (17 minutes); --total-steps gives the same 59
#    updates (483,328 steps). The game's training default adds points_reward 0.01.
P=/work/runs/ships12/battleships-small-shield.policy.safetensors
python -m botarena.train --game battleships/small \
  --config '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  --init $P \
  --opponent 'admiral*3,marksman*3,hunter*2,reference' --ent-coef 0 --total-steps 483328 --seed 163 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.3" --imitate-actions 1:1353 --imitate-games 600 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships12/c/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
# 2. s2: update 59's placements in all 8 board symmetries under fleet_planes, its phase-2 decisions as played
#    (1600 of its sampled games against admiral, 6 epochs; symclone.py in this folder).
C59=/work/runs/ships12/c/run/checkpoints/update_00059.policy.safetensors
python symclone.py $C59 "policy:$C59?sample" 1600 /work/runs/ships12/s2.policy.safetensors 6 172
# s2 plays under {"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}.
