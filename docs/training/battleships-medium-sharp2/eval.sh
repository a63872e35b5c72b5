#!/bin/sh
# The gauntlet of battleships-medium-sharp2 (gauntlet.md): ../battleships-large-sharp2/eval.sh on 10×10, seed 5656,
# against hunter, admiral, reference and the committed battleships-medium-sharp; then the same rows of
# battleships-medium-sharp itself (the SHARP argument is unused for those) for comparison.
D=$(dirname "$0")/../battleships-large-sharp2
P=${1:-/work/runs/ships7/medium-sharp2.policy.safetensors}
S=policies/battleships-medium-sharp.policy.safetensors
sh "$D/eval.sh" battleships "$P" "$S" 5656
