package battleships

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep measures one env of 2 seats on the medium map: each
// iteration steps once and writes both seats' observations and masks.
// Actions: 90% single shots at uniformly random on-map cells, 10% special
// weapons or shields at random on-map centres (most of which the engine
// refuses for want of energy, as a learner's would be). Finished games are
// Reset inline with the random placer, so placement is part of the figure.
// The <size>_rows runs keep each seat's observation in its own row,
// brought up to date by UpdateObs, as vecenv pools do.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name, size string
		rows       bool
	}{{SizeSmall, SizeSmall, false}, {SizeMedium, SizeMedium, false}, {SizeLarge, SizeLarge, false}, {"medium_rows", SizeMedium, true}} {
		size, rows := c.size, c.rows
		b.Run(c.name, func(b *testing.B) {
			g, err := New(&Config{Size: size})
			if err != nil {
				b.Fatal(err)
			}
			n := g.n
			rng := rand.New(rand.NewPCG(7, 7))
			table := make([]int32, 1<<14)
			for i := range table {
				code := CodeSingle
				if rng.IntN(10) == 0 {
					code = 2 + rng.IntN(7)
				}
				table[i] = CommandAction(n, code, rng.IntN(n), rng.IntN(n))
			}
			obs := [2][][]byte{g.spec.NewObsBuffers(), g.spec.NewObsBuffers()}
			var have [2]uint64
			masks := [2][]uint8{make([]uint8, g.spec.Actions), make([]uint8, g.spec.Actions)}
			acts := make([]int32, 2)
			r := make([]float32, 2)
			te, tr := make([]bool, 2), make([]bool, 2)
			k, seed := 0, uint64(1)
			b.ReportAllocs()
			for b.Loop() {
				acts[0], acts[1] = table[k&(len(table)-1)], table[(k+1)&(len(table)-1)]
				k += 2
				g.Step(acts, r, te, tr)
				for s := range 2 {
					if rows {
						have[s] = g.UpdateObs(s, obs[s], have[s])
					} else {
						g.WriteObs(s, obs[s])
					}
					g.WriteMask(s, masks[s])
				}
				if g.done {
					seed++
					g.Reset(seed)
				}
			}
			b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}
