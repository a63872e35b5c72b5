#!/usr/bin/env bash
# bench/device-scaling.sh: the scaling curve beyond two cores and the
# trainer's learner steps/s, in under 5 minutes, on a many-core machine
# (the 16-core GPU device machine).
#
#   bash bench/device-scaling.sh
#
# Writes one dated table, DATE-device-scaling.txt, into $OUT when set (the
# device tool's output folder) and into bench/ otherwise, and prints it.
#
# 1. The Go pool: BenchmarkScaling (vecenv) for Bomberman (4 seats, 5.3 KB
#    per agent) and BattleBots (2 seats, 2 KB), envs 1, 16, 256, 1024,
#    4096 and 16384, workers 1, 2, 4, 8, 16 and auto (the pool chooses;
#    workers-used is its last choice), SCALING_BENCHTIME each (default
#    0.3s), in two rounds interleaved by game. It uses bin/vecenv.test when
#    present (carried, built elsewhere with
#    `go test -c -o bin/vecenv.test ./vecenv`) and builds it with Go
#    otherwise.
# 2. The trainer: `python -m botarena.train` on BattleBots against huggy
#    for TRAIN_MINUTES (default 1) on the GPU when torch sees one, its
#    learner steps/s from curve.csv (median of the updates after the
#    first; the trainer steps a served pool, so that figure includes the
#    remote backend). It needs Python with torch and botarena's
#    dependencies (PY, default the repository's .venv, then python3) and
#    the server binary (BOTARENA_BIN, default bin/botarena; a stripped
#    build, `go build -ldflags='-s -w' -o bin/botarena ./cmd/botarena`,
#    fits the device tool's carry) or the Go toolchain; it is skipped, with
#    the reason in the table, when they are missing. With DEVICE_TRAINER=N
#    it runs bench/device-trainer.sh N instead (its three GPU
#    configurations, N updates each; keep N small to stay in 5 minutes).
# 3. Async from Python: `python -m botarena.bench --backend native` on
#    BattleBots, 1024 envs, synchronous step against send/recv in batches
#    of 256, 3 rounds of 3 s interleaved (the same as `--async-vs-sync
#    --rounds 3`, one line per run; the native library: BOTARENA_LIB,
#    default bin/libbotarena.so, 15 MB, or the Go toolchain; skipped
#    without Python).
#
# Every figure carries the load average when it was taken; nothing
# asserts on timing.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
outdir=${OUT:-$root/bench}
mkdir -p "$outdir"
table="$outdir/$(date -u +%Y-%m-%d)-device-scaling.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
log() { echo "$*" | tee -a "$table"; }
: >"$table"

log "# bench/device-scaling.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo nogit)"
log "# $(uname -srm); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
log "# caches: L2 $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo ?) per core, L3 $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo ?) (cpu0's); memory $(free -g 2>/dev/null | awk '/^Mem:/ {print $2 " GiB"}')"
log "# GPU: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1 || echo none)"
log "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. The scaling curve.
bin=$root/bin/vecenv.test
if [[ ! -x "$bin" ]]; then
	if command -v go >/dev/null; then
		bin=$tmp/vecenv.test
		GOFLAGS=${GOFLAGS:--buildvcs=false} go test -c -o "$bin" ./vecenv || bin=
	else
		bin=
	fi
fi
if [[ -z "$bin" ]]; then
	log "# scaling: skipped (no bin/vecenv.test and no Go toolchain to build it)"
