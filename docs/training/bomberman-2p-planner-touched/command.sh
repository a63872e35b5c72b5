#!/bin/sh
# The run of docs/training/bomberman-2p-planner-touched (issue 34, helper bomber11), 2026-12-01 02:23-03:15 UTC, as run
# (paths under /work/runs/bomber11; B/bin2 built from 2e40e9e, bin3 from 0fcf117, each from `git archive`):
#   go build -o bin/botarena ./cmd/botarena
# 1. planner's games, 1,024 against hunter (league seed 34111) and 1,024 against harvester (34112), every seat,
#    dagger:harvester:planner so harvester's choice sits beside planner's (label), whole-map planes, mask wary+strict;
#    gen.sh DIR OPPONENT SEED GAMES (one league run of GAMES more games), in 128-game runs alternating the two.
#    (~1.5 games/s on one core; 2,048 games in 22 minutes.)
for n in 1 2 3 4 5 6 7 8; do
  ./gen.sh data/hunter hunter 34111 128
  ./gen.sh data/harvester harvester 34112 128
done
# 2. behaviour cloning offline (fit.py, data.py): the first 64 games against each opponent held out (8,000 decisions
#    drawn from them), the other 1,920 games (654,735 decisions) for training; touched planes and opponent scalars
#    computed from the games' history, equal to the game's own touched_planes/opponent_scalars (checked on 1,385
#    decisions); from bomberman-2p-harvester-ppo's weights, the new inputs' weights at 0; 2 epochs, lr 1e-3 -> 1e-4.
PY="nice -n 5 python"; export OMP_NUM_THREADS=1
$PY fit.py --train-blocks 15 --test-blocks 1 --touched --opp-scalars --epochs 2 --lr 1e-3 --lr-end 1e-4 --evals 4 \
  --cache cache-full --save students/f1.policy.safetensors
# 3. two DAgger rounds: the student (sampling) plays 128 games against each of hunter and harvester with planner
#    labelling each of its decisions (dagger.sh), then one epoch over everything (DAgger rows weighted 2), lr 3e-4 -> 3e-5.
./dagger.sh students/f1.policy.safetensors dagger1 128 34120
$PY fit.py --train-blocks 15 --test-blocks 1 --touched --opp-scalars --epochs 1 --lr 3e-4 --lr-end 3e-5 --evals 2 \
  --cache cache-full --warm students/f1.policy.safetensors --dagger dagger1/hunter,dagger1/harvester --dagger-weight 2 \
  --save students/d1.policy.safetensors
./dagger.sh students/d1.policy.safetensors dagger2 128 34130
$PY fit.py --train-blocks 15 --test-blocks 1 --touched --opp-scalars --epochs 1 --lr 3e-4 --lr-end 3e-5 --evals 2 \
  --cache cache-full --warm students/d1.policy.safetensors \
  --dagger dagger1/hunter,dagger1/harvester,dagger2/hunter,dagger2/harvester --dagger-weight 2 \
  --save students/d2.policy.safetensors
