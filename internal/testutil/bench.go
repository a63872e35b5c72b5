package testutil

import (
	"testing"

	"github.com/botarena/botarena/env"
)

// BenchAct runs b's loop over self-play of agents that newAgent makes, one
// per seat of e: each iteration asks every seat's agent for its action and
// steps e once; a finished game is Reset inline with the next seed, and the
// agents with it. It reports allocations, so that an agent's Act that
// allocates shows in the figures.
func BenchAct(b *testing.B, e env.Env, newAgent func() env.Agent) {
	n := e.Spec().Seats
	agents := make([]env.Agent, n)
	for s := range agents {
		agents[s] = newAgent()
	}
	actions, rewards := make([]int32, n), make([]float32, n)
	terminated, truncated := make([]bool, n), make([]bool, n)
	seed := uint64(0)
	reset := func() {
		seed++
		e.Reset(seed)
		for s, a := range agents {
			a.Reset(e, s, env.AgentSeed(seed, s))
		}
	}
	reset()
	b.ReportAllocs()
	for b.Loop() {
		if e.Done() {
			reset()
		}
		for s, a := range agents {
			actions[s] = a.Act(e, s)
		}
		e.Step(actions, rewards, terminated, truncated)
	}
}
