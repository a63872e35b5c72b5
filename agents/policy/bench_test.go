package policy

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// BenchmarkForward measures the forward pass (logits and probabilities) of
// standard networks (conv 32, conv 32, 256 hidden) of the shapes of
// battlebots (planes [19,10,10], 34 actions) and bomberman (planes
// [12,21,21], 7 actions) over batches of 1 and 256 random observations.
func BenchmarkForward(b *testing.B) {
	for _, net := range []netSpec{battlebotsNet, bombermanNet} {
		m, err := Load(writePolicy(b, net, 1))
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{1, 256} {
			b.Run(fmt.Sprintf("%s/batch=%d", net.game, n), func(b *testing.B) {
				batch := m.NewBatch(n)
				rng := rand.New(rand.NewPCG(1, 2))
				for k := range n {
					for i := range batch.Planes(k) {
						if rng.IntN(4) == 0 { // observations are mostly zeros
							batch.Planes(k)[i] = uint8(1 + rng.IntN(3))
						}
					}
					sc := batch.Scalars(k)
					for i := 0; i < len(sc); i += 4 {
						binary.LittleEndian.PutUint32(sc[i:], math.Float32bits(float32(rng.NormFloat64()*10)))
					}
					for i := range batch.Mask(k) {
						batch.Mask(k)[i] = uint8(rng.IntN(2))
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					batch.Forward(n)
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "decisions/s")
			})
		}
	}
}

// BenchmarkPool measures a battlebots pool of 256 envs whose seat 1 is a
// policy opponent (the standard network, random weights, arg-max) and
// whose seat 0 is the learner, acting randomly: agent-steps/s counts
// learner rows, decisions/s the policy's seats.
func BenchmarkPool(b *testing.B) {
	spec := "policy:" + writePolicy(b, battlebotsNet, 1)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("battlebots/envs=256/workers=%d", workers), func(b *testing.B) {
			p := testutil.NewPool(b, vecenv.Config{
				Game: "battlebots", NumEnvs: 256, Seed: 1, Workers: workers,
				LearnerSeats: []int{0},
				Opponents:    map[int]env.AgentFactory{1: opponent(spec, true)},
			})
			p.Reset()
			rng := rand.New(rand.NewPCG(1, 2))
			const batches = 64
			acts := make([][]int32, batches)
			for i := range acts {
				acts[i] = make([]int32, p.Rows())
				for r := range acts[i] {
					acts[i][r] = int32(rng.IntN(9)) // mostly moves
				}
			}
			p.Step(acts[0])
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p.Step(acts[i%batches])
				i++
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N*p.Rows())/sec, "agent-steps/s")
			b.ReportMetric(float64(b.N*p.NumEnvs())/sec, "decisions/s")
		})
	}
}
