#!/bin/sh
# The gauntlet of bomberman-2p-planner-ppo (issue 34), run from this folder, B = botarena built from 8379e50
# (d7cba0a's strict mask). New seeds 8121201 (hunter), 8121202 (harvester), 8121203 (planner): apart from
# training's (seed 1212 + update) and from the earlier gauntlets' (1141101-1141113, 7100001-7100011).
# 100 games a seating, both seatings; the PPO policy arg-max and sampling, the start policy
# (bomberman-2p-planner-touched) arg-max on the same seeds. Hunter and harvester first, planner last (slowest).
B=${B:-../../../bin/botarena}
# NEW: the run's policy (not committed: it did not beat the start), /work/runs/bomber12/run/policy.safetensors
N=/work/runs/bomber12/run/policy.safetensors
P=../../../policies/bomberman-2p-planner-touched.policy.safetensors
N=${NEW:-$N}
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
mkdir -p json
for o in hunter:8121201 harvester:8121202 planner:8121203; do
  n=${o%%:*}; s=${o##*:}
  $B tournament bomberman/2p --config "$C" --agents "ppo-argmax=policy:$N,$n" --games 100 --seed $s --workers 1 --json > json/ppo-argmax-$n.json
  $B tournament bomberman/2p --config "$C" --agents "start-argmax=policy:$P,$n" --games 100 --seed $s --workers 1 --json > json/start-argmax-$n.json
  $B tournament bomberman/2p --config "$C" --agents "ppo-sample=policy:$N?sample,$n" --games 100 --seed $s --workers 1 --json > json/ppo-sample-$n.json
done
