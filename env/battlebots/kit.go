package battlebots

import (
	"github.com/botarena/botarena/env"
	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
)

// Kit is what BattleBots brings besides its envs, shared by every preset
// (the Kit of its registry entries): its methods give botarena's tools its
// built-in agents, training defaults, gauntlet, console help, leaderboard
// fields and picture legend. Each tool declares the interface it asks a
// kit for; docs/add-a-game.md lists them.
type Kit struct{}

// builtinAgents are the game's built-in agents ([Kit.Agents]).
var builtinAgents = []env.AgentInfo{
	{Name: "nop", Summary: "the original's Nop.java: always prints NO", New: newAgent("nop", func() env.Agent { return Nop{} })},
	{Name: "huggy", Summary: "the original's huggy.py: walks toward the enemy, then sends P (EMP) every round once adjacent", New: newAgent("huggy", func() env.Agent { return Huggy{} })},
	{Name: "sniper", Summary: "keeps its distance, dodges projectiles in flight, and fires missiles along rows, columns and diagonals", New: newAgent("sniper", func() env.Agent { return Sniper{} })},
	{Name: "duelist", Summary: "looks one round ahead against every enemy action, predicts the enemy with opponent models scored on its past actions, seeded tie-breaks", New: newAgent("duelist", func() env.Agent { return &Duelist{} })},
	{Name: "gambit", Summary: "the duelist with an opening: walks the diagonal, fires a bullet when the enemy stands in line 2-3 cells away, steps off the line", New: newAgent("gambit", func() env.Agent { return &Gambit{} })},
	{Name: "warden", Summary: "a cautious duelist: while not behind, an HP lost costs it more than one taken; models its enemy as a duelist or a gambit; from seat 0 waits a round, then fires down the diagonal", New: newAgent("warden", func() env.Agent { return &Warden{} })},
	{Name: "tactician", Summary: "predicts its enemy by running quiet copies of duelist and warden in its seat beside simpler models weighted by their record, weighs each action one round ahead against that prediction, and looks past an EMP: freezes an enemy near a wall and splashes it with missiles; shoots an enemy that parks from 3 cells away", New: newAgent("tactician", func() env.Agent { return &Tactician{} })},
}

// Agents returns the game's built-in agents.
func (Kit) Agents() []env.AgentInfo { return builtinAgents }

// Training returns the game's defaults for a trainer. The default
// opponent is sniper, not the original's example bot huggy.py: huggy loses
// to random and to idle (every game of `botarena tournament battlebots
// --agents huggy,sniper,nop,random,idle`), so beating it proves nothing;
// sniper beats all four, every game. hp_reward 0.1 is the shaping of every
// run that learned to beat sniper (docs/training.md); evaluation plays the
// unshaped game.
func (Kit) Training() training.Defaults {
	return training.Defaults{
		Reference: "sniper",
		Opponents: []string{"huggy", "sniper", "nop"},
		Channels:  []int{16, 32}, Strides: []int{1, 2}, Hidden: 256, Config: map[string]any{"hp_reward": 0.1},
	}
}

// Gauntlet returns the agents of the game's gauntlet: the built-in bots
// (nop is the idle one; gambit is the duelist with an opening; warden the
// cautious duelist; tactician the bot that runs copies of them), random,
// and every committed policy (against huggy,
// against sniper, against all three, the league's, the duelist clone's,
// its run on against duelist, the run that learned gambit's opening and
// its run on from seat 0), sampling as trained.
func (Kit) Gauntlet() []string {
	return []string{"duelist", "gambit", "warden", "tactician", "huggy", "sniper", "nop", "random",
		"policy:policies/battlebots.policy.safetensors?sample",
		"policy:policies/battlebots-sniper.policy.safetensors?sample",
		"policy:policies/battlebots-all.policy.safetensors?sample",
		"policy:policies/battlebots-league.policy.safetensors?sample",
		"policy:policies/battlebots-duelist.policy.safetensors?sample",
		"policy:policies/battlebots-holdout.policy.safetensors?sample",
		"policy:policies/battlebots-gambit.policy.safetensors?sample",
		"policy:policies/battlebots-seat0.policy.safetensors?sample"}
}

// ConsoleKeys returns no keys, for the original had no console players,
// and the console's help: the console takes the original's command
// lines.
func (Kit) ConsoleKeys() (map[string]int32, string) {
	return nil, "NO, a move N NE E SE S SW W NW, B/M/L and a direction (bullet, missile, landmine: B SE), or P (EMP)"
}

// Leaderboard adds each bot's HP (also its score) and cell to seat's
// leaderboard entry. It adds nothing for an env of another game or a seat
// out of range.
func (Kit) Leaderboard(e env.Env, seat int, field func(name string, value any)) {
	g, ok := e.(*Game)
	if !ok || seat < 0 || seat > 1 {
		return
	}
	b := g.Bot(seat)
	field("hp", b.HP)
	field("x", b.X)
	field("y", b.Y)
}

// Legend returns the marks of the game's picture ([Game.Paint]).
func (Kit) Legend() []pic.LegendEntry { return pictureLegend }
