package main

import (
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/bomberman"
)

func init() {
	// Bomberman's leaderboard also shows each player's key ('A', 'B', ...)
	// and visible points, as the original's does.
	extraFields["bomberman"] = func(e env.Env, seat int) []field {
		g, ok := any(e).(*bomberman.Game)
		if !ok || seat < 0 || seat >= g.Players() {
			return nil
		}
		p := g.Player(seat)
		return []field{{"key", string(rune(p.Key))}, {"points", p.Points()}}
	}
}
