#!/bin/sh
# The gauntlet of battleships-large-sharp (gauntlet.md): seed 3838 (the committed battleships-large-admiral gauntlet's
# seed, unseen in both runs' training), 100 games a seating, so 200 a pairing over both seats, sampling and
# arg-max, against hunter, admiral and reference; one JSON a row (gauntlet.json gathers them). Then the race
# model without return fire (race.go.txt, race.py in docs/training/battleships-medium-sharp; seed 77).
P=${1:-policies/battleships-large-sharp.policy.safetensors}
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
for o in hunter admiral reference; do
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P?sample,$o" --focus p --games 100 --seed 3838 --json > sample-$o.json
  botarena tournament battleships/large --config "$C" --agents "p=policy:$P,$o" --focus p --games 100 --seed 3838 --json > argmax-$o.json
done
