#!/bin/sh
# The runs of eval.sh for docs/training/battleships-small-fleet (seeds 1616, 2727 and 4545, new). s2 and c59 were
# measured first; run d and s3 (the committed policy) after, on the same seeds and on 4545.
export PATH=/work/runs/ships12/bin:$PATH
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
S=/work/runs/ships12/s2.policy.safetensors; S3=/work/runs/ships12/s3.policy.safetensors; DP=/work/runs/ships12/d.policy.safetensors; B=/work/runs/ships12/battleships-small-shield.policy.safetensors; C=/work/runs/ships12/c59.policy.safetensors
cd /work/runs/ships12/eval
../eval.sh "policy:$S?sample" fleet 1616 "$F"
../eval.sh "policy:$B?sample" shield 1616 "$M"
../eval.sh "policy:$C?sample" c59 1616 "$M" "admiral marksman"
../eval.sh "policy:$S?sample" fleet 2727 "$F" "admiral marksman"
../eval.sh "policy:$B?sample" shield 2727 "$M" "admiral marksman"
../eval.sh "policy:$S" fleetargmax 1616 "$F" "admiral marksman"
../eval.sh "policy:$S3?sample" sym 1616 "$F"
../eval.sh "policy:$S3?sample" sym 2727 "$F" "admiral marksman"
../eval.sh "policy:$S3?sample" sym 4545 "$F"
../eval.sh "policy:$B?sample" shield 4545 "$M" "hunter admiral marksman"
../eval.sh "policy:$DP?sample" dppo 1616 "$F"
../eval.sh "policy:$DP?sample" dppo 2727 "$F" "admiral marksman"
echo DONE
