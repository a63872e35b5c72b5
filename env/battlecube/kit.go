package battlecube

import "github.com/botarena/botarena/env"

// kit is what Battle³ brings besides its envs, shared by every preset (see
// [env.Kit]).
var kit = &env.Kit{
	Legend: pictureLegend,
	Agents: []env.AgentInfo{
		{Name: "dumb", Summary: "the original example_bots/dumb-bot.js: random move (staying in the cube), NOOP or bomb anywhere",
			New: newAgent(func() env.Agent { return NewDumb() })},
		{Name: "teebot", Summary: "the original example_bots/teebot.js with its default parameters: flee to the most open cell, bomb the most boxed-in bots",
			New: newAgent(func() env.Agent { return NewTeebot(DefaultTeebotParams()) })},
		{Name: "stalker", Summary: "hunts: predicts each bot (teebot's own planner, or staying) and bombs its next cell, dodges every cell a bot may bomb or reach, fills every task of a cycle",
			New: newAgent(func() env.Agent { return NewStalker() })},
	},
	Reference: "teebot",
	Opponents: []string{"teebot", "dumb", "random"},
	// The gauntlet: the original's example bots, the generic baselines
	// and the committed policy, sampling as trained (trained on 2 players,
	// it plays every 8×8×8 cube).
	Gauntlet: []string{"stalker", "teebot", "dumb", "random", "idle", "policy:policies/battlecube-2p.policy.safetensors?sample"},
	// Training's entropy coefficient is low: with 0.01 (the trainer's
	// default) the policy over 500 actions stayed broad and a sampled
	// step out of the cube or into a bomb lost 14–16% of the games;
	// 0.001 wins 90.8% (docs/training.md).
	Training: env.Training{Channels: []int{16, 32}, Strides: []int{1, 2}, Hidden: 256, Config: map[string]any{}, EntCoef: 0.001},
	Flags: []env.Flag{
		{Name: "edge", Field: "edge", Usage: "cube edge length (edgeLength)", Int: true},
		{Name: "max-ticks", Field: "max_ticks", Usage: "tick limit (maxNumOfTicks)", Int: true},
		{Name: "tasks-per-tick", Field: "tasks_per_tick", Usage: "tasks per reply (numOfTasksPerTick)", Int: true},
	},
	// The leaderboard also shows the loss cause and the invalid replies.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat >= g.Players() {
			return nil
		}
		p := g.Player(seat)
		cause := ""
		if p.Lost {
			cause = p.Cause.String()
		}
		return []env.Field{{Name: "cause", Value: cause}, {Name: "invalid", Value: g.Invalid(seat)}}
	},
}
