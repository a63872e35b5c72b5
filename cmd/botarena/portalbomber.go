package main

import (
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/portalbomber"
)

func init() {
	// The leaderboard also shows each player's shop stats, as the state
	// JSON carries them. Score is coins; rounds (Result().Rounds) are the
	// original's rounds, two moves each.
	extraFields["portalbomber"] = func(e env.Env, seat int) []field {
		g, ok := any(e).(*portalbomber.Game)
		if !ok || seat < 0 || seat >= portalbomber.Seats {
			return nil
		}
		p := g.Player(seat)
		return []field{{"coins", p.Coins}, {"bomb_count", p.BombCount}, {"bomb_range", p.BombRange}, {"bomb_pierce", p.BombPierce}, {"invalid", g.Invalid(seat)}}
	}
}
