package battlebots

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep measures one bout of 2 seats: each iteration steps once
// with pseudo-random actions from a precomputed table and writes both
// seats' observations and masks; a finished bout is Reset inline.
func BenchmarkStep(b *testing.B) {
	run := func(b *testing.B, obsToo bool) {
		g, err := New(DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		spec := g.Spec()
		obs := [2][][]byte{spec.NewObsBuffers(), spec.NewObsBuffers()}
		var masks [2][NumActions]uint8
		rng := rand.New(rand.NewPCG(7, 7))
		table := make([]int32, 1<<14)
		for i := range table {
			table[i] = rng.Int32N(NumActions)
		}
		acts := make([]int32, 2)
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		k := 0
		b.ReportAllocs()
		for b.Loop() {
			acts[0], acts[1] = table[k&(len(table)-1)], table[(k+1)&(len(table)-1)]
			k += 2
			g.Step(acts, rewards, term, trunc)
			if obsToo {
				for s := range 2 {
					g.WriteObs(s, obs[s])
					g.WriteMask(s, masks[s][:])
				}
			}
			if g.Done() {
				g.Reset(0)
			}
		}
		b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
	}
	b.Run("battlebots", func(b *testing.B) { run(b, true) })
	b.Run("battlebots_sim_only", func(b *testing.B) { run(b, false) })
}
