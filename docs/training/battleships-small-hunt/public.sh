#!/bin/sh
# battleships-small-hunt against a real Entelect 2017 entry, built by recipe (needs a JDK and Maven;
# on a machine without network add --repo-override NAME=LOCAL_CLONE to `bots build`), 10 games a seating,
# --nolimit: the Kotlin bot starts a JVM every round, which ran past the time limit at load 10.
set -e
S=$(botarena bots build -q scooterdelta-2017-battleships)
botarena tournament battleships/small --config '{"placement":"learn","shot_mask":true,"density_plane":true}' \
  --agents "p=policy:policies/battleships-small-hunt.policy.safetensors?sample,scooterdelta-2017-battleships=$S" \
  --focus p --games 10 --nolimit --seed 2026113002 --workers 1 --json > public-scooterdelta.json
