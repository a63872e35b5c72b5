#!/bin/sh
# Bomberman as Entelect ran it (4 players, 21x21): one agent alone against three copies of one bot,
# in every seat in turn (--lone), 50 games a seat, seed 880001 (unseen in any training).
# Run from the repository root with botarena on PATH (make build: bin/botarena).
set -e
P=policies/bomberman-2p-safe.policy.safetensors
C='{"view_radius":11,"safe_mask":true}'
botarena tournament bomberman --config "$C" --agents "p=policy:$P?sample,hunter,reference" \
  --focus p --lone --games 50 --seed 880001 --json > gauntlet-sample.json
botarena tournament bomberman --config "$C" --agents "p=policy:$P,hunter,reference" \
  --focus p --lone --games 50 --seed 880001 --json > gauntlet-argmax.json
# the baseline: hunter alone against three hunters and against three references, same seeds
botarena tournament bomberman --agents "h=hunter,hunter,reference" \
  --focus h --lone --games 50 --seed 880001 --json > gauntlet-hunter.json
# harvester (the 2-player teacher that beats hunter on points) alone against three hunters / references
botarena tournament bomberman --agents "h=harvester,hunter,reference" \
  --focus h --lone --games 50 --seed 880001 --json > gauntlet-harvester.json
