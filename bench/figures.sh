#!/usr/bin/env bash
# bench/figures.sh: every figure of README.md's Performance table and of bench/README.md's current
# figures, with the peers beside them, in one interleaved run.
#
#   bash bench/figures.sh [ROUNDS] > bench/DATE-figures.txt
#   make bench-figures [ROUNDS=3]     # the same, then the summary, into bench/DATETIME-figures.txt
#   bash bench/figures.sh summary FILE   # the summary of a run's output
#
# Setup, before anything is measured (so that no compiler or pip runs while it measures): the Go
# test binaries, bin/botarena and the native library bin/libbotarena.so (BOTARENA_BIN and
# BOTARENA_LIB point every Python figure at them), and one virtual environment per peer that cannot
# share the checkout's .venv, made under $BENCH_VENVS (default bin/bench-venvs) the first time:
#   envpool    EnvPool (CartPole-v1, Pong-v5), pip install envpool
#   pufferlib  PufferLib's vectorization (pufferlib-core 3.0.5, the last release checked whose
#              vectorization needs no PyTorch: 3.0.8 requires torch, 3.0.20 torch==2.9.0, CUDA
#              builds from PyPI) over do-nothing envs of each game's observation size
#   pommerman  Pommerman FFA with the gym 0.10.5 it pins: pip installs gym==0.10.5, then Pommerman
#              from $POMMERMAN_SRC (a checkout of its sources) or from PyPI, where it is not
# A peer whose environment cannot be made or imported gets a "not measured" row saying why.
#
# Then ROUNDS rounds (default 3), each running every figure once, one after the other (A, B, C, A,
# B, C, ...), so that a shared machine's noise spreads over every figure instead of landing on one:
#   - the Go benchmarks, each line as Go prints it, prefixed by the round and followed by the load
#     average when it started (BenchmarkPool ÷ BenchmarkObsCopy at the same envs and 1 worker is the
#     pool's speed as a share of copying its output, per game);
#   - bench/backends.py with the checkout's .venv: the Go pool (botarena bench), the native and
#     remote backends, native async against sync (batches of 16 and 256), one-env latency, and
#     Gymnasium's vector envs; then each peer's environment (backends.py --peer);
#   - the trainer's learner steps/s (bench/trainer-bench.sh, this checkout's trainer, plain and
#     with --bf16 --overlap; TRAIN_UPDATES updates, default 4) with $TRAIN_PY (default .venv's
#     Python), which needs PyTorch (make train-venv).
# Every Python figure is one line "python {json}". The summary (median, min and max over the rounds
# of each Go benchmark's agent-steps/s or ns/op, then the Python figures' table from
# bench/backends.py --table) is what README.md and bench/README.md quote. Nothing here asserts on
# timing; the load average is printed at the start and the end.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "summary" ]]; then
	# Median, min, max of the main metric of each benchmark over the rounds.
	awk '
	/^round [0-9]+ Benchmark/ {
		name = $3; sub(/-[0-9]+$/, "", name)
		metric = ""; unit = ""
		for (i = 4; i <= NF; i++) if ($i == "agent-steps/s") { metric = $(i-1); unit = "agent-steps/s" }
		if (metric == "") for (i = 4; i <= NF; i++) if ($i == "ns/op") { metric = $(i-1); unit = "ns/op" }
		if (metric != "") printf "%s\t%s\t%s\n", name, metric, unit
	}' "${2:?summary needs the output file}" | awk -f bench/median.awk
	echo
	python=.venv/bin/python
	[[ -x $python ]] || python=python3
	"$python" bench/backends.py --table "$2"
	exit 0
fi

rounds=${1:-3}
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
export GOFLAGS=${GOFLAGS:--buildvcs=false}

echo "# bench/figures.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo nogit)"
echo "# $(uname -srm); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "# caches (cpu0): L2 $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo ?), L3 $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo ?) (on a VM, the L3 the host reports; neighbours share it)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# building test binaries and bin/botarena ..." >&2
for pkg in env/bomberman vecenv observations rpc/envservice; do
	go test -c -o "$bindir/$(echo "$pkg" | tr / _).test" "./$pkg"
done
go build -o bin/botarena ./cmd/botarena
CGO_ENABLED=1 go build -buildmode=c-shared -o bin/libbotarena.so ./cmd/libbotarena
export BOTARENA_BIN=$PWD/bin/botarena BOTARENA_LIB=$PWD/bin/libbotarena.so

