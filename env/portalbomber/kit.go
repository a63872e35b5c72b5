package portalbomber

import "github.com/botarena/botarena/env"

// kit is what portal Bomberman brings besides its envs, shared by every
// preset (see [env.Kit]).
var kit = &env.Kit{
	Legend: pictureLegend,
	Agents: []env.AgentInfo{
		{Name: "practice", Summary: "the UPE practice bot (AI.js): uniformly random over its 15 moves, never bombs", New: newAgent(func() env.Agent { return &Practice{} })},
		{Name: "greedy", Summary: "escapes its own blasts, bombs soft blocks and the opponent, buys upgrades", New: newAgent(func() env.Agent { return &Greedy{} })},
		{Name: "raider", Summary: "greedy's economy, plus the hunt: closes in, bombs when the blast leaves the opponent no escape, checks its escapes against the opponent's replies, walks and shoots portal shortcuts", New: newAgent(func() env.Agent { return &Raider{} })},
	},
	Reference: "practice",
	Opponents: []string{"practice", "greedy", "random"},
	// The gauntlet: the practice bot, greedy, the generic baselines and
	// the committed policy, sampling as trained (the original 11×11 game
	// only).
	Gauntlet: []string{"raider", "practice", "greedy", "random", "idle", "policy:policies/portalbomber.policy.safetensors?sample"},
	Training: env.Training{Channels: []int{32, 32}, Strides: []int{1, 1}, Hidden: 256, Config: map[string]any{}},
	// The leaderboard also shows each player's shop stats, as the state
	// JSON carries them. Score is coins; rounds (Result().Rounds) are the
	// original's rounds, two moves each.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat >= Seats {
			return nil
		}
		p := g.Player(seat)
		return []env.Field{{Name: "coins", Value: p.Coins}, {Name: "bomb_count", Value: p.BombCount}, {Name: "bomb_range", Value: p.BombRange},
			{Name: "bomb_pierce", Value: p.BombPierce}, {Name: "invalid", Value: g.Invalid(seat)}}
	},
}
