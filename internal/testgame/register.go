package testgame

import (
	"fmt"
	"slices"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/training"
)

// Kit is everything testgame brings besides its envs, the Kit of its
// registry entry: it implements every interface botarena's tools ask a
// kit for (docs/add-a-game.md lists them), so that their tests see each
// part carried through.
type Kit struct{}

// kit is the Kit of the game's registry entry.
var kit = Kit{}

// Agents returns the game's one built-in agent.
func (Kit) Agents() []env.AgentInfo {
	return []env.AgentInfo{{Name: "steady", Summary: "always adds two, the most a seat can", New: newSteady}}
}

// Training returns the game's training defaults. Gamma and EntCoef differ
// from the trainer's defaults (0.99, 0.01), so that tests see them carried
// through.
func (Kit) Training() training.Defaults {
	return training.Defaults{Reference: "steady", Opponents: []string{"steady", "random"},
		Channels: []int{8}, Strides: []int{1}, Hidden: 32, Config: map[string]any{"max_rounds": 3}, Gamma: 0.95, EntCoef: 0.02}
}

// ConsoleKeys returns the game's console keys, t and o.
func (Kit) ConsoleKeys() (map[string]int32, string) {
	return map[string]int32{"o": 1, "t": 2}, "0, 1 or 2 (the points to add), o for one, t for two"
}

// PlayFlags returns the game's one play flag, --seats.
func (Kit) PlayFlags() map[string]string { return map[string]string{"seats": "players"} }

// Leaderboard adds how far seat is behind the leader.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat >= len(g.Scores) {
		return
	}
	field("behind", slices.Max(g.Scores)-g.Scores[seat])
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
