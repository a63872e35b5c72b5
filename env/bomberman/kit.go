package bomberman

import "github.com/botarena/botarena/env"

// kit is what Bomberman brings besides its envs, shared by every preset
// (see [env.Kit]).
var kit = &env.Kit{
	Legend: pictureLegend,
	Agents: []env.AgentInfo{
		{Name: "reference", Summary: "the Entelect 2016 reference bot (C# AStarStrategy), quirks included", New: newReferenceAgent},
		{Name: "hunter", Summary: "a built-in bot that simulates fuses and chain reactions, clears walls, takes power-ups and traps opponents", New: newHunterAgent},
	},
	Reference: "reference",
	Opponents: []string{"reference", "random"},
	// The gauntlet: the reference bot, the generic baselines and the
	// committed policy, sampling as trained (trained on 2 players, it
	// plays every 21×21 game: bomberman/2p and the 4-player default).
	Gauntlet: []string{"reference", "hunter", "random", "idle", "policy:policies/bomberman-2p.policy.safetensors?sample"},
	Training: env.Training{
		Channels: []int{16, 32}, Strides: []int{1, 2}, Hidden: 256,
		Config: map[string]any{"points_reward": 0.002},
	},
	// The original's console client told its players "To move, type
	// a,w,s,d and press enter", "To plant a bomb, type z", "reduce the bomb
	// timer to 1 using x".
	ConsoleKeys: map[string]int32{
		"w": int32(MoveUp), "a": int32(MoveLeft), "d": int32(MoveRight), "s": int32(MoveDown),
		"z": int32(PlaceBomb), "x": int32(TriggerBomb),
	},
	ConsoleHelp: "w a s d move (up left down right), z plants a bomb, x triggers (sets your lowest bomb timer to 1), or a move.txt digit 0-6",
	// The leaderboard also shows each player's key ('A', 'B', ...) and
	// visible points, as the original's does.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat >= g.Players() {
			return nil
		}
		p := g.Player(seat)
		return []env.Field{{Name: "key", Value: string(rune(p.Key))}, {Name: "points", Value: p.Points()}}
	},
}
