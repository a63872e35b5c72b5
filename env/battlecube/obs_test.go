package battlecube

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a row
// per seat updated by UpdateObs, and checks every row against WriteObs
// after every step and reset: rows that miss a step, rows updated twice, a
// row written by another copy of the game, resets after the end of a game
// and in the middle of one, and random play.
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	for seed := range uint64(16) {
		g, err := New(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		n := g.Spec().Seats
		rng := rand.New(rand.NewPCG(seed, 5))
		spec := g.Spec()
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
		updates := 0
		for step := range 300 {
			for s := range n {
				switch rng.IntN(12) {
				case 0:
					continue // this row misses the step
				case 1:
					copied := *g // another copy writes the row: the next update is full
					have[s] = copied.UpdateObs(s, rows[s], have[s])
				}
				before := have[s]
				if g.marks != nil && before != 0 && before == g.marks.ver[s] {
					updates++
				}
				have[s] = g.UpdateObs(s, rows[s], have[s])
				if rng.IntN(10) == 0 {
					have[s] = g.UpdateObs(s, rows[s], have[s])
				}
				g.WriteObs(s, want)
				if !bytes.Equal(rows[s][0], want[0]) || !bytes.Equal(rows[s][1], want[1]) {
					t.Fatalf("seed %d step %d seat %d: UpdateObs (from version %d) differs from WriteObs", seed, step, s, before)
				}
			}
			if g.Done() || rng.IntN(100) == 0 {
				g.Reset(rng.Uint64())
				continue
			}
			for s := range acts {
				acts[s] = int32(rng.IntN(spec.Actions))
			}
			g.Step(acts, rewards, term, trunc)
		}
		if updates < 300 {
			t.Errorf("seed %d: %d in-place updates; the test needs many", seed, updates)
		}
	}
}
