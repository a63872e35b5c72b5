#!/bin/sh
# The tactician's gauntlet: 100 full-length bouts per pairing and seating
# against every other agent of the game's gauntlet (the built-in bots and
# the committed policies, sampling), seed 1414141414 (unseen before this
# run). Run from the repository root with a botarena built from this
# commit (BOTARENA_BIN, else botarena on PATH).
set -e
BIN=${BOTARENA_BIN:-botarena}
nice -n 5 "$BIN" tournament battlebots --gauntlet --focus tactician \
  --games 100 --seed 1414141414 --workers 1 --json > docs/training/battlebots-tactician/gauntlet.json
