#!/bin/sh
# battlecube-4p-mix (issue 34, 2026-11-30, helper cube5): battlecube-4p-history2 trained on with PPO over one-task,
# tasks3 and 2-player cubes at once (botarena.train --mix, 5fc6430), keeping the built-in dodger's decisions in
# tasks3 cubes as an imitation term (--imitate dodger --imitate-epochs 0 --imitate-coef 0.05, or COEF: no clone; 400 of the
# dodger's tasks3 cubes, alone against three teebots (300) or three stalkers (100), --imitate-alone).
# Groups (64 envs split by weight): one-task cubes against stalker*3,teebot drawn per seat (history2's own mixture),
# tasks3 against three teebots, tasks3 against three stalkers, 2 players against teebot or stalker.
# Config {"history":true,"tasks_scalar":true} (history2 gets the 1/T scalar as a zero column: widen_inputs).
# As run: from python/ of a git archive of 5fc6430 (/tmp/cube5/src), PYTHONPATH=src, BOTARENA_BIN and BOTARENA_LIB
# built from 4793605 (the same Go tree), nice -n 5 beside two other training runs (load average 9-13 on 2 cores).
# Three starts: (1) c9802d9, the first rollout step failed (the server's 64 connections a client; fixed in
# 5fc6430); (2) COEF=0.5, OUT=/work/runs/cube5/run (its imitation leagues continued from start 1: 800 cubes),
# stopped after 2 updates: approx_kl 0.85 and 2.31, clipfrac 0.53 and 0.80 (train-coef0.5.log,
# curve-coef0.5.csv); (3) COEF=0.05, OUT=/work/runs/cube5/run2, MINUTES=57, stopped by hand at 11:39 UTC after
# 10 updates (21 minutes, 81,920 learner steps; train.log, curve.csv) as its one-task and 2-player training
# win rates fell. Resumable (run it again). Quick check of checkpoints/update_00010 (quick/, sampling, 25 cubes a
# seat, seeds 2026113052 and 2026113051): one task against three stalkers 43/14/43 (history2 on the same cubes
# 75/3/22), tasks3 against three teebots 1/0/99. Not committed (docs/training.md).
cd "$(dirname "$0")/../../../python" || exit 1
export PYTHONPATH=src
OUT=${OUT:-../runs/battlecube-4p-mix}
MIX='[{"game":"battlecube","name":"onetask","weight":2,"opponent":"stalker*3,teebot","imitate":""},
 {"game":"battlecube/tasks3","name":"tasks3-teebot","weight":1.5,"opponent":"teebot"},
 {"game":"battlecube/tasks3","name":"tasks3-stalker","weight":0.5,"opponent":"stalker"},
 {"game":"battlecube/2p","name":"2p","weight":1,"opponent":"teebot,stalker","imitate":""}]'
exec nice -n 5 python -m botarena.train --mix "$MIX" --config '{"history":true,"tasks_scalar":true}' \
  --init ../policies/battlecube-4p-history2.policy.safetensors \
  --imitate dodger --imitate-alone --imitate-games 400 --imitate-epochs 0 --imitate-coef ${COEF:-0.05} \
  --overlap --threads 1 --minutes ${MINUTES:-65} --gamma 0.995 --seed 51 --out "$OUT" --resume auto \
  --checkpoint-every 5 --eval-games 0 --gauntlet-games 0
