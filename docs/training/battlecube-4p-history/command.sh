#!/bin/sh
# Battle³ 4-player cubes with the history scalars (issue 34, 2026-11-29): battlecube-4p, widened to the 7
# scalars of {"history": true} (zero weights on the 3 new ones, so it starts as battlecube-4p's function),
# trained on in one-task cubes against a mixture of stalker (weight 3) and teebot (1), drawn per opponent
# seat at each episode start (42% of the cubes are three stalkers), the learner in every seat; the game's
# own reward; no league. 60 minutes, one torch thread, fp32.
# (The trainer takes one game config a run, so tasks3 cubes cannot be mixed in; one-task stalker cubes were
# chosen because the history is for stalker's "stays" model, and those cubes, 4-12 ticks, give many duels.)
# Run from python/ with PYTHONPATH=src; BOTARENA_BIN and BOTARENA_LIB pointing at a binary and library
# built from 9d50d01 apart from the shared working tree. As run: from python/ of a git archive of 9d50d01
# (/tmp/cubehist/src), --init that archive's policies/battlecube-4p.policy.safetensors, --out
# /work/runs/cube-history/run; 60 minutes, 101 updates, 827,392 learner steps. Resumable (run it again).
exec nice -n 5 python -m botarena.train --game battlecube --config '{"history": true}' \
  --init ../policies/battlecube-4p.policy.safetensors \
  --overlap --threads 1 --minutes 60 --gamma 0.995 --seed 34 --out ../runs/battlecube-4p-history --resume auto \
  --opponent "stalker*3,teebot" --checkpoint-every 10 --eval-games 0 --gauntlet-games 0
