#!/bin/sh
# ships14 gauntlet (issue 34), 14x14: run from a scratch folder (the JSONs land in gauntlet/), botarena on PATH. Seeds
# 6262 and 6363 (new; 6161 screened), 200 games a seating, 400 a pairing a seed, sampling. The candidates are the
# steps of command.sh (/work/runs/ships14, none committed); SH4 is a
# copy of policies/battleships-large-sharp4.policy.safetensors, played under its own config M.
F='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'
M='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
E=$(dirname $0)/eval.sh; R=/work/runs/ships14
P=$R/s1.policy.safetensors  # the screen's best; not committed
SH4=$R/sharp4.policy.safetensors
for s in 6262 6363; do
  $E "policy:$SH4?sample" sharp4 $s "$M" admiral
  $E "policy:$P?sample" s1 $s "$F" admiral
done
# 6464, a third new seed, added after 6262 and 6363 (the per-seed spread of large-sharp4 was 10 points)
$E "policy:$SH4?sample" sharp4 6464 "$M" admiral; $E "policy:$P?sample" s1 6464 "$F" admiral; $E "policy:$R/s3.policy.safetensors?sample" s3 6464 "$F" admiral
$E "policy:$P?sample" s1 6262 "$F" "hunter reference marksman"
$E "policy:$P?sample" s1 6363 "$F" "hunter marksman"
for s in 6262 6363; do
  for t in s3 s2; do $E "policy:$R/$t.policy.safetensors?sample" $t $s "$F" admiral; done
  $E "policy:$R/d/run/policy.safetensors?sample" d $s "$F" admiral
done
$E "policy:$SH4?sample" sharp4 6262 "$M" "hunter marksman reference"
$E "policy:$SH4?sample" sharp4 6363 "$M" "hunter marksman"
$E "policy:$R/s3.policy.safetensors?sample" s3 6262 "$F" "hunter reference marksman"
$E "policy:$R/s3.policy.safetensors?sample" s3 6363 "$F" "hunter marksman"
