#!/bin/sh
# The evaluation of the DAgger student (from the repository root; DIR as in command.sh), seeds apart from
# training (the run's seeds start at 0), both seatings, 100 games each. The full --gauntlet (2,600 games)
# was started first and stopped: at the machine's load of 12 it would not have ended before the session's.
P=/work/runs/bomberman-harvester/imitation/dagger/round_02/student.policy.safetensors
C='{"view_radius":11,"safe_mask":true}'
DIR/botarena tournament bomberman/2p --config "$C" --agents "trained=policy:$P?sample,hunter" --games 100 --seed 20261130 --json > trained-hunter.json
DIR/botarena tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:$P,hunter" --games 100 --seed 20261130 --json > trained-argmax-hunter.json
for n in trained trained-argmax; do
  spec="policy:$P?sample"; [ $n = trained-argmax ] && spec="policy:$P"
  DIR/botarena tournament bomberman/2p --config "$C" \
    --agents "$n=$spec,harvester,reference,bomberman-2p-safe=policy:policies/bomberman-2p-safe.policy.safetensors?sample" \
    --focus $n --games 100 --seed 20261131 --json > $n-others.json
done
# gauntlet.json holds the four tables; gauntlet.md renders them together (botarena.train.gauntlet.render_gauntlet_md).
# the committed bomberman-2p-safe against harvester (the lead, 2026-11-30), 100 games a seating
DIR/botarena tournament bomberman/2p --config '{"view_radius":11,"safe_mask":true}' \
  --agents "p=policy:policies/bomberman-2p-safe.policy.safetensors?sample,harvester" \
  --focus p --games 100 --seed 20261132 --json > safe-against-harvester.json
