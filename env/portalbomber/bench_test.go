package portalbomber

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkStep measures one env step plus both seats' observations and
// masks, with random actions and resets at game end.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  *Config
	}{{"portalbomber", DefaultConfig()}, {"portalbomber-variant", VariantConfig()}} {
		b.Run(fmt.Sprintf("%s/envs=1", c.name), func(b *testing.B) {
			g, _ := New(c.cfg)
			obs := g.Spec().NewObsBuffers()
			mask := make([]uint8, NumActions)
			rng := rand.New(rand.NewPCG(1, 2))
			table := make([]int32, 4096)
			for i := range table {
				table[i] = int32(rng.IntN(NumActions))
			}
			acts := make([]int32, Seats)
			r := make([]float32, Seats)
			te, tr := make([]bool, Seats), make([]bool, Seats)
			k, seed := 0, uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				if g.Done() {
					seed++
					g.Reset(seed)
				}
				acts[0], acts[1] = table[k&4095], table[(k+1)&4095]
				k += 2
				g.Step(acts, r, te, tr)
				for s := range Seats {
					g.WriteObs(s, obs)
					g.WriteMask(s, mask)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(Seats*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}
