package testgame

import (
	"fmt"
	"slices"

	"github.com/botarena/botarena/env"
)

// kit is everything testgame brings besides its envs (see [env.Kit]).
var kit = &env.Kit{
	Agents:    []env.AgentInfo{{Name: "steady", Summary: "always adds two, the most a seat can", New: newSteady}},
	Reference: "steady",
	Opponents: []string{"steady", "random"},
	// Gamma and EntCoef differ from the trainer's defaults (0.99, 0.01),
	// so that tests see them carried through.
	Training: env.Training{Channels: []int{8}, Strides: []int{1}, Hidden: 32, Config: map[string]any{"max_rounds": 3}, Gamma: 0.95, EntCoef: 0.02},
	// t and o are this game's console keys.
	ConsoleKeys: map[string]int32{"o": 1, "t": 2},
	ConsoleHelp: "0, 1 or 2 (the points to add), o for one, t for two",
	Flags:       []env.Flag{{Name: "seats", Field: "players", Usage: "number of seats", Int: true}},
	// The leaderboard also shows how far each seat is behind the leader.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat >= len(g.Scores) {
			return nil
		}
		return []env.Field{{Name: "behind", Value: slices.Max(g.Scores) - g.Scores[seat]}}
	},
}

func init() {
	env.Register(env.Entry{
		Name:    "testgame",
		Summary: "a test game",
		Rules: func(c env.Config) string {
			return fmt.Sprintf("# testgame\n\n%d players add up their actions.", c.(*Config).Players)
		},
		NewConfig: func() env.Config { return &Config{Players: 2} },
		New:       func(c env.Config) (env.Env, error) { return New(c.(*Config)) },
		Kit:       kit,
	})
}
