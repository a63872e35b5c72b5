#!/bin/sh
# battleships-medium-fleet (helper ships13, issue 34, 2026-12-01): the four steps that made
# policies/battleships-medium-fleet.policy.safetensors (s3), about 26 minutes on the shared 2-core machine (load 5-6),
# nice -n 5, OMP_NUM_THREADS=1, torch venv (editable install of /work/main/python), BOTARENA_BIN / BOTARENA_LIB built
# from 3c87372 (go build -o bin/botarena ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared -o
# bin/libbotarena.so ./cmd/libbotarena). MS is a copy of policies/battleships-medium-shield.policy.safetensors;
# symclone.py is in this folder (ships12's, sized for 10x10 by SIZE=medium; the small-fleet run uses it with SIZE=small). The game's training default adds
# points_reward 0.01. The shot-sharpening step of battleships-small-fleet was skipped.
MS=/work/runs/ships13/ms.policy.safetensors
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
# 1. s1: medium-shield at temperature 0.5 as the teacher (1000 games vs admiral, it won 872), its placements in all 8
#    board symmetries learned under fleet_planes, its phase-2 decisions as played (sharpened shots): 5 epochs at 5e-4.
SIZE=medium python symclone.py $MS "policy:$MS?temp=0.5" 1000 /work/runs/ships13/s1.policy.safetensors 5 1301
# 2. Run d: PPO alone (no imitation, no entropy bonus) from s1 under fleet_planes, 12 minutes (37 updates).
python -m botarena.train --game battleships --config "$F" --init /work/runs/ships13/s1.policy.safetensors \
  --opponent 'marksman*3,admiral*3,hunter*2,reference' --ent-coef 0 --minutes 12 --seed 1302 --threads 1 --overlap \
  --out /work/runs/ships13/d/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
# 3. s2: run d's placements (it plays under fleet_planes) spread over the 8 symmetries
#    again, its phase-2 decisions as played (sampled): 1000 of its games vs admiral (it won 894), 5 epochs.
D=/work/runs/ships13/d/run/policy.safetensors
TEACHER_FLEET_PLANES=1 SIZE=medium python symclone.py $D "policy:$D?sample" 1000 /work/runs/ships13/s2.policy.safetensors 5 1303
# s2 records its config: play it under $F.
# 4. s3 = battleships-medium-fleet (committed): s2 at temperature 0.5 as the teacher (it plays under fleet_planes),
#    its placements in the 8 symmetries again and its phase-2 decisions as played: 1000 games vs admiral (it won 926),
#    5 epochs from s2. (s2 was committed first, in cda9ca0, then replaced by s3.)
S=/work/runs/ships13/s2.policy.safetensors
TEACHER_FLEET_PLANES=1 SIZE=medium python symclone.py $S "policy:$S?temp=0.5" 1000 /work/runs/ships13/s3.policy.safetensors 5 1304
# s3 records its config: play it under $F.
