package testutil

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// RandomLegal returns an action drawn uniformly by rng from those mask
// allows (mask[a] != 0): the k-th allowed action in order, k =
// rng.IntN(number allowed). It panics when mask allows none. It does not
// allocate.
func RandomLegal(rng *rand.Rand, mask []uint8) int32 {
	n := 0
	for _, m := range mask {
		if m != 0 {
			n++
		}
	}
	k := rng.IntN(n)
	for a, m := range mask {
		if m == 0 {
			continue
		}
		if k == 0 {
			return int32(a)
		}
		k--
	}
	panic("unreachable")
}

// RandomActive returns an action drawn uniformly by rng from those mask
// allows other than action 0 (the do-nothing every game has), or 0 when
// mask allows no other: the k-th such action in order, k = rng.IntN(their
// number, or 1 when there are none). It does not allocate.
func RandomActive(rng *rand.Rand, mask []uint8) int32 {
	n := 0
	for a, m := range mask {
		if a != 0 && m != 0 {
			n++
		}
	}
	k := rng.IntN(max(n, 1))
	for a, m := range mask {
		if a == 0 || m == 0 {
			continue
		}
		if k == 0 {
			return int32(a)
		}
		k--
	}
	return 0
}

// StepRandomly steps e up to steps times, each seat's action chosen by act
// from the seat's mask (written just before, seat after seat), and calls
// visit after every step. When a game ends, play stops if reset is nil;
// otherwise reset starts another game (before visit) and play goes on.
func StepRandomly(e env.Env, steps int, act func(seat int, mask []uint8) int32, reset, visit func()) {
	spec := e.Spec()
	n := spec.Seats
	mask := make([]uint8, spec.Actions)
	actions, rewards := make([]int32, n), make([]float32, n)
	terminated, truncated := make([]bool, n), make([]bool, n)
	for range steps {
		if e.Done() {
			return
		}
		for s := range n {
			e.WriteMask(s, mask)
			actions[s] = act(s, mask)
		}
		e.Step(actions, rewards, terminated, truncated)
		if reset != nil && e.Done() {
			reset()
		}
		visit()
	}
}
