package testutil

import (
	"math/rand/v2"
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

// ActionTable returns the action table of a game's BenchmarkStep (see
// [BenchStep]): 1<<14 actions, each drawn by draw from one generator, a
// PCG seeded (7, 7), so that every run of a benchmark plays the same
// actions.
func ActionTable(draw func(r *rand.Rand) int32) []int32 {
	r := rand.New(rand.NewPCG(7, 7))
	table := make([]int32, 1<<14)
	for i := range table {
		table[i] = draw(r)
	}
	return table
}

// BenchStep runs b's loop over e, the figure of a game's BenchmarkStep:
// each iteration steps e once with the next actions of table (seat after
// seat, cycling; its length must be a power of two), then, with obs,
// writes every seat's observation and mask (with rows, into a row per seat
// brought up to date by UpdateObs, as vecenv pools do; e must have it); a
// finished game is Reset inline with the next seed. It reports allocations,
// steps/s and agent-steps/s. It panics if table's length is not a power of
// two or rows is asked of an env without UpdateObs.
func BenchStep(b *testing.B, e env.Env, table []int32, obs, rows bool) {
	if len(table) == 0 || len(table)&(len(table)-1) != 0 {
		panic("testutil: BenchStep: the table's length must be a power of two")
	}
	var upd obsUpdater
	if rows {
		upd = e.(obsUpdater)
	}
	spec := e.Spec()
	n := spec.Seats
	buf := make([][][]byte, n)
	masks := make([][]uint8, n)
	for s := range n {
		buf[s] = spec.NewObsBuffers()
		masks[s] = make([]uint8, spec.Actions)
	}
	have := make([]uint64, n)
	actions, rewards := make([]int32, n), make([]float32, n)
	terminated, truncated := make([]bool, n), make([]bool, n)
	k, seed := 0, uint64(1)
	e.Reset(seed)
	b.ReportAllocs()
	for b.Loop() {
		for s := range n {
			actions[s] = table[k&(len(table)-1)]
			k++
		}
		e.Step(actions, rewards, terminated, truncated)
		if obs {
			for s := range n {
				if rows {
					have[s] = upd.UpdateObs(s, buf[s], have[s])
				} else {
					e.WriteObs(s, buf[s])
				}
				e.WriteMask(s, masks[s])
			}
		}
		if e.Done() {
			seed++
			e.Reset(seed)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
}

// obsUpdater is an env that brings a seat's observation row up to date
// (vecenv.ObsUpdater, which testutil may not import).
type obsUpdater interface {
	UpdateObs(seat int, dst [][]byte, have uint64) uint64
}
