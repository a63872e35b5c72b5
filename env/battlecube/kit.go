package battlecube

import (
	"github.com/botarena/botarena/env"
	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
)

// Kit is what Battle³ brings besides its envs, shared by every preset (the
// Kit of its registry entries): its methods give botarena's tools its
// built-in agents, training defaults, gauntlet, play flags, leaderboard
// fields and picture legend. Each tool declares the interface it asks a
// kit for; docs/add-a-game.md lists them.
type Kit struct{}

// builtinAgents are the game's built-in agents ([Kit.Agents]).
var builtinAgents = []env.AgentInfo{
	{Name: "dumb", Summary: "the original example_bots/dumb-bot.js: random move (staying in the cube), NOOP or bomb anywhere",
		New: newAgent("dumb", func() env.Agent { return NewDumb() })},
	{Name: "teebot", Summary: "the original example_bots/teebot.js with its default parameters: flee to the most open cell, bomb the most boxed-in bots",
		New: newAgent("teebot", func() env.Agent { return NewTeebot(DefaultTeebotParams()) })},
	{Name: "stalker", Summary: "hunts: predicts each bot (teebot's own planner, or staying) and bombs its next cell, dodges every cell a bot may bomb or reach, fills every task of a cycle",
		New: newAgent("stalker", func() env.Agent { return NewStalker() })},
	{Name: "dodger", Summary: "for cycles of several tasks: steps off its cycle-start cell at the first task (away from every bot), then bombs the cells of bots standing still; plays as stalker with one task per tick",
		New: newAgent("dodger", func() env.Agent { return NewDodger() })},
}

// Agents returns the game's built-in agents.
func (Kit) Agents() []env.AgentInfo { return builtinAgents }

// Training returns the game's defaults for a trainer. The entropy
// coefficient is low: with 0.01 (the trainer's default) the policy over
// 500 actions stayed broad and a sampled step out of the cube or into a
// bomb lost 14–16% of the games; 0.001 wins 90.8% (docs/training.md).
func (Kit) Training() training.Defaults {
	return training.Defaults{
		Reference: "teebot",
		Opponents: []string{"teebot", "dumb", "random"},
		Channels:  []int{16, 32}, Strides: []int{1, 2}, Hidden: 256, Config: map[string]any{}, EntCoef: 0.001,
	}
}

// Gauntlet returns the agents of the game's gauntlet: the built-in
// stalker and dodger (which plays as stalker with one task per tick and
// is first in 99–100% of tasks3 cubes against three teebots), the
// original's example bots, the generic baselines and the committed
// policies, sampling as trained (each plays every 8×8×8 cube; those
// trained with history or tasks_scalar play beside the others in the
// config with those append-only fields raised, see `botarena tournament`).
func (Kit) Gauntlet() []string {
	return []string{"stalker", "dodger", "teebot", "dumb", "random", "idle",
		"policy:policies/battlecube-2p.policy.safetensors?sample",
		"policy:policies/battlecube-2p-duel.policy.safetensors?sample",
		"policy:policies/battlecube-4p.policy.safetensors?sample",
		"policy:policies/battlecube-4p-history.policy.safetensors?sample",
		"policy:policies/battlecube-4p-history2.policy.safetensors?sample",
		"policy:policies/battlecube-4p-distill.policy.safetensors?sample"}
}

// PlayFlags returns the `botarena play` flags that set a config field,
// by flag name: the field's JSON name.
func (Kit) PlayFlags() map[string]string {
	return map[string]string{"edge": "edge", "max-ticks": "max_ticks", "tasks-per-tick": "tasks_per_tick"}
}

// Leaderboard adds the loss cause and the invalid replies to seat's
// leaderboard entry. It adds nothing for an env of another game or a
// seat out of range.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat >= g.Players() {
		return
	}
	p := g.Player(seat)
	cause := ""
	if p.Lost {
		cause = p.Cause.String()
	}
	field("cause", cause)
	field("invalid", g.Invalid(seat))
}

// Legend returns the marks of the game's picture ([Game.Paint]).
func (Kit) Legend() []pic.LegendEntry { return pictureLegend }
