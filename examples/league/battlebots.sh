#!/usr/bin/env bash
# A 6-agent BattleBots league from a fresh clone: the built-in bots huggy, nop,
# sniper and random, plus two neural snapshots of one self-play training run
# (examples/league/policies: made by `python -m botarena.train --game battlebots
# --self-play --channels 8,16 --hidden 64`, after 8 and 52 updates), played by
# Go's forward pass as policy:PATH?sample. Plays a round robin, prints the
# table and draws the ratings chart into the league directory.
#
#   examples/league/battlebots.sh [DIR] [GAMES]     (default: leagues/battlebots, 120)
#
# Run it again to add another run of GAMES games to the same league.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-leagues/battlebots}
games=${2:-120}
bin=bin/botarena
go build -o "$bin" ./cmd/botarena

if [ ! -e "$dir/league.db" ]; then
	"$bin" league init "$dir" --game battlebots --seed 1
	for agent in huggy nop sniper random; do
		"$bin" league add "$dir" "$agent" "$agent"
	done
	policies=$(pwd)/examples/league/policies
	"$bin" league add "$dir" snap_008 "policy:$policies/battlebots-snap-008.safetensors?sample" --tag "self-play, 65k steps"
	"$bin" league add "$dir" snap_052 "policy:$policies/battlebots-snap-052.safetensors?sample" --tag "self-play, 426k steps"
fi
"$bin" league run "$dir" --games "$games"
"$bin" league games "$dir" --last 5
