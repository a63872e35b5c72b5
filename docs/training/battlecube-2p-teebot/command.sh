#!/bin/sh
# The battlecube/2p run against teebot (issue 34, 2026-11-29), as it ran: three stages, from
# /work/main/python with PYTHONPATH=src. BOTARENA_BIN: a binary built from HEAD 25aedc8 apart from
# the shared working tree (so that other engineers' edits do not rebuild it mid-run).
set -e
export BOTARENA_BIN=/work/runs/battlecube-teebot/bin/botarena
R=/work/runs/battlecube-teebot
# 1. From the stalker run's final policy: imitate stalker against teebot (20,000 games), three DAgger
#    rounds against teebot, then PPO in the PFSP league (stopped by hand after 34 updates, 25 minutes:
#    the clone had lost stalker; only its imitation and DAgger data are used below; --total-steps 8192
#    ends it after the same imitation).
sh $R/stage1-command.sh
# 2. mix2.py: refit the stalker run's policy on its own arg-max decisions against stalker (4,000 games,
#    counted 4 times) and stalker's decisions against teebot (stage 1's), then DAgger against teebot.
#    (a first script, stalker's own labels against both, was tried first: it draws stalker; see mix.log.
#    It is in commit 87686b6; today `--imitate stalker --opponent stalker,teebot` does the same.)
nice -n 5 /tmp/tv/bin/python $R/mix2.py > $R/mix2/mix2.log 2>&1
# 3. PPO in the PFSP league from mix2's round-2 student.
sh $R/ppo-command.sh
