package battleships

import (
	"io/fs"

	"github.com/botarena/botarena/env"
	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
)

// Kit is what Battleships brings besides its envs, shared by every preset
// (the Kit of its registry entries): its methods give botarena's tools its
// built-in agents, training defaults, gauntlet, play flags, leaderboard
// fields, replay layout and picture legend. Each tool declares the
// interface it asks a kit for; docs/add-a-game.md lists them.
type Kit struct{}

// builtinAgents are the game's built-in agents ([Kit.Agents]).
var builtinAgents = []env.AgentInfo{
	{Name: "reference", Summary: "the Entelect 2017 reference bot (C# 1.2.1): even-column scan, shield and vertical double shot from the Destroyer",
		New: newReferenceAgent},
	{Name: "hunter", Summary: "probability-density hunting and targeting, special weapons when they pay, a shield over its last ship, a seeded non-touching fleet in learn placement",
		New: newHunterAgent},
	{Name: "admiral", Summary: "hunter's shooting with a searched fleet in learn placement: of many broad candidate fleets (touching, edge-weighted), one of the four that hunter's simulated targeting took longest to sink",
		New: newAdmiralAgent},
	{Name: "marksman", Summary: "admiral with the shield at a better moment: raised only once the opponent has hit one of its afloat ships and it can cover them all (the rule of the shield_mask config)",
		New: newMarksmanAgent},
	{Name: "gunner", Summary: "marksman that spends its energy: the diagonal cross (5 cells of one checkerboard colour) whenever it expects more hits than a single shot, at no energy price",
		New: newGunnerAgent},
}

// Agents returns the game's built-in agents.
func (Kit) Agents() []env.AgentInfo { return builtinAgents }

// Training returns the game's defaults for a trainer. The reward is
// shaped with the game's points (10 a hit, 30 a sunk ship, 100 the last):
// the terminal reward alone did not move in 15 minutes, points_reward 0.01
// learns (docs/training.md has the runs and their results).
func (Kit) Training() training.Defaults {
	return training.Defaults{
		Reference: "reference",
		Opponents: []string{"reference", "random"},
		Channels:  []int{32, 32}, Strides: []int{1, 1}, Hidden: 256, Config: map[string]any{"points_reward": 0.01},
	}
}

// Gauntlet returns the agents of the game's gauntlet: the built-in bots
// (hunter, admiral, the reference bot), the generic baselines and the
// committed policy, sampling as trained (7×7 only: battleships/small).
func (Kit) Gauntlet() []string {
	return []string{"hunter", "admiral", "reference", "random", "idle", "policy:policies/battleships-small.policy.safetensors?sample"}
}

// PlayFlags returns the `botarena play` flags that set a config field,
// by flag name: the field's JSON name.
func (Kit) PlayFlags() map[string]string { return map[string]string{"size": "size"} }

// Leaderboard adds each player's key and the counters the original's
// state.json shows to seat's leaderboard entry. It adds nothing for an env
// of another game or a seat out of range.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat >= Seats {
		return
	}
	p := g.Player(seat)
	field("key", string(rune('A'+seat)))
	field("points", p.Points)
	field("shots_fired", p.ShotsFired)
	field("shots_hit", p.ShotsHit)
	field("ships_remaining", p.ShipsRemaining())
	field("failed_placements", p.Failed)
}

// ReplayWriter makes the writer of one match's replay in the original's
// layout (see replay.go).
func (Kit) ReplayWriter(dir string, seats []env.Agent) func(e env.Env, round int) error {
	return newReplay(dir, seats)
}

// ReplayStates lists the full state of every round of a match folder the
// ReplayWriter wrote, in the order of the match.
func (Kit) ReplayStates(fsys fs.FS) ([]string, error) { return replayStates(fsys) }

// Legend returns the marks of the game's picture ([Game.Paint]).
func (Kit) Legend() []pic.LegendEntry { return pictureLegend }
