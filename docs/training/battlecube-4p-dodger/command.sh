#!/bin/sh
# battlecube-4p-dodger (issue 34, 2026-11-30, helper cube4): battlecube-4p-history2 taught the built-in dodger's
# play in battlecube/tasks3 cubes while fitted to its own arg-max play in one-task cubes, with the config
# {"history":true,"tasks_scalar":true} (tasks_scalar: one more scalar, 1/T, given to history2 as a zero
# column). mix.py (beside this file) does it: the data (the dodger alone against three teebots, 4,000 cubes,
# and three stalkers, 400; history2 arg-max alone against three stalkers, 600 one-task cubes, three teebots,
# 128, and stalker in 384 2-player games, its decisions counted twice), one fit, then DAgger rounds in tasks3
# (the clone sampling, 400 cubes against three teebots and 60 against three stalkers a round, 2 rounds, one epoch each, the dodger
# labelling), each refit on everything so far, then 3 more passes over everything at a lower rate (the
# polish, stopped at STOP=HH:MM UTC if set). One torch thread, nice -n 5. The log (train.log) shows the
# restarts: the first start recorded with record_demonstrations' two league members (2-3 teachers a cube;
# thrown away), then a stop after 128 of the 600 one-task cubes against teebots (1,000-tick draws), a
# stop after the fit to cut the DAgger plan (3 rounds of 600+100 cubes, 2 epochs) to 2 rounds of 400+60
# cubes and one epoch, and the polish added after the rounds (STOP=09:04; it ended at 08:59).
# As run: from python/ of a git archive of a9d01f9 (/tmp/cube4/b), PYTHONPATH=src, BOTARENA_BIN and
# BOTARENA_LIB built from that archive, OUT=/work/runs/cube4/mix. Resumable (run it again: it skips what OUT holds).
cd "$(dirname "$0")/../../../python" || exit 1
INIT=../policies/battlecube-4p-history2.policy.safetensors OUT=${OUT:-../runs/battlecube-4p-dodger} \
  PYTHONPATH=src exec nice -n 5 python ../docs/training/battlecube-4p-dodger/mix.py
