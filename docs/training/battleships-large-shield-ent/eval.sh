#!/bin/sh
# The gauntlet of the large run (large-shield3; issue 34, helper ships10): eval-large.sh POLICY LARGESHIELD SEED, in an
# empty directory, botarena built from this commit on PATH. Seed 4343 (unseen in training: 153 there). 200 games a
# seating, 400 a pairing. Rows: L-* the new policy under shield_mask (sampling, arg-max) against hunter, admiral,
# marksman, reference and head to head against the committed battleships-large-shield (both under shield_mask);
# lshield-*: the committed battleships-large-shield under shield_mask on the same seed, sampling.
P=$1; S=$2; SEED=$3
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
t() { botarena tournament battleships/large --workers 1 --config "$M" --agents "$1" --focus p --games 200 --seed $SEED --json > "$2.json"; }
for o in hunter admiral marksman; do
  t "p=policy:$P?sample,$o" L-sample-$o
  t "p=policy:$S?sample,$o" lshield-sample-$o
done
t "p=policy:$P?sample,lshield=policy:$S?sample" L-sample-lshield
t "p=policy:$P?sample,reference" L-sample-reference
for o in hunter admiral marksman; do t "p=policy:$P,$o" L-argmax-$o; done
