#!/usr/bin/env bash
# bench/contention.sh: the Go pool under two competing busy loops, workers
# 1, 2 and auto side by side, interleaved (A, B, C, A, B, C, ...).
#
#   bash bench/contention.sh [ROUNDS] [OLD_COMMIT] > bench/DATE-contention.txt
#
# It builds the vecenv test binary (and, given OLD_COMMIT, the same binary
# at that commit, from `git archive`, for a before/after in the same run),
# starts two `yes > /dev/null` loops, runs ROUNDS rounds (default 5) of
# BenchmarkPool for a small pool (BattleBots, 16 envs) and a large one
# (Bomberman, 1024 envs) at workers=1, 2 and auto (at OLD_COMMIT, auto is
# its default: GOMAXPROCS workers), then kills the loops and
# runs one round without them. Every line carries the round, whether the
# loops ran, the binary and the load average when it started; summarize
# with `bash bench/contention.sh summary FILE` (median, min and max
# agent-steps/s per phase, binary and benchmark). Nothing asserts on timing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "summary" ]]; then
	awk '
	/^round [0-9]+ (busy|quiet) / {
		name = $6; sub(/-[0-9]+$/, "", name); key = $3 " " $4 " " name
		for (i = 7; i <= NF; i++) if ($i == "agent-steps/s") printf "%s\t%s\n", key, $(i-1)
	}' "${2:?summary needs the output file}" | awk -v width=80 -v vwidth=12 -f bench/median.awk
	exit 0
fi
rounds=${1:-5}
old=${2:-}
tmp=$(mktemp -d)
busy=()
cleanup() {
	for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
export GOFLAGS=${GOFLAGS:--buildvcs=false}

echo "# bench/contention.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo nogit)"
echo "# $(uname -srm); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); L2 $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo ?), L3 $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo ?)"
go test -c -o "$tmp/new.test" ./vecenv
bins=(new)
if [[ -n "$old" ]]; then
	mkdir "$tmp/old"
	git archive "$old" | tar -x -C "$tmp/old"
	# The same benchmarks at both commits: this tree's BenchmarkPool, less
	# the metric the old pool cannot give (workers=auto is then the old
	# default, GOMAXPROCS workers).
	grep -v 'StepWorkers' vecenv/bench_test.go >"$tmp/old/vecenv/bench_test.go"
	(cd "$tmp/old" && go test -c -o "$tmp/old.test" ./vecenv)
	bins=(old new)
	echo "# old = $old, new = the working tree"
fi

# regexp of one benchmark; benchtime
cases=(
	"^BenchmarkPool$/^battlebots$/^envs=16$/^workers=(1|2|auto)$;1s"
	"^BenchmarkPool$/^bomberman$/^envs=1024$/^workers=(1|2|auto)$;1s"
)
measure() { # label
	for c in "${cases[@]}"; do
		IFS=';' read -r re bt <<<"$c"
		for bin in "${bins[@]}"; do
			load=$(cut -d' ' -f1 /proc/loadavg)
			(cd vecenv && "$tmp/$bin.test" -test.run '^$' -test.bench "$re" -test.benchtime "${BENCHTIME:-$bt}") |
				{ grep '^Benchmark' || true; } | sed "s|^Benchmark|$1 $bin load=$load Benchmark|"
		done
	done
}
for _ in 1 2; do
	yes >/dev/null &
	busy+=($!)
done
echo "# two busy loops started: ${busy[*]}"
for r in $(seq 1 "$rounds"); do measure "round $r busy"; done
for pid in "${busy[@]}"; do kill "$pid"; done
busy=()
echo "# busy loops killed"
measure "round 1 quiet"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
