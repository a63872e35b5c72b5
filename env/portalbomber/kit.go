package portalbomber

import (
	"github.com/botarena/botarena/env"
	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
)

// Kit is what portal Bomberman brings besides its envs, shared by every
// preset (the Kit of its registry entries): its methods give botarena's
// tools its built-in agents, training defaults, gauntlet, leaderboard
// fields and picture legend. Each tool declares the interface it asks a
// kit for; docs/add-a-game.md lists them.
type Kit struct{}

// builtinAgents are the game's built-in agents ([Kit.Agents]).
var builtinAgents = []env.AgentInfo{
	{Name: "practice", Summary: "the UPE practice bot (AI.js): uniformly random over its 15 moves, never bombs", New: newAgent("practice", func() env.Agent { return &Practice{} })},
	{Name: "greedy", Summary: "escapes its own blasts, bombs soft blocks and the opponent, buys upgrades", New: newAgent("greedy", func() env.Agent { return &Greedy{} })},
	{Name: "raider", Summary: "greedy's economy, plus the hunt: closes in, bombs when the blast leaves the opponent no escape, checks its escapes against the opponent's replies, walks and shoots portal shortcuts", New: newAgent("raider", func() env.Agent { return &Raider{} })},
}

// Agents returns the game's built-in agents.
func (Kit) Agents() []env.AgentInfo { return builtinAgents }

// Training returns the game's defaults for a trainer.
func (Kit) Training() training.Defaults {
	return training.Defaults{
		Reference: "practice",
		Opponents: []string{"practice", "greedy", "random"},
		Channels:  []int{32, 32}, Strides: []int{1, 1}, Hidden: 256, Config: map[string]any{},
	}
}

// Gauntlet returns the agents of the game's gauntlet: the practice bot,
// greedy, the generic baselines and the committed policy, sampling as
// trained (the original 11×11 game only).
func (Kit) Gauntlet() []string {
	return []string{"raider", "practice", "greedy", "random", "idle", "policy:policies/portalbomber.policy.safetensors?sample"}
}

// Leaderboard adds each player's shop stats, as the state JSON carries
// them, and its invalid moves to seat's leaderboard entry. Score is coins;
// rounds (Result().Rounds) are the original's rounds, two moves each. It
// adds nothing for an env of another game or a seat out of range.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat >= Seats {
		return
	}
	p := g.Player(seat)
	field("coins", p.Coins)
	field("bomb_count", p.BombCount)
	field("bomb_range", p.BombRange)
	field("bomb_pierce", p.BombPierce)
	field("invalid", g.Invalid(seat))
}

// Legend returns the marks of the game's picture ([Game.Paint]).
func (Kit) Legend() []pic.LegendEntry { return pictureLegend }
