#!/bin/sh
# The policy arg-max again after d7cba0a (safe_mask_strict judges a bot's Do Nothing as what the 20-do-nothing rule
# makes of it), on eval.sh's seeds, 100 games a seating (run by the lead, 2026-12-01 03:51-04:00 UTC, one worker each,
# from the repository root; B = botarena built from d7cba0a). Planner's own mask is strict too, so it changed as well.
B=${B:-bin/botarena}
P=policies/bomberman-2p-planner-touched.policy.safetensors
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
for o in harvester:1141102 planner:1141103 hunter:1141101; do
  n=${o%%:*}; s=${o##*:}
  $B tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:$P,$n" --games 100 --seed $s --workers 1 --json > fixed-$n.json
done
