#!/bin/sh
# battlecube-4p-distill (issue 34, 2026-11-30, helper cube5): the dodger clone of battlecube-4p-dodger (cube4's
# clone_final: tasks3 against three teebots 47.5% / 58.0%, one task against three stalkers 55.0%) fitted to
# history2's full action distributions (soft targets, KL) on one-task and 2-player states while it keeps the
# dodger's hard labels in tasks3 states (distill.py, beside this file), then one DAgger round in which
# history2 labels the student's own states (record_student.py). Config {"history":true,"tasks_scalar":true}.
# Data: cube4's match data (battlecube-4p-dodger/command.sh and mix.py: CUBE4=/work/runs/cube4/mix, not kept
# in the repository; rerun that command to make it). One torch thread, nice -n 5, beside two other training runs.
# As run (from python/ of a git archive of 84cbb34, PYTHONPATH=src, BOTARENA_BIN/BOTARENA_LIB built from 4793605):
#   stage 1, 11:39-11:53 UTC: 5 epochs (stopped by hand), 337 steps of 256+256 rows an epoch, KL_COEF=1 (distill.log);
#   record_student.py with distill_e05, 11:54-11:55;
#   stage 2, 11:55-12:07 UTC: from distill_e05 on the student's states as well, KL_COEF=2, 4 epochs (distill2.log);
#     round2_e04 is `dist` in gauntlet.md;
#   record_student.py with round2_e04 and "r3" (80 one-task cubes against three teebots, 120 against stalkers), 12:12;
#   stage 3, 12:12-12:23 UTC: from round2_e04 on all the student's states, KL_COEF=2, 3 epochs (distill3.log);
#     round3_e03 is `dist3` in gauntlet.md.
cd "$(dirname "$0")/../../../python" || exit 1
export PYTHONPATH=src
D=${OUT:-../runs/battlecube-4p-distill}; H=../docs/training/battlecube-4p-distill
OUT=$D nice -n 5 python $H/distill.py                      # stage 1: stop it after epoch 5 (or STOP=HH:MM)
nice -n 5 python $H/record_student.py $D/distill_e05.policy.safetensors $D
START=$D/distill_e05.policy.safetensors KL_COEF=2 PREFIX=round2 OUT=$D \
  EXTRA=$D/student-battlecube-stalker,$D/student-battlecube-teebot,$D/student-battlecube-2p-stalker,$D/student-battlecube-2p-teebot \
  nice -n 5 python $H/distill.py                           # stage 2: stopped after epoch 4
nice -n 5 python $H/record_student.py $D/round2_e04.policy.safetensors $D r3
START=$D/round2_e04.policy.safetensors KL_COEF=2 PREFIX=round3 OUT=$D \
  EXTRA=$D/student-battlecube-stalker,$D/student-battlecube-teebot,$D/student-battlecube-2p-stalker,$D/student-battlecube-2p-teebot,$D/r3-student-battlecube-teebot,$D/r3-student-battlecube-stalker \
  nice -n 5 python $H/distill.py                           # stage 3: stopped after epoch 3
# Committed (the lead, 12:29 UTC): round2_e04 (`dist`) as policies/battlecube-4p-distill.policy.safetensors, its
# weights as written, its metadata's game config corrected from {"history":true} to the run's
# {"history":true,"tasks_scalar":true} (the eighth scalar; distill.py now records it):
cp $D/round2_e04.policy.safetensors ../policies/battlecube-4p-distill.policy.safetensors
