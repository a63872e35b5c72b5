#!/bin/sh
# The runs of eval.sh for docs/training/battleships-small-fleet (seeds 1616 and 2727, new).
export PATH=/work/runs/ships12/bin:$PATH
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
S=/work/runs/ships12/s2.policy.safetensors; B=/work/runs/ships12/battleships-small-shield.policy.safetensors; C=/work/runs/ships12/c59.policy.safetensors
cd /work/runs/ships12/eval
../eval.sh "policy:$S?sample" fleet 1616 "$F"
../eval.sh "policy:$B?sample" shield 1616 "$M"
../eval.sh "policy:$C?sample" c59 1616 "$M" "admiral marksman"
../eval.sh "policy:$S?sample" fleet 2727 "$F" "admiral marksman"
../eval.sh "policy:$B?sample" shield 2727 "$M" "admiral marksman"
../eval.sh "policy:$S" fleetargmax 1616 "$F" "admiral marksman"
echo DONE
