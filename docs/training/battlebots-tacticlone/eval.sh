#!/bin/sh
# The screens of battlebots-tacticlone (run from the repository root, botarena built from 64ddf3b as BIN):
# 30 full-length bouts per seating, sampling, seed 1515000 (unseen in training and in earlier evaluations),
# against the strong bots, sniper, the older bots and the committed battlebots-seat0 (sampling).
# CKPT: OUT/out2/checkpoints/update_000{05,17,41}.policy.safetensors (05 is the clone with a fitted value head).
# Then the whole gauntlet, 100 bouts a seating, seed 1515151515 (new), update 41 sampling (gauntlet.json):
#   $BIN tournament battlebots --gauntlet --agents "tacticlone=policy:CKPT41?sample" --focus tacticlone --games 100 --seed 1515151515 --workers 1 --json
set -e
BIN=${BOTARENA_BIN:-botarena}
for CKPT in "$@"; do
  nice -n 5 "$BIN" tournament battlebots --agents "t=policy:$CKPT?sample,duelist,gambit,warden,tactician,sniper,huggy,nop,random,seat0=policy:policies/battlebots-seat0.policy.safetensors?sample" \
    --focus t --games 30 --seed 1515000 --workers 1 --json > "screen-$(basename "$CKPT" .policy.safetensors).json"
done
