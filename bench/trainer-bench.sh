#!/bin/sh
# Learner steps/s of PPO on BattleBots against huggy (the same network: two 3×3 convolutions, 16 and
# 32 channels at strides 1 and 2, 256 hidden units; 64 envs × 128 steps per update, 4 epochs of 4
# minibatches; the update included), interleaved A, B, C, ... per round, so that every trainer sees
# the same machine load:
#
#   cleanrl   CleanRL's ppo.py (vwxyzjn/cleanrl), adapted outside this repository to botarena's
#             gymnasium env (gymnasium.make("botarena/battlebots-flat-v0", observation flat,
#             backend native) and to the same network: CLEANRL=/path/to/that ppo.py
#   before    python -m botarena.train from the commit BEFORE (default: the parent of the trainer's
#             speed work), with BEFORE_FLAGS (default: none, the default flags)
#   after     python -m botarena.train of this checkout, default flags
#   after-x   the same with AFTER_FLAGS (default: --bf16 --overlap)
#
# Every trainer uses one torch thread (--threads 1), the machine's Go binary and native library
# (BOTARENA_BIN, BOTARENA_LIB: make build lib), and runs UPDATES updates; the figure is the median
# learner steps/s over its updates after the first. Output: one line per run, then the medians.
#
#   CLEANRL=/tmp/cleanrl/ppo_botarena.py sh bench/trainer-bench.sh [ROUNDS] [UPDATES]
set -eu
ROUNDS=${1:-2}
UPDATES=${2:-4}
BEFORE=${BEFORE:-7dd5fe9}
AFTER_FLAGS=${AFTER_FLAGS:---bf16 --overlap}
BEFORE_FLAGS=${BEFORE_FLAGS:-}
PY=${PY:-/tmp/sb3venv/bin/python}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export BOTARENA_BIN=${BOTARENA_BIN:-$ROOT/bin/botarena} BOTARENA_LIB=${BOTARENA_LIB:-$ROOT/bin/libbotarena.so}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if [ "$BEFORE" != none ]; then # BEFORE=none: this checkout's trainer only (bench/figures.sh)
  git -C "$ROOT" archive "$BEFORE" python/src | tar -x -C "$WORK"
  mv "$WORK/python/src" "$WORK/before-src"
fi
STEPS=$((UPDATES * 8192))
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "n/a"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
train() { # name src flags...
  name=$1 src=$2; shift 2
  out="$WORK/run-$name"
  rm -rf "$out"
  PYTHONPATH=$src "$PY" -m botarena.train --game battlebots --opponent huggy --config '{"hp_reward": 0.1}' \
    --threads 1 --minutes 0 --total-steps "$STEPS" --eval-games 0 --gauntlet-games 0 --checkpoint-every 0 \
    --quiet --out "$out" "$@" >/dev/null
  # curve.csv: update, env_steps, seconds, steps_per_s, ...
  tail -n +3 "$out/curve.csv" | cut -d, -f4 | tee -a "$WORK/$name.sps" | median
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  if [ -n "${CLEANRL:-}" ]; then
    PYTHONPATH=$ROOT/python/src "$PY" "$CLEANRL" num_envs=64 num_steps=128 threads=1 total_timesteps="$STEPS" |
      sed -n 's/^iteration \([0-9]*\) learner_steps_per_s \([0-9.]*\)$/\1 \2/p' | awk '$1 > 1 {print $2}' > "$WORK/cur.sps"
    cat "$WORK/cur.sps" >> "$WORK/cleanrl.sps"
    echo "round $r cleanrl $(median < "$WORK/cur.sps") (load $(cut -d' ' -f1 /proc/loadavg))"
  fi
  # shellcheck disable=SC2086
  [ "$BEFORE" = none ] || echo "round $r before $(train before "$WORK/before-src" $BEFORE_FLAGS) (load $(cut -d' ' -f1 /proc/loadavg))"
  echo "round $r after $(train after "$ROOT/python/src") (load $(cut -d' ' -f1 /proc/loadavg))"
  # shellcheck disable=SC2086
  echo "round $r after-x $(train after-x "$ROOT/python/src" $AFTER_FLAGS) (load $(cut -d' ' -f1 /proc/loadavg))"
done
for name in cleanrl before after after-x; do
  [ -f "$WORK/$name.sps" ] && echo "median $name $(median < "$WORK/$name.sps") learner steps/s over $(wc -l < "$WORK/$name.sps") updates"
done
