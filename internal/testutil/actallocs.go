package testutil

import (
	"testing"

	"github.com/botarena/botarena/env"
)

// ActAllocs returns the allocations per round, as [testing.AllocsPerRun]
// counts them over runs rounds, of e played by seats (one agent a seat):
// each round every agent acts and e steps, and when e is Done reset starts
// the next game (e and the agents). The caller resets e and the agents
// before the first round.
func ActAllocs(e env.Env, seats []env.Agent, runs int, reset func()) float64 {
	n := e.Spec().Seats
	actions, rewards := make([]int32, n), make([]float32, n)
	terminated, truncated := make([]bool, n), make([]bool, n)
	return testing.AllocsPerRun(runs, func() {
		if e.Done() {
			reset()
		}
		for seat, a := range seats {
			actions[seat] = a.Act(e, seat)
		}
		e.Step(actions, rewards, terminated, truncated)
	})
}
