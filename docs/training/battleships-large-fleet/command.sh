#!/bin/sh
# battleships-large-fleet (helper ships14, issue 34, 2026-12-02): the medium-fleet recipe
# (../battleships-medium-fleet/notes.md) on 14x14 (battleships/large) from battleships-large-sharp4, on the shared
# 2-core machine (load 6-7 from other helpers' builds), nice -n 5, OMP_NUM_THREADS=1, the torch venv (.venv, editable
# install of /work/main/python), BOTARENA_BIN / BOTARENA_LIB built from the a616012 working tree (with another helper's uncommitted vecenv edits; go build -o bin/botarena
# ./cmd/botarena; CGO_ENABLED=1 go build -buildmode=c-shared -o bin/libbotarena.so ./cmd/libbotarena).
# SH4 is a copy of policies/battleships-large-sharp4.policy.safetensors. symclone.py is the one in
# ../battleships-medium-fleet/ (ships12's, SIZE=large added by ships14: 14x14, the 20x20 shot grid, first
# placement action 3201). Training seeds 1401-1404; evaluation seeds 6161 (screen), 6262, 6363 and 6464 (gauntlet).
SH4=/work/runs/ships14/sharp4.policy.safetensors
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
SYM=docs/training/battleships-medium-fleet/symclone.py
# 1. s1 (00:21-00:35, 14 min): large-sharp4 at temperature 0.5 as the teacher (800 games vs admiral, it won 694),
#    its placements in all 8 board symmetries learned under fleet_planes, its phase-2 decisions as played: 5 epochs
#    at 5e-4 from large-sharp4 (accuracy 75.1% -> 84.9% over 101,622 decisions).
SIZE=large python $SYM $SH4 "policy:$SH4?temp=0.5" 800 /work/runs/ships14/s1.policy.safetensors 5 1401
# 2. Run d (00:35-00:52, 17 minutes, 21 updates): PPO alone (no imitation, no entropy bonus) from s1 under
#    fleet_planes, opponents weighted toward admiral.
python -m botarena.train --game battleships/large --config "$F" --init /work/runs/ships14/s1.policy.safetensors \
  --opponent 'admiral*4,marksman*2,hunter*2,reference' --ent-coef 0 --minutes 17 --seed 1402 --threads 1 --overlap \
  --out /work/runs/ships14/d/run --resume auto --checkpoint-every 1 --eval-games 0 --gauntlet-games 0
# 3. s2 (00:53-01:08, 15 min): run d at temperature 0.5 as the teacher (it plays under fleet_planes), its placements
#    in the 8 symmetries again and its phase-2 decisions as played: 800 games vs admiral (it won 723), 5 epochs from d
#    (accuracy -> 86.7% over 100,027 decisions).
D=/work/runs/ships14/d/run/policy.safetensors
TEACHER_FLEET_PLANES=1 SIZE=large python $SYM $D "policy:$D?temp=0.5" 800 /work/runs/ships14/s2.policy.safetensors 5 1403
# 4. s3 (01:08-01:20, 12 min): s2 at temperature 0.5 as the teacher, the same way: 800 games vs admiral (it won 715),
#    5 epochs from s2 (accuracy 82.1% -> 88.2% over 99,130 decisions).
S=/work/runs/ships14/s2.policy.safetensors
TEACHER_FLEET_PLANES=1 SIZE=large python $SYM $S "policy:$S?temp=0.5" 800 /work/runs/ships14/s3.policy.safetensors 5 1404
# Screens (screen.sh, seed 6161, 100 games a seating vs admiral): sharp4 (CFG = its config), s1, d, s2, s3.
# Fleets (fleetcheck.sh, seeds 130000-130099, seat 0 vs admiral): sharp4, s1, d, s2, s3; then
# ../battleships-medium-fleet/shapes.py, ../battleships-medium-fleet/readgames.py and games.py on rec/.
# Gauntlet: gauntlet.sh (seeds 6262, 6363 and 6464), then ../battleships-medium-fleet/table.py gauntlet.
# No policy committed: none beat large-sharp4 against admiral beyond the intervals, none reached 90% (notes.md).
