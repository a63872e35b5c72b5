package battleships

import "github.com/botarena/botarena/env"

// kit is what Battleships brings besides its envs, shared by every preset
// (see [env.Kit]).
var kit = &env.Kit{
	Legend: pictureLegend,
	Agents: []env.AgentInfo{
		{Name: "reference", Summary: "the Entelect 2017 reference bot (C# 1.2.1): even-column scan, shield and vertical double shot from the Destroyer",
			New: newReferenceAgent},
		{Name: "hunter", Summary: "probability-density hunting and targeting, special weapons when they pay, a shield over its last ship, a seeded non-touching fleet in learn placement",
			New: newHunterAgent},
	},
	Reference: "reference",
	Opponents: []string{"reference", "random"},
	// The gauntlet: the reference bot, the generic baselines and the
	// committed policy, sampling as trained (7×7 only: battleships/small).
	Gauntlet: []string{"hunter", "reference", "random", "idle", "policy:policies/battleships-small.policy.safetensors?sample"},
	// Training shapes the reward with the game's points (10 a hit, 30 a
	// sunk ship, 100 the last): the terminal reward alone did not move in
	// 15 minutes, points_reward 0.01 learns (docs/training.md has the
	// runs and their results).
	Training: env.Training{Channels: []int{32, 32}, Strides: []int{1, 1}, Hidden: 256, Config: map[string]any{"points_reward": 0.01}},
	Flags: []env.Flag{
		{Name: "size", Field: "size", Usage: "map size: small (7), medium (10) or large (14)"},
	},
	// The leaderboard also shows each player's key and the counters the
	// original's state.json shows.
	Leaderboard: func(e env.Env, seat int) []env.Field {
		g, ok := e.(*Game)
		if !ok || seat < 0 || seat >= Seats {
			return nil
		}
		p := g.Player(seat)
		return []env.Field{{Name: "key", Value: string(rune('A' + seat))}, {Name: "points", Value: p.Points}, {Name: "shots_fired", Value: p.ShotsFired},
			{Name: "shots_hit", Value: p.ShotsHit}, {Name: "ships_remaining", Value: p.ShipsRemaining()}, {Name: "failed_placements", Value: p.Failed}}
	},
	Replay:       newReplay,
	ReplayStates: replayStates,
}
