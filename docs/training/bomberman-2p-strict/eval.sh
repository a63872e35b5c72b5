#!/bin/sh
# The gauntlet of the bomberman-2p-strict run (issue 34), run from /work/runs/bomber5/eval on 2026-11-30 with DIR/botarena
# built from 4793605 (DIR=/tmp/b5). Seeds 7200001 (hunter), 7200002 (harvester), 7200003 (reference and
# bomberman-2p-safe) are apart from training's (seed 1 + update; the imitation leagues' own seeds) and from the earlier
# gauntlets' (7100001-7100011). Both seatings (tournament plays both), sampling and arg-max; the mask (wary + strict) is
# part of the bot and applies to every seat. The same script ran for the run's policy (NAME=strict,
# P=/work/runs/bomber5/run/policy.safetensors) and for its start, bomberman-2p-harvester-ppo (NAME=base), on the
# same seeds; gauntlet.json holds the twelve tables, gauntlet.md renders them (botarena.train.gauntlet.render_gauntlet_md).
set -e
NAME=$1; P=$2
S=policies/bomberman-2p-safe.policy.safetensors
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
for mode in sample argmax; do
  spec="policy:$P?sample"; [ $mode = argmax ] && spec="policy:$P"
  DIR/botarena tournament bomberman/2p --config "$C" --agents "$NAME=$spec,hunter" --games 100 --seed 7200001 --json > $NAME-$mode-hunter.json
  DIR/botarena tournament bomberman/2p --config "$C" --agents "$NAME=$spec,harvester" --games 100 --seed 7200002 --json > $NAME-$mode-harvester.json
  DIR/botarena tournament bomberman/2p --config "$C" --agents "$NAME=$spec,reference,bomberman-2p-safe=policy:$S?sample" \
    --focus $NAME --games 50 --seed 7200003 --json > $NAME-$mode-others.json
done
# Recorded games read for docs/training.md: 10 games a seat, seeds 3001-3010, sampling and arg-max, against hunter and
# harvester (80 a policy), each recorded with play --record, summarised by recordings.py (points at round 200 and at the end, walls
# left, power-ups at round 150, stalls of 30+ rounds on at most two cells with no bomb or trigger) and deleted:
#   for s in 3001 ... 3010: DIR/botarena play bomberman/2p --config "$C" --agents "policy:$P,hunter" --seed $s --record F
# (and the other seat, harvester, ?sample); the summaries are recordings-NAME.jsonl beside this file.
