#!/bin/sh
# Gauntlet of helper bomber13's run (issue 34), from the repository root. B = botarena built from fb03688 or later.
# 100 games a seating (200 a pairing), one tournament per agent and opponent, so every agent meets the same maps
# on the same seeds: 1313201 hunter, 1313202 harvester, 1313203 planner, 1313204 reference (none used before in
# training or a gauntlet; screens used 1313101-1313103 and 1313301-). The mask (wary + strict) applies to every seat.
# OUT: where the JSON goes. T: planner-touched as committed; S: it sharpened (policy head / 0.2, sharpen.py);
# P: the PPO run's policy (skipped when absent).
B=${B:-/work/runs/bomber13/bin/botarena}; OUT=${OUT:-.}; G=${G:-100}
T=policies/bomberman-2p-planner-touched.policy.safetensors
S=${S:-policies/bomberman-2p-planner-sharp.policy.safetensors}
P=${P:-}
C='{"view_radius":11,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true,"touched_planes":true,"opponent_scalars":true}'
t() { # name spec opponent seed
  f=$OUT/$1-$3.json; [ -s $f ] && return
  OMP_NUM_THREADS=1 nice -n 5 $B tournament bomberman/2p --config "$C" --agents "$1=$2,$3" --games $G --seed $4 --workers 1 --json > $f.tmp && mv $f.tmp $f
}
for opp in hunter:1313201 harvester:1313202 planner:1313203; do
  o=${opp%%:*}; s=${opp##*:}
  [ -n "$P" ] && t ppo "policy:$P?sample" $o $s
  t sharp "policy:$S?sample" $o $s
  t touched "policy:$T?sample" $o $s
  t touched-argmax "policy:$T" $o $s
done
t sharp "policy:$S?sample" reference 1313204
[ -n "$P" ] && t ppo "policy:$P?sample" reference 1313204
# recorded games, sampling, read in notes.md: seeds 501-503, both seatings, against hunter and planner; R: the policy (default the committed sharp file)
R=${R:-$S}
for s in 501 502 503; do
  for o in hunter planner; do
    [ -s $OUT/rec-$o-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "policy:$R?sample,$o" --seed $s --record $OUT/rec-$o-$s.jsonl > /dev/null
    [ -s $OUT/rec1-$o-$s.jsonl ] || $B play bomberman/2p --config "$C" --agents "$o,policy:$R?sample" --seed $s --record $OUT/rec1-$o-$s.jsonl > /dev/null
  done
done
