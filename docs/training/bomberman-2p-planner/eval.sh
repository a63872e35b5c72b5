#!/bin/sh
# The gauntlet of the bomberman-2p-planner run (issue 34, helper bomber8), from the repository root, B=DIR/botarena
# built from e8edcc5 or later, P= the run's OUT/policy.safetensors (not committed). Seeds 7300001-7300004,
# 7300011-7300012 (2 players), 7300101-7300102 (4 players) are apart from training's (seed 8 + update; the imitation
# leagues' 8 + 104729 k, the DAgger rounds' 8 + 7919 r). Every seat; sampling and arg-max. The mask (wary + strict)
# is part of the bot and applies to every seat. gauntlet.json holds the tables, gauntlet.md renders them.
set -e
B=${B:-bin/botarena}
P=${P:-/work/runs/bomber8/run/policy.safetensors}
H=policies/bomberman-2p-harvester-ppo.policy.safetensors
O=${O:-.}
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
mkdir -p $O
for mode in sample argmax; do
  spec="policy:$P?sample"; [ $mode = argmax ] && spec="policy:$P"
  $B tournament bomberman/2p --config "$C" --agents "trained=$spec,hunter" --games 100 --seed 7300001 --json > $O/$mode-hunter.json
  $B tournament bomberman/2p --config "$C" --agents "trained=$spec,harvester" --games 100 --seed 7300002 --json > $O/$mode-harvester.json
  $B tournament bomberman/2p --config "$C" --agents "trained=$spec,planner" --games 100 --seed 7300003 --json > $O/$mode-planner.json
  $B tournament bomberman/2p --config "$C" --agents "trained=$spec,reference" --games 100 --seed 7300004 --json > $O/$mode-reference.json
  # the start, bomberman-2p-harvester-ppo, on the same seeds
  hspec="policy:$H?sample"; [ $mode = argmax ] && hspec="policy:$H"
  $B tournament bomberman/2p --config "$C" --agents "harvester-ppo=$hspec,hunter" --games 100 --seed 7300001 --json > $O/base-$mode-hunter.json
  $B tournament bomberman/2p --config "$C" --agents "harvester-ppo=$hspec,harvester" --games 100 --seed 7300002 --json > $O/base-$mode-harvester.json
done
# a second seed set, arg-max, both policies
$B tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:$P,hunter" --games 100 --seed 7300011 --json > $O/seed2-argmax-hunter.json
$B tournament bomberman/2p --config "$C" --agents "harvester-ppo-argmax=policy:$H,hunter" --games 100 --seed 7300011 --json > $O/seed2-base-argmax-hunter.json
$B tournament bomberman/2p --config "$C" --agents "trained-argmax=policy:$P,harvester" --games 100 --seed 7300012 --json > $O/seed2-argmax-harvester.json
$B tournament bomberman/2p --config "$C" --agents "harvester-ppo-argmax=policy:$H,harvester" --games 100 --seed 7300012 --json > $O/seed2-base-argmax-harvester.json
# 4 players, alone against three hunters, every seat in turn (--lone)
$B tournament bomberman --config "$C" --agents "trained=policy:$P?sample,hunter" --focus trained --lone --games 20 --seed 7300101 --json > $O/4p-sample-hunter.json
$B tournament bomberman --config "$C" --agents "trained=policy:$P?sample,hunter" --focus trained --lone --games 30 --seed 7300102 --json > $O/4p-sample-hunter-b.json
# recorded games read in notes.md
for s in 101 102; do
  $B play bomberman/2p --config "$C" --agents "policy:$P?sample,hunter" --seed $s --record $O/hunter-$s.jsonl
  $B play bomberman/2p --config "$C" --agents "harvester,policy:$P?sample" --seed $s --record $O/harvester-$s.jsonl
done
for s in 103 104; do
  $B play bomberman/2p --config "$C" --agents "policy:$P,hunter" --seed $s --record $O/argmax-hunter-$s.jsonl
done
python3 docs/training/bomberman-2p-strict/recordings.py $O/*hunter-1*.jsonl $O/harvester-1*.jsonl > $O/recordings.jsonl
