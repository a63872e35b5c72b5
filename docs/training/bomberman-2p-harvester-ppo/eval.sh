#!/bin/sh
# The gauntlet of bomberman-2p-harvester-ppo (issue 34), from the repository root, DIR/botarena built from
# a5cf2ed or later (safe_mask_strict). Seeds 7100001-7100003 are apart from training's (seed 1 + update; the
# imitation and DAgger leagues' own seeds). Both seatings; sampling and arg-max. The mask (wary + strict) is
# part of the bot and applies to every seat, bomberman-2p-safe's included. gauntlet.json holds the tables,
# gauntlet.md renders them (botarena.train.gauntlet.render_gauntlet_md).
set -e
P=policies/bomberman-2p-harvester-ppo.policy.safetensors
S=policies/bomberman-2p-safe.policy.safetensors
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
for mode in sample argmax; do
  spec="policy:$P?sample"; [ $mode = argmax ] && spec="policy:$P"
  DIR/botarena tournament bomberman/2p --config "$C" --agents "trained=$spec,hunter" --games 100 --seed 7100001 --json > $mode-hunter.json
  DIR/botarena tournament bomberman/2p --config "$C" --agents "trained=$spec,harvester" --games 100 --seed 7100002 --json > $mode-harvester.json
  DIR/botarena tournament bomberman/2p --config "$C" --agents "trained=$spec,reference,bomberman-2p-safe=policy:$S?sample" \
    --focus trained --games 50 --seed 7100003 --json > $mode-others.json
done
# bomberman-2p-safe under the same mask and seeds, for comparison
DIR/botarena tournament bomberman/2p --config "$C" --agents "safe=policy:$S?sample,hunter" --games 100 --seed 7100001 --json > safe-strict-sample-hunter.json
DIR/botarena tournament bomberman/2p --config "$C" --agents "safe=policy:$S?sample,harvester" --games 100 --seed 7100002 --json > safe-strict-sample-harvester.json
DIR/botarena tournament bomberman/2p --config "$C" --agents "safe-argmax=policy:$S,hunter" --games 100 --seed 7100001 --json > safe-strict-argmax-hunter.json
# recorded games read in docs/training.md (sampling; seeds 101, 102)
for s in 101 102; do
  DIR/botarena play bomberman/2p --config "$C" --agents "policy:$P?sample,hunter" --seed $s --record hunter-$s.jsonl
  DIR/botarena play bomberman/2p --config "$C" --agents "harvester,policy:$P?sample" --seed $s --record harvester-$s.jsonl
done
# a second seed set for the arg-max figure against hunter (run by the lead after the gauntlet, 2026-11-30)
DIR/botarena tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:$P,hunter" --games 100 --seed 7100011 --json > seed2-argmax-hunter.json
DIR/botarena tournament bomberman/2p --config "$C" --agents "safe-argmax=policy:$S,hunter" --games 100 --seed 7100011 --json > seed2-safe-argmax-hunter.json
