#!/bin/sh
# The tactician's gauntlet: 100 full-length bouts per pairing and seating
# against every other agent of the game's gauntlet (the built-in bots and
# the committed policies, sampling), on seed 1414141414 and, as checks,
# 2424242424 and 3535353535 (none used before this run). Run from the
# repository root with a botarena built from this commit (BOTARENA_BIN,
# else botarena on PATH). gauntlet.md is these tables, W/D/L per seat.
set -e
BIN=${BOTARENA_BIN:-botarena}
OUT=docs/training/battlebots-tactician
nice -n 5 "$BIN" tournament battlebots --gauntlet --focus tactician \
  --games 100 --seed 1414141414 --workers 1 --json > "$OUT/gauntlet.json"
for seed in 2424242424 3535353535; do
  nice -n 5 "$BIN" tournament battlebots --gauntlet --focus tactician \
    --games 100 --seed $seed --workers 1 --json > "$OUT/gauntlet-seed$seed.json"
done
