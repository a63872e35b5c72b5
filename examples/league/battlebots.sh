#!/usr/bin/env bash
# A 6-agent BattleBots league from a fresh clone: the built-in bots huggy, nop,
# sniper, random and idle, plus the Python example bot as an external
# command-line bot (when python3 is installed). Plays a round robin, prints
# the table and draws the ratings chart into the league directory.
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
	for agent in huggy nop sniper random idle; do
		"$bin" league add "$dir" "$agent" "$agent"
	done
	if command -v python3 >/dev/null; then
		"$bin" league add "$dir" pybot "cmd:python3 agents/examples/battlebots-python/bot.py" --tag example
	else
		# Without Python the sixth agent is a second random bot.
		"$bin" league add "$dir" random2 random
	fi
fi
"$bin" league run "$dir" --games "$games"
"$bin" league games "$dir" --last 5
