package battlebots

import "github.com/botarena/botarena/env"

// kit is what BattleBots brings besides its envs, shared by every preset
// (see [env.Kit]).
var kit = &env.Kit{
	Legend: pictureLegend,
	Agents: []env.AgentInfo{
		{Name: "nop", Summary: "the original's Nop.java: always prints NO", New: newAgent("nop", func() env.Agent { return Nop{} })},
		{Name: "huggy", Summary: "the original's huggy.py: walks toward the enemy, then sends P (EMP) every round once adjacent", New: newAgent("huggy", func() env.Agent { return Huggy{} })},
		{Name: "sniper", Summary: "keeps its distance, dodges projectiles in flight, and fires missiles along rows, columns and diagonals", New: newAgent("sniper", func() env.Agent { return Sniper{} })},
		{Name: "duelist", Summary: "looks one round ahead against every enemy action, predicts the enemy with opponent models scored on its past actions, seeded tie-breaks", New: newAgent("duelist", func() env.Agent { return &Duelist{} })},
	},
	// Training's default opponent is sniper, not the original's example bot
	// huggy.py: huggy loses to random and to idle (every game of `botarena
	// tournament battlebots --agents huggy,sniper,nop,random,idle`), so
	// beating it proves nothing; sniper beats all four, every game.
	Reference: "sniper",
	Opponents: []string{"huggy", "sniper", "nop"},
	// The gauntlet: the built-in bots (nop is the idle one), random, and
	// the three committed policies (against huggy, against sniper,
	// against all three), sampling as trained.
	Gauntlet: []string{"duelist", "huggy", "sniper", "nop", "random",
		"policy:policies/battlebots.policy.safetensors?sample",
		"policy:policies/battlebots-sniper.policy.safetensors?sample",
		"policy:policies/battlebots-all.policy.safetensors?sample",
		"policy:policies/battlebots-league.policy.safetensors?sample"},
	// hp_reward 0.1: the shaping of every run that learned to beat sniper
	// (docs/training.md); evaluation plays the unshaped game.
	Training: env.Training{Channels: []int{16, 32}, Strides: []int{1, 2}, Hidden: 256, Config: map[string]any{"hp_reward": 0.1}},
	// The original had no console players; the console takes its command
	// lines.
	ConsoleHelp: "NO, a move N NE E SE S SW W NW, B/M/L and a direction (bullet, missile, landmine: B SE), or P (EMP)",
	// The leaderboard also shows each bot's cell; score is its HP.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat > 1 {
			return nil
		}
		b := g.Bot(seat)
		return []env.Field{{Name: "hp", Value: b.HP}, {Name: "x", Value: b.X}, {Name: "y", Value: b.Y}}
	},
}
