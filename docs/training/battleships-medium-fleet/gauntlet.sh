#!/bin/sh
# ships13 gauntlet of battleships-medium-fleet (s3; mfleet-*), s2 (s2-*) and medium-shield (mshield-*) (issue 34): run
# from the repository root (the JSONs land there), botarena on PATH. Seeds 2424, 2525 and 2626 (new); 200 games a
# seating, 400 a pairing a seed, sampling. S2 is a copy of s2 (command.sh step 3, not committed).
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
P=policies/battleships-medium-fleet.policy.safetensors
Q=policies/battleships-medium-shield.policy.safetensors
S2=/work/runs/ships13/s2.policy.safetensors
E=docs/training/battleships-medium-fleet/eval.sh
$E "policy:$P?sample" mfleet 2424 "$F" "admiral marksman hunter reference"
$E "policy:$P?sample" mfleet 2525 "$F" "admiral marksman hunter"
$E "policy:$P?sample" mfleet 2626 "$F" "admiral"
for s in 2424 2525; do $E "policy:$Q?sample" mshield $s "$M" "admiral marksman"; done
$E "policy:$Q?sample" mshield 2626 "$M" "admiral"
for s in 2424 2525; do $E "policy:$Q?temp=0.5" mshieldT05 $s "$M" "admiral"; done
$E "policy:$S2?sample" s2 2424 "$F" "admiral marksman hunter reference"
$E "policy:$S2?sample" s2 2525 "$F" "admiral marksman hunter"
$E "policy:$S2?sample" s2 2626 "$F" "admiral"
