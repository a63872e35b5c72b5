#!/bin/sh
# Step 1 of the run (issue 34): how the harvester DAgger clone and bomberman-2p-safe die against hunter under
# each safe mask: 40 games a seating, sampling, seed 5551000 (unseen in training), from the repository root,
# DIR/botarena built from a5cf2ed (the commit that adds safe_mask_strict). JSON in mask-check/.
# The clone: /work/runs/bomberman-harvester/imitation/dagger/round_02/student.policy.safetensors (the run of
# docs/training/bomberman-2p-harvester; not committed).
# safe-wary-strict.json was played on a scratch build of 43c367d whose plain safe masks cleared a fatal Do
# Nothing the way safe_mask_strict does; the same run of the clone on DIR/botarena (a5cf2ed) gave the
# identical table (clone-wary-strict.json), as determinism says it must.
CLONE=/work/runs/bomberman-harvester/imitation/dagger/round_02/student.policy.safetensors
SAFE=policies/bomberman-2p-safe.policy.safetensors
for mask in plain wary wary-strict; do
  case $mask in
    plain) C='{"view_radius":11,"safe_mask":true}' ;;
    wary) C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true}' ;;
    wary-strict) C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}' ;;
  esac
  DIR/botarena tournament bomberman/2p --config "$C" --agents "clone=policy:$CLONE?sample,hunter" --games 40 --seed 5551000 --json > mask-check/clone-$mask.json
  DIR/botarena tournament bomberman/2p --config "$C" --agents "safe=policy:$SAFE?sample,hunter" --games 40 --seed 5551000 --json > mask-check/safe-$mask.json
done
