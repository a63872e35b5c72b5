#!/usr/bin/env bash
# games/s of a BattleBots league (huggy nop sniper random idle, games played to
# the end): the local runner vs 1 vs 2 `botarena serve` processes on this
# machine (league run --servers), three rounds. See bench/README.md.
#
#   bench/league-servers.sh        (GAMES=2000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=bin/botarena
go build -o "$bin" ./cmd/botarena
games=${GAMES:-2000}
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
start() { # start serve process $1; its address goes into $addr
	"$bin" serve --addr 127.0.0.1:0 --log-level warn 2>"$tmp/serve$1.log" &
	pids+=($!)
	for _ in $(seq 100); do
		addr=$(sed -n 's/^botarena serve: listening on //p' "$tmp/serve$1.log")
		[ -n "$addr" ] && return
		sleep 0.05
	done
	echo "serve did not start" >&2; exit 1
}
start 1; a=$addr
start 2; b=$addr
league() { # label, extra flags...
	label=$1; shift
	dir="$tmp/lg-$RANDOM"
	"$bin" league init "$dir" --game battlebots --seed 1 >/dev/null
	for agent in huggy nop sniper random idle; do "$bin" league add "$dir" "$agent" "$agent"; done
	rate=$("$bin" league run "$dir" --games "$games" --png '' --json "$@" 2>/dev/null | tail -1 | sed 's/.*"games_per_second":\([0-9.]*\).*/\1/')
	printf '%-40s %8.0f games/s\n' "$label" "$rate"
}
for rep in 1 2 3; do
	league "local (workers = GOMAXPROCS)"
	league "1 server (batch 8, window 4)" --servers "$a"
	league "2 servers (batch 8, window 4)" --servers "$a,$b"
	league "1 server, batch 1, window 1" --servers "$a" --server-batch 1 --server-window 1
	league "2 servers, batch 32, window 2" --servers "$a,$b" --server-batch 32 --server-window 2
done
