#!/bin/sh
# rec.sh POLICY DIR [CONFIG]: 16 recorded battlecube/tasks3 cubes against three teebots, sampling, the policy
# in seat k for seeds 9521+100k .. 9524+100k (the seeds of docs/training/battlecube-4p-history2's
# recordings); read them with ../battlecube-4p-history2/deaths3.py DIR/*.jsonl.
P=$1; D=$2; C=${3:-'{"history":true,"tasks_scalar":true}'}; B=${B:-/tmp/cube4/botarena}
mkdir -p $D
for k in 0 1 2 3; do
  for i in 1 2 3 4; do
    s=$((9520 + 100 * k + i)); a=""
    for j in 0 1 2 3; do
      if [ $j = $k ]; then x="policy:$P?sample"; else x=teebot; fi
      a="$a${a:+,}$x"
    done
    $B play battlecube/tasks3 --config "$C" --agents "$a" --seed $s --record $D/s$k-$s.jsonl > /dev/null
  done
done