# peer_venv NAME STEP...: makes $BENCH_VENVS/NAME and runs pip install STEP (each STEP a list of
# requirements, one pip install after another), once: a venv whose steps all passed is kept. When a
# step fails it prints why on stdout (pip's first ERROR line; the whole output is in NAME.log).
venvs=${BENCH_VENVS:-bin/bench-venvs}
peer_venv() {
	local name=$1 dir=$venvs/$1 step
	shift
	[[ -f $dir/.installed ]] && return 0
	mkdir -p "$venvs"
	[[ -x $dir/bin/python ]] || python3 -m venv "$dir" >"$venvs/$name.log" 2>&1 || {
		echo "# $name environment: python3 -m venv failed: $(tail -n1 "$venvs/$name.log")"
		return 0
	}
	for step in "$@"; do
		echo "# the $name environment ($dir): pip install $step" >&2
		# shellcheck disable=SC2086 # each step is a list of requirements
		if ! "$dir/bin/python" -m pip install $step >>"$venvs/$name.log" 2>&1; then
			echo "# $name environment: pip install $step failed: $(grep -m1 '^ERROR' "$venvs/$name.log" || tail -n1 "$venvs/$name.log")"
			return 0
		fi
	done
	touch "$dir/.installed"
}
peer_venv envpool 'envpool>=1.2.5 gymnasium>=1.1 numpy'
peer_venv pufferlib 'pufferlib-core==3.0.5 gymnasium>=1.1 numpy'
peer_venv pommerman 'gym==0.10.5 gymnasium>=1.1 numpy' "${POMMERMAN_SRC:-pommerman}"
python=.venv/bin/python
train_py=${TRAIN_PY:-$python}

# package binary; benchmark regexp; benchtime
benches=(
	"env_bomberman;^BenchmarkStep$/^bomberman(_rows|_sim_only)?$;2s"
	"vecenv;^BenchmarkPool$//^envs=1024$/^workers=(2|auto)$;2s"
	"vecenv;^BenchmarkPool$//^envs=(1024|4096)$/^workers=1$;1s"
	"vecenv;^BenchmarkObsCopy$//^envs=(1024|4096)$/^workers=1$;1s"
	"vecenv;^BenchmarkPool$/^(bomberman|battlebots)$/^envs=(1|16|256)$/^workers=(1|2|auto)$;1s"
	"vecenv;^BenchmarkPool$/^bomberman$/^envs=4096$/^workers=(2|auto)$;1s"
	"observations;^BenchmarkEncode$/^bomberman$/^envs=1024$;2s"
	"rpc_envservice;^BenchmarkServedStep$/^bomberman$;2s"
	"rpc_envservice;^BenchmarkRPCStep$/^bomberman$/^envs=(1|1024)$;3s"
	"rpc_envservice;^BenchmarkRPCStepRaw$/^bomberman$/^envs=1024$;3s"
	"rpc_envservice;^BenchmarkRPCStepStream$/^bomberman$/^envs=(1|1024)$;2s"
)
# python_rows CMD...: the figure rows (JSON lines) CMD prints, each as "python {json}".
python_rows() { "$@" | grep '^{' | sed 's/^/python /'; }
seconds=${SECONDS_PER_FIGURE:-4}
for r in $(seq 1 "$rounds"); do
	echo "# round $r: Go benchmarks" >&2
	for b in "${benches[@]}"; do
		IFS=';' read -r bin re bt <<<"$b"
		(cd "$(echo "$bin" | tr _ /)" && "$bindir/$bin.test" -test.run '^$' -test.bench "$re" -test.benchtime "${BENCHTIME:-$bt}" -test.benchmem) |
			grep '^Benchmark' | sed "s/^/round $r /; s/\$/ load=$(cut -d' ' -f1 /proc/loadavg)/"
	done
	if [[ ! -x $python ]]; then
		echo "# no .venv (make venv): Python figures skipped"
		continue
	fi
	echo "# round $r: bench/backends.py (Go pool, both backends, async, one env, Gymnasium)" >&2
	python_rows "$python" bench/backends.py --bin bin/botarena --round $((r - 1)) --rounds 1 --seconds "$seconds" --peer-modules gymnasium
	for peer in envpool pufferlib pommerman; do
		echo "# round $r: $peer" >&2
		py=$venvs/$peer/bin/python
		[[ -f $venvs/$peer/.installed ]] || py=$python # its row then says why it is not measured
		python_rows "$py" bench/backends.py --peer "$peer" --round $((r - 1)) --rounds 1 --seconds "$seconds"
	done
	echo "# round $r: the trainer" >&2
	if "$train_py" -c 'import torch' 2>/dev/null; then
		BEFORE=none AFTER_FLAGS='--bf16 --overlap' PY=$train_py sh bench/trainer-bench.sh 1 "${TRAIN_UPDATES:-4}" |
			awk -v r=$((r - 1)) '$1 == "round" && $4 != "n/a" {
				printf "python {\"game\": \"battlebots\", \"figure\": \"trainer_%s\", \"learner_steps_per_sec\": %s, \"round\": %d}\n", $3, $4, r }'
	else
		for f in trainer_after trainer_after-x; do
			echo "python {\"game\": \"battlebots\", \"figure\": \"$f\", \"not_measured\": \"no PyTorch in $train_py (make train-venv, or set TRAIN_PY)\", \"round\": $((r - 1))}"
		done
	fi
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
