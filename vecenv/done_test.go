package vecenv_test

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// TestDoneMeansEverySeatOut: for every registered game, over random play,
// a Step after which the game is Done leaves every seat terminated or
// truncated (env.Env's Step contract: terminated when the game is over).
// A pool relies on it: it asks Done only once no learner seat is in play.
func TestDoneMeansEverySeatOut(t *testing.T) {
	eachGame(t, func(env.Env) bool { return true }, func(t *testing.T, game string, seed uint64) {
		e := testutil.NewEnv(t, game, seed)
		spec := e.Spec()
		n := spec.Seats
		rng := rand.New(rand.NewPCG(seed, 9))
		acts := make([]int32, n)
		rewards, term, trunc := make([]float32, n), make([]bool, n), make([]bool, n)
		for step := range 2000 {
			if e.Done() {
				e.Reset(rng.Uint64())
			}
			for s := range acts {
				acts[s] = int32(rng.IntN(spec.Actions))
			}
			e.Step(acts, rewards, term, trunc)
			if !e.Done() {
				continue
			}
			for s := range n {
				if !term[s] && !trunc[s] {
					t.Fatalf("seed %d step %d: Done, but seat %d neither terminated nor truncated", seed, step, s)
				}
			}
		}
	})
}
