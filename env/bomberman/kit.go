package bomberman

import (
	"github.com/botarena/botarena/env"
	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
)

// Kit is what Bomberman brings besides its envs, shared by every preset
// (the Kit of its registry entries): its methods give botarena's tools its
// built-in agents, training defaults, gauntlet, console keys, leaderboard
// fields and picture legend. Each tool declares the interface it asks a
// kit for; docs/add-a-game.md lists them.
type Kit struct{}

// builtinAgents are the game's built-in agents ([Kit.Agents]).
var builtinAgents = []env.AgentInfo{
	{Name: "reference", Summary: "the Entelect 2016 reference bot (C# AStarStrategy), quirks included", New: newReferenceAgent},
	{Name: "hunter", Summary: "a built-in bot that simulates fuses and chain reactions, clears walls, takes power-ups and traps opponents", New: newHunterAgent},
	{Name: "harvester", Summary: "hunter that does not stalk opponents: it keeps clearing walls and visiting cells and beats hunter on points (about 2 games in 3)", New: newHarvesterAgent},
	{Name: "planner", Summary: "plans by simulating every player: short rollouts of each safe action on a copy of the game (harvester for itself; for each opponent hunter or harvester, whichever predicts its moves better), scored by points, power-ups and deaths", New: newPlannerAgent},
}

// Agents returns the game's built-in agents.
func (Kit) Agents() []env.AgentInfo { return builtinAgents }

// Training returns the game's defaults for a trainer.
func (Kit) Training() training.Defaults {
	return training.Defaults{
		Reference: "reference",
		Opponents: []string{"reference", "random"},
		Channels:  []int{16, 32}, Strides: []int{1, 2}, Hidden: 256,
		Config: map[string]any{"points_reward": 0.002},
	}
}

// Gauntlet returns the agents of the game's gauntlet: the reference bot,
// hunter, harvester and planner, the generic baselines and the committed policy,
// sampling as trained (trained on 2 players, it plays every 21×21 game:
// bomberman/2p and the 4-player default).
func (Kit) Gauntlet() []string {
	return []string{"reference", "hunter", "harvester", "planner", "random", "idle", "policy:policies/bomberman-2p.policy.safetensors?sample"}
}

// consoleKeys are the original's console controls: its console client
// told its players "To move, type a,w,s,d and press enter", "To plant a
// bomb, type z", "reduce the bomb timer to 1 using x".
var consoleKeys = map[string]int32{
	"w": int32(MoveUp), "a": int32(MoveLeft), "d": int32(MoveRight), "s": int32(MoveDown),
	"z": int32(PlaceBomb), "x": int32(TriggerBomb),
}

// ConsoleKeys returns the original's console keys and the console's help.
func (Kit) ConsoleKeys() (map[string]int32, string) {
	return consoleKeys, "w a s d move (up left down right), z plants a bomb, x triggers (sets your lowest bomb timer to 1), or a move.txt digit 0-6"
}

// Leaderboard adds each player's key ('A', 'B', ...) and visible points
// to seat's leaderboard entry, as the original's leaderboard shows them.
// It adds nothing for an env of another game or a seat out of range.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat >= g.Players() {
		return
	}
	p := g.Player(seat)
	field("key", string(rune(p.Key)))
	field("points", p.Points())
}

// Legend returns the marks of the game's picture ([Game.Paint]).
func (Kit) Legend() []pic.LegendEntry { return pictureLegend }
