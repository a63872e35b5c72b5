package agents

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

func init() {
	Register("idle", "always does nothing (action 0)", func(*env.Spec) (env.Agent, error) { return Idle{}, nil })
	Register("random", "uniformly random among the legal actions", func(spec *env.Spec) (env.Agent, error) {
		return NewRandom(spec), nil
	})
}

// Idle is the agent that always does nothing (action 0). It has no state, so
// one value may serve any number of seats.
type Idle struct{}

// Reset does nothing.
func (Idle) Reset(env.Env, int, uint64) {}

// Act returns 0, the do-nothing action.
func (Idle) Act(env.Env, int) int32 { return 0 }

// Random picks uniformly among the actions [env.Env.WriteMask] marks legal,
// with its own PCG generator seeded in Reset. It is not safe for concurrent
// use; Act does not allocate.
type Random struct {
	pcg  rand.PCG
	rng  *rand.Rand
	mask []uint8
}

// NewRandom returns a Random agent for envs of spec, seeded with 0 until
// Reset.
func NewRandom(spec *env.Spec) *Random {
	a := &Random{mask: make([]uint8, spec.Actions)}
	a.rng = rand.New(&a.pcg)
	return a
}

// randomStream is the PCG stream constant of Random (any odd-looking value;
// it only has to stay fixed for reproducibility).
const randomStream = 0x5851f42d4c957f2d

// Reset seeds the generator with seed.
func (a *Random) Reset(_ env.Env, _ int, seed uint64) { a.pcg.Seed(seed, randomStream) }

// Act returns a uniformly random legal action of seat. It panics if e's
// action count differs from the spec the agent was made for.
func (a *Random) Act(e env.Env, seat int) int32 {
	e.WriteMask(seat, a.mask)
	n := 0
	for _, m := range a.mask {
		if m != 0 {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	k := a.rng.IntN(n)
	for i, m := range a.mask {
		if m != 0 {
			if k == 0 {
				return int32(i)
			}
			k--
		}
	}
	return 0
}
