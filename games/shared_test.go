package games_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games"
)

// TestSharedChannelsAreTheSameForEverySeat checks each game's
// env.Tensor.Shared: over random games of every registered variant, after
// every Reset and Step, every seat's observation holds the same bytes in
// the shared channels, whether the seat is in the game or out of it. A
// transport that sends those channels once per env relies on it.
func TestSharedChannelsAreTheSameForEverySeat(t *testing.T) {
	t.Parallel()
	var declared atomic.Int32
	for _, name := range env.Default.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, err := env.Default.Make(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			spec := e.Spec()
			for _, ts := range spec.Obs {
				if len(ts.Shared) > 0 {
					declared.Add(1)
				}
				if !slices.IsSorted(ts.Shared) || len(slices.Compact(slices.Clone(ts.Shared))) != len(ts.Shared) {
					t.Fatalf("tensor %q: Shared %v is not ascending", ts.Name, ts.Shared)
				}
				for _, c := range ts.Shared {
					if c < 0 || c >= ts.Shape[0] {
						t.Fatalf("tensor %q: Shared channel %d outside 0..%d", ts.Name, c, ts.Shape[0]-1)
					}
				}
			}
			obs := make([][][]byte, spec.Seats)
			for s := range obs {
				obs[s] = spec.NewObsBuffers()
			}
			check := func(when string) {
				t.Helper()
				for s := range spec.Seats {
					e.WriteObs(s, obs[s])
				}
				for i, ts := range spec.Obs {
					plane := ts.Bytes() / ts.Shape[0]
					for _, c := range ts.Shared {
						want := obs[0][i][c*plane : (c+1)*plane]
						for s := 1; s < spec.Seats; s++ {
							if !bytes.Equal(obs[s][i][c*plane:(c+1)*plane], want) {
								t.Fatalf("%s: tensor %q channel %d: seat %d sees other values than seat 0", when, ts.Name, c, s)
							}
						}
					}
				}
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			actions := make([]int32, spec.Seats)
			rewards := make([]float32, spec.Seats)
			terminated := make([]bool, spec.Seats)
			truncated := make([]bool, spec.Seats)
			mask := make([]uint8, spec.Actions)
			steps := 0
			for episode := 0; episode < 500 && steps < 2000; episode++ {
				e.Reset(rng.Uint64())
				check("reset")
				for !e.Done() && steps < 2000 {
					for s := range actions {
						// Mostly legal actions, so that games go on; some
						// at random, so that seats also die.
						actions[s] = rng.Int32N(int32(spec.Actions))
						if rng.IntN(4) > 0 {
							e.WriteMask(s, mask)
							for k := 0; k < 8 && mask[actions[s]] == 0; k++ {
								actions[s] = rng.Int32N(int32(spec.Actions))
							}
						}
					}
					e.Step(actions, rewards, terminated, truncated)
					steps++
					check("step")
				}
			}
			if steps < 2000 {
				t.Errorf("only %d steps played", steps)
			}
		})
	}
	t.Cleanup(func() {
		if declared.Load() == 0 {
			t.Error("no game declares shared channels")
		}
	})
}
