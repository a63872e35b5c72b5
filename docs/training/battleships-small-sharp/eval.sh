#!/bin/sh
# The gauntlet of battleships-small-sharp (gauntlet.md; helper ships6, issue 34): 100 games a seating, so 200 a
# pairing over both seats, sampling and arg-max, against hunter, admiral and reference, one JSON a row
# (gauntlet.json gathers them). Seeds 3535 (the committed battleships-small-hunt gauntlet's seed) and 4646 (its
# second seed), both unseen in training (87). Usage: eval.sh [POLICY] [SEED] [PREFIX]; the same rows for
# battleships-small-hunt: eval.sh policies/battleships-small-hunt.policy.safetensors 3535 start-
P=${1:-policies/battleships-small-sharp.policy.safetensors}
S=${2:-3535}
X=${3:-}
C='{"placement":"learn","shot_mask":true,"density_plane":true}'
for o in hunter admiral reference; do
  botarena tournament battleships/small --config "$C" --agents "p=policy:$P?sample,$o" --focus p --games 100 --seed $S --json > ${X}sample-$o-$S.json
  botarena tournament battleships/small --config "$C" --agents "p=policy:$P,$o" --focus p --games 100 --seed $S --json > ${X}argmax-$o-$S.json
done
# Fleets (fleets.py and race.go.txt of docs/training/battleships-medium-sharp; RACE_BIN built from race.go.txt
# as its header says; hunter shooting, 100 races, seed 77):
#   python3 fleets.py battleships/small "policy:$P?sample" "policy:$P" hunter admiral
