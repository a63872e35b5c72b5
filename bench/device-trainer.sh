#!/bin/sh
# Learner steps/s of botarena.train on a GPU machine, in under 5 minutes: BattleBots against huggy,
# the same network as bench/trainer-bench.sh (two 3×3 convolutions, 16 and 32 channels, 256 hidden
# units), the update included, with the rollout's envs in process (--device cuda picks
# --backend native). Three configurations, UPDATES updates each; the figure is the median learner
# steps/s over the updates after the first:
#
#   cuda        --device cuda, 64 envs × 128 steps (the CPU default's batch)
#   cuda-1024   --device cuda --num-envs 1024 --num-steps 64 (a GPU-sized batch, 4 minibatches)
#   cuda-bf16   cuda-1024 with --bf16
#
# Run from the repository root on the device machine (the run tool), e.g.
#   sh bench/device-trainer.sh 8 > "$OUT/device-trainer.txt"
# It builds bin/botarena and bin/libbotarena.so when they are missing (make build lib) and needs a
# Python with torch built for CUDA (PY, default python3) and botarena's Python requirements.
set -eu
UPDATES=${1:-8}
PY=${PY:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
[ -x bin/botarena ] && [ -f bin/libbotarena.so ] || make build lib >&2
export BOTARENA_BIN="$ROOT/bin/botarena" BOTARENA_LIB="$ROOT/bin/libbotarena.so" PYTHONPATH="$ROOT/python/src"
"$PY" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' || { echo "no CUDA device for torch" >&2; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, $("$PY" -c 'import torch; print(torch.cuda.get_device_name(0), "torch", torch.__version__)')"
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "n/a"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
run() { # name envs steps flags...
  name=$1 envs=$2 steps=$3; shift 3
  out=$(mktemp -d)
  timeout 90 "$PY" -m botarena.train --game battlebots --opponent huggy --config '{"hp_reward": 0.1}' --device cuda \
    --num-envs "$envs" --num-steps "$steps" --minutes 0 --total-steps $((UPDATES * envs * steps)) \
    --eval-games 0 --gauntlet-games 0 --checkpoint-every 0 --quiet --out "$out" "$@" >/dev/null || true
  if [ -f "$out/curve.csv" ]; then
    echo "$name $(tail -n +3 "$out/curve.csv" | cut -d, -f4 | median) learner steps/s ($(($(wc -l < "$out/curve.csv") - 1)) updates of $envs envs × $steps steps)"
  else
    echo "$name failed (no curve in 90 s)"
  fi
  rm -rf "$out"
}
run cuda 64 128
run cuda-1024 1024 64
run cuda-bf16 1024 64 --bf16
