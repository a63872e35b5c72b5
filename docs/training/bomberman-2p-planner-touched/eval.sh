#!/bin/sh
# Gauntlet of bomberman-2p-planner-touched (issue 34, helper bomber11), from the repository root; B = botarena built
# from 0d746ca or later (touched_planes / opponent_scalars append-only). 100 games a seating (200 a pairing), sampling
# and arg-max; one tournament per opponent, so bomberman-2p-harvester-ppo meets the same maps on the same seeds:
# 1141101 hunter, 1141102 harvester, 1141103 planner, 1141104 reference, 1141105 the two policies head to head.
# None used in training (planner's leagues 34111/34112, DAgger 34121-34132) or in an earlier gauntlet.
# OUT: where the JSON goes. P: the policy. The mask (wary + strict) applies to every seat.
# B: botarena built from 0fcf117 (git archive of it) in the run
B=${B:-/work/runs/bomber11/bin3/botarena}; OUT=${OUT:-.}; G=${G:-100}
P=${P:-policies/bomberman-2p-planner-touched.policy.safetensors}
H=policies/bomberman-2p-harvester-ppo.policy.safetensors
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
C0='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}'
t() { # name spec opponent seed config
  f=$OUT/$1-${3%%=*}.json; [ -s $f ] && return
  nice -n 5 $B tournament bomberman/2p --config "$5" --agents "$1=$2,$3" --games $G --seed $4 --workers 1 --json > $f.tmp && mv $f.tmp $f
}
for opp in hunter:1141101 harvester:1141102 planner:1141103; do
  o=${opp%%:*}; s=${opp##*:}
  t trained "policy:$P?sample" $o $s "$C"
  t trained-argmax "policy:$P" $o $s "$C"
done
for opp in hunter:1141101 harvester:1141102 planner:1141103; do
  o=${opp%%:*}; s=${opp##*:}
  t harvester-ppo "policy:$H?sample" $o $s "$C0"
  t harvester-ppo-argmax "policy:$H" $o $s "$C0"
done
t trained "policy:$P?sample" reference 1141104 "$C"
t trained-argmax "policy:$P" reference 1141104 "$C"
# head to head under the new config (harvester-ppo reads its first 12 planes and 8 scalars, byte for byte its own)
t trained "policy:$P?sample" "harvester-ppo=policy:$H?sample" 1141105 "$C"
t trained-argmax "policy:$P" "harvester-ppo-argmax=policy:$H" 1141105 "$C"
# recorded games (read in notes.md)
for s in 201 202; do
  [ -s $OUT/rec-argmax-hunter-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "policy:$P,hunter" --seed $s --record $OUT/rec-argmax-hunter-$s.jsonl > /dev/null
  [ -s $OUT/rec-sample-harvester-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "harvester,policy:$P?sample" --seed $s --record $OUT/rec-sample-harvester-$s.jsonl > /dev/null
  [ -s $OUT/rec-argmax-planner-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "policy:$P,planner" --seed $s --record $OUT/rec-argmax-planner-$s.jsonl > /dev/null
done
# eight more recorded games read in notes.md: arg-max against harvester, both seatings, seeds 301-304
for s in 301 302 303 304; do
  [ -s $OUT/h-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "policy:$P,harvester" --seed $s --record $OUT/h-$s.jsonl > /dev/null
  [ -s $OUT/h1-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "harvester,policy:$P" --seed $s --record $OUT/h1-$s.jsonl > /dev/null
done
# gauntlet.json / gauntlet.md: python gauntlet.py $OUT (in this folder); recordings.jsonl:
# python ../bomberman-2p-strict/recordings.py $OUT/rec-*.jsonl $OUT/h-*.jsonl $OUT/h1-*.jsonl
