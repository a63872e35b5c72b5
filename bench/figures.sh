#!/usr/bin/env bash
# bench/figures.sh: every figure of README.md's Performance table, in one run.
#
#   bash bench/figures.sh [ROUNDS] > bench/DATE-figures.txt
#   make bench-figures [ROUNDS=3]     # the same, then the summary, into bench/DATETIME-figures.txt
#
# It builds the test binaries and the server first (so that no compiler runs
# while it measures), then runs ROUNDS rounds (default 3) of the same list of
# Go benchmarks, one after the other in every round (A, B, C, A, B, C, ...):
# a shared machine's noise then spreads over every figure instead of landing
# on one. Each benchmark line is printed as Go prints it, prefixed by the
# round and followed by the load average when its benchmark started
# (BenchmarkPool ÷ BenchmarkObsCopy at the same envs and 1 worker is the
# pool's speed as a share of copying its output, per game); summarize with `bash bench/figures.sh summary FILE` (median, min and
# max of each benchmark's agent-steps/s or ns/op over the rounds). The
# Python figures (remote and native backends, one-env latency) follow, from
# bench/backends.py. Nothing here asserts on timing; figures go to
# bench/README.md with the machine, the date and the load average printed at
# the start and the end.
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
		if (metric == "") next
		if (!(name in n)) order[++k] = name
		v[name, ++n[name]] = metric + 0; u[name] = unit
	}
	END {
		for (j = 1; j <= k; j++) {
			name = order[j]; m = n[name]
			for (a = 1; a <= m; a++) s[a] = v[name, a]
			for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
			med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
			printf "%-70s %14.0f  (%.0f .. %.0f, %d rounds) %s\n", name, med, s[1], s[m], m, u[name]
		}
	}' "${2:?summary needs the output file}"
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
	"rpc_envservice;^BenchmarkRPCStepStream$/^bomberman$/^envs=1$;2s"
)
for r in $(seq 1 "$rounds"); do
	for b in "${benches[@]}"; do
		IFS=';' read -r bin re bt <<<"$b"
		(cd "$(echo "$bin" | tr _ /)" && "$bindir/$bin.test" -test.run '^$' -test.bench "$re" -test.benchtime "${BENCHTIME:-$bt}" -test.benchmem) |
			grep '^Benchmark' | sed "s/^/round $r /; s/\$/ load=$(cut -d' ' -f1 /proc/loadavg)/"
	done
done
echo "# Python: bench/backends.py (Go pool, native and remote backends, one env), $rounds rounds" >&2
if [[ -x .venv/bin/python ]]; then
	.venv/bin/python bench/backends.py --bin bin/botarena --rounds "$rounds" --seconds 4 | sed 's/^/python /'
else
	echo "# no .venv (make venv): Python figures skipped"
fi
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
