package main

import (
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlecube"
)

func init() {
	for _, f := range []gameFlag{
		{Game: "battlecube", Name: "edge", Field: "edge", Usage: "cube edge length (edgeLength)", Int: true},
		{Game: "battlecube", Name: "max-ticks", Field: "max_ticks", Usage: "tick limit (maxNumOfTicks)", Int: true},
		{Game: "battlecube", Name: "tasks-per-tick", Field: "tasks_per_tick", Usage: "tasks per reply (numOfTasksPerTick)", Int: true},
	} {
		registerGameFlag(f)
	}
	// The leaderboard also shows the loss cause and the invalid replies.
	extraFields["battlecube"] = func(e env.Env, seat int) []field {
		g, ok := any(e).(*battlecube.Game)
		if !ok || seat < 0 || seat >= g.Players() {
			return nil
		}
		p := g.Player(seat)
		cause := ""
		if p.Lost {
			cause = p.Cause.String()
		}
		return []field{{"cause", cause}, {"invalid", g.Invalid(seat)}}
	}
}
