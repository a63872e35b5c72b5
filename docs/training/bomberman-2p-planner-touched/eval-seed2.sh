#!/bin/sh
# A second seed set against planner, arg-max, both policies (seed 1141113), run after the gauntlet (helper bomber11);
# from the repository root; JSON in seed2/.
B=/work/runs/bomber11/bin3/botarena; O=${O:-docs/training/bomberman-2p-planner-touched/seed2}
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
C0='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
nice -n 5 $B tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:policies/bomberman-2p-planner-touched.policy.safetensors,planner" --games 100 --seed 1141113 --workers 1 --json > $O/trained-argmax-planner.json
nice -n 5 $B tournament bomberman/2p --config "$C0" --agents "harvester-ppo-argmax=policy:policies/bomberman-2p-harvester-ppo.policy.safetensors,planner" --games 100 --seed 1141113 --workers 1 --json > $O/harvester-ppo-argmax-planner.json
