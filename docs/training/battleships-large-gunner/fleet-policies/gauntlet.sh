#!/bin/sh
# The 7x7 and 10x10 fleet policies against the built-in gunner (3a85a5f: the diagonal cross only), sampling, both seats,
# 200 games a seating, seed 7676 (new); botarena built from 3047c4f.
S='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
B=bin/botarena; P=policies  # run from the repository root; the JSONs beside this script
$B tournament battleships/small --workers 2 --config "$S" --agents "p=policy:$P/battleships-small-fleet.policy.safetensors?sample,gunner" --focus p --games 200 --seed 7676 --json > small-fleet-gunner-7676.json
$B tournament battleships --workers 2 --config "$S" --agents "p=policy:$P/battleships-medium-fleet.policy.safetensors?sample,gunner" --focus p --games 200 --seed 7676 --json > medium-fleet-gunner-7676.json
