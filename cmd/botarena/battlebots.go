package main

import (
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots" // registers battlebots
)

func init() {
	// BattleBots' leaderboard also shows each bot's cell; score is its HP.
	extraFields["battlebots"] = func(e env.Env, seat int) []field {
		g, ok := any(e).(*battlebots.Game)
		if !ok || seat < 0 || seat > 1 {
			return nil
		}
		b := g.Bot(seat)
		return []field{{"hp", b.HP}, {"x", b.X}, {"y", b.Y}}
	}
	extraCommands = append(extraCommands, newTournamentCmd)
}
