package vecenv_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// TestObsUpdatersEqualWriteObs: for every registered game whose env
// implements vecenv.ObsUpdater, rows kept up to date with UpdateObs the way
// a pool keeps them equal WriteObs after every step and reset: rows that
// miss a step, rows updated twice, resets after the end of a game and in
// the middle of one, over random play. (Bomberman's own test goes deeper
// into its deltas.)
func TestObsUpdatersEqualWriteObs(t *testing.T) {
	for _, game := range env.Default.Names() {
		e, err := env.Make(game, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.(vecenv.ObsUpdater); !ok {
			continue
		}
		t.Run(game, func(t *testing.T) {
			for seed := range uint64(8) {
				checkObsUpdater(t, game, seed)
			}
		})
	}
}

func checkObsUpdater(t *testing.T, game string, seed uint64) {
	t.Helper()
	e, err := env.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(seed)
	u := e.(vecenv.ObsUpdater)
	spec := e.Spec()
	n := spec.Seats
	rng := rand.New(rand.NewPCG(seed, 5))
	rows := make([][][]byte, n)
	for s := range rows {
		rows[s] = spec.NewObsBuffers()
		for _, b := range rows[s] {
			for i := range b {
				b[i] = byte(rng.Uint32()) // garbage a full write must overwrite
			}
		}
	}
	have := make([]uint64, n)
	want := spec.NewObsBuffers()
	acts := make([]int32, n)
	rewards, term, trunc := make([]float32, n), make([]bool, n), make([]bool, n)
	for step := range 300 {
		for s := range n {
			if rng.IntN(10) == 0 {
				continue // this row misses the step
			}
			before := have[s]
			have[s] = u.UpdateObs(s, rows[s], have[s])
			if rng.IntN(10) == 0 {
				have[s] = u.UpdateObs(s, rows[s], have[s]) // twice in a row
			}
			e.WriteObs(s, want)
			for k := range want {
				if !bytes.Equal(rows[s][k], want[k]) {
					t.Fatalf("seed %d step %d seat %d: UpdateObs (from version %d) differs from WriteObs in tensor %s", seed, step, s, before, spec.Obs[k].Name)
				}
			}
		}
		if e.Done() || rng.IntN(100) == 0 {
			e.Reset(rng.Uint64())
			continue
		}
		for s := range acts {
			acts[s] = int32(rng.IntN(spec.Actions))
		}
		e.Step(acts, rewards, term, trunc)
	}
}
