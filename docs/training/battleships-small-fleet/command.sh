#!/bin/sh
# battleships-small-fleet (helper ships12, issue 34, 2026-12-01): the four steps that made
# policies/battleships-small-fleet.policy.safetensors (s3), about 40 minutes on the shared 2-core machine (load 5-8),
# nice -n 5, OMP_NUM_THREADS=1, from /work/main/python (editable install in the torch venv), BOTARENA_BIN /
# BOTARENA_LIB built from 30324b6, the commit that adds fleet_planes (go build -o bin/botarena ./cmd/botarena;
# CGO_ENABLED=1 go build -buildmode=c-shared -o bin/libbotarena.so ./cmd/libbotarena). P is a copy of
# policies/battleships-small-shield.policy.safetensors; symclone.py is ../battleships-medium-fleet/symclone.py
# (this run's script, later given a SIZE by ships13; SIZE=small is the 7x7 this run used). The game's training default
# adds points_reward 0.01.
P=/work/runs/ships12/battleships-small-shield.policy.safetensors
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
# 1. Run c: small-shield's shots and shields (actions 1..1352, not its placements) distilled into itself sampled at
#    temperature 0.3 (600 games, 3 epochs at 5e-4), then PPO with no entropy bonus keeping that imitation term (0.5).
#    The run had --minutes 32 and was stopped at update 59 (17 minutes); --total-steps gives the same 59 updates.
python -m botarena.train --game battleships/small --config "$M" --init $P \
  --opponent 'admiral*3,marksman*3,hunter*2,reference' --ent-coef 0 --total-steps 483328 --seed 163 --threads 1 --overlap \
  --imitate "policy:$P?temp=0.3" --imitate-actions 1:1353 --imitate-games 600 --imitate-epochs 3 --imitate-lr 5e-4 --imitate-coef 0.5 \
  --out /work/runs/ships12/c/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
C59=/work/runs/ships12/c/run/checkpoints/update_00059.policy.safetensors
# 2. s2: c59's placements in all 8 board symmetries, learned under fleet_planes (c59 plays without it; the planes are
#    filled in from its earlier placement rows), its phase-2 decisions as played: 1600 of its games, 6 epochs.
SIZE=small python ../battleships-medium-fleet/symclone.py $C59 "policy:$C59?sample" 1600 /work/runs/ships12/s2.policy.safetensors 6 172
# 3. Run d: PPO alone (no imitation, no entropy bonus) from s2 under fleet_planes, 15 minutes (105 updates).
python -m botarena.train --game battleships/small --config "$F" --init /work/runs/ships12/s2.policy.safetensors \
  --opponent 'marksman*3,admiral*3,hunter*2,reference' --ent-coef 0 --minutes 15 --seed 164 --threads 1 --overlap \
  --out /work/runs/ships12/d/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
# 4. s3 = battleships-small-fleet: run d's placements (it plays under fleet_planes) spread over the 8 symmetries again,
#    its phase-2 decisions as played: 1600 of its games, 6 epochs.
D=/work/runs/ships12/d/run/policy.safetensors
TEACHER_FLEET_PLANES=1 SIZE=small python ../battleships-medium-fleet/symclone.py $D "policy:$D?sample" 1600 /work/runs/ships12/s3.policy.safetensors 6 173
# s3 records its config: play it under $F.