else
	log "# scaling: BenchmarkScaling, benchtime ${SCALING_BENCHTIME:-0.3s}; columns: round, load, benchmark, iterations, ns/op, agent-steps/s, workers-used"
	for round in 1 2; do
		for game in bomberman battlebots; do
			load=$(cut -d' ' -f1 /proc/loadavg)
			(cd vecenv && "$bin" -test.run '^$' -test.bench "^BenchmarkScaling\$/^$game\$" -test.benchtime "${SCALING_BENCHTIME:-0.3s}" \
				-scaling.envs "${SCALING_ENVS:-1,16,256,1024,4096,16384}" -scaling.workers "${SCALING_WORKERS:-1,2,4,8,16,0}") 2>&1 |
				awk -v r="$round" -v l="$load" '/^BenchmarkScaling/ {
					ns = ""; sps = ""; used = ""
					for (i = 3; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "agent-steps/s") sps = $(i-1); if ($i == "workers-used") used = $(i-1) }
					printf "round %d load=%s %-60s %10s %14s ns/op %14s agent-steps/s %s workers-used\n", r, l, $1, $2, ns, sps, used
				}' | tee -a "$table"
		done
	done
	log "# scaling took $(($(date +%s) - start)) s"
fi

# 2. The trainer.
py=${PY:-}
if [[ -z "$py" ]]; then
	for c in "$root/.venv/bin/python" python3; do
		if command -v "$c" >/dev/null && PYTHONPATH=$root/python/src "$c" -c 'import torch, botarena.train' 2>/dev/null; then
			py=$c
			break
		fi
	done
fi
export BOTARENA_BIN=${BOTARENA_BIN:-$root/bin/botarena}
if [[ -n "${DEVICE_TRAINER:-}" && -f bench/device-trainer.sh ]]; then
	log "# trainer: bench/device-trainer.sh $DEVICE_TRAINER, load=$(cut -d' ' -f1 /proc/loadavg)"
	PY=${py:-python3} sh bench/device-trainer.sh "$DEVICE_TRAINER" 2>&1 | tee -a "$table"
elif [[ -z "$py" ]]; then
	log "# trainer: skipped (no Python with torch and botarena's dependencies; set PY)"
elif [[ ! -x "$BOTARENA_BIN" ]] && ! command -v go >/dev/null; then
	log "# trainer: skipped (no $BOTARENA_BIN and no Go toolchain to build it)"
else
	[[ -x "$BOTARENA_BIN" ]] || unset BOTARENA_BIN # a source checkout builds it
	device=$(PYTHONPATH=$root/python/src "$py" -c 'import torch; print("cuda" if torch.cuda.is_available() else "cpu")')
	load=$(cut -d' ' -f1 /proc/loadavg)
	if PYTHONPATH=$root/python/src timeout $((${TRAIN_MINUTES:-1} * 60 + 90)) "$py" -m botarena.train --game battlebots --opponent huggy \
		--minutes "${TRAIN_MINUTES:-1}" --device "$device" --eval-games 0 --gauntlet-games 0 --checkpoint-every 0 \
		--quiet --out "$tmp/run" >"$tmp/train.log" 2>&1; then
		sps=$(tail -n +3 "$tmp/run/curve.csv" | cut -d, -f4 | sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "n/a"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}')
		log "trainer battlebots vs huggy, device $device, ${TRAIN_MINUTES:-1} min, load=$load: median $sps learner steps/s over $(($(wc -l <"$tmp/run/curve.csv") - 2)) updates after the first"
	else
		log "# trainer: failed (load=$load); the last lines of its output:"
		tail -n 5 "$tmp/train.log" | sed 's/^/#   /' | tee -a "$table"
	fi
fi
# 3. Async against sync from Python, native backend.
if [[ -n "$py" ]]; then
	[[ -f "${BOTARENA_LIB:-$root/bin/libbotarena.so}" ]] && export BOTARENA_LIB=${BOTARENA_LIB:-$root/bin/libbotarena.so}
	for round in 1 2 3; do
		for bs in 0 256; do
			extra=()
			[[ $bs != 0 ]] && extra=(--batch-size "$bs")
			load=$(cut -d' ' -f1 /proc/loadavg)
			res=$(PYTHONPATH=$root/python/src timeout 60 "$py" -m botarena.bench --backend native --game battlebots --envs 1024 --seconds 3 "${extra[@]}" --json 2>&1 | tail -1)
			log "python round $round load=$load batch=$bs $res"
		done
	done
else
	log "# python async: skipped (no Python with botarena's dependencies)"
fi
log "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg); took $(($(date +%s) - start)) s"
echo "wrote $table" >&2
