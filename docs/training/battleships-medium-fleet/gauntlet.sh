#!/bin/sh
# ships13 gauntlet of battleships-medium-fleet and medium-shield (issue 34): run from the repository root (the JSONs
# land there), botarena on PATH,
# eval.sh from this folder. Seeds 2424 and 2525 (new); 200 games a seating, 400 a pairing a seed, sampling.
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
P=policies/battleships-medium-fleet.policy.safetensors
Q=policies/battleships-medium-shield.policy.safetensors
E=docs/training/battleships-medium-fleet/eval.sh
$E "policy:$P?sample" mfleet 2424 "$F" "admiral marksman hunter reference"
$E "policy:$Q?sample" mshield 2424 "$M" "admiral marksman"
$E "policy:$P?sample" mfleet 2525 "$F" "admiral marksman hunter"
$E "policy:$Q?sample" mshield 2525 "$M" "admiral marksman"
