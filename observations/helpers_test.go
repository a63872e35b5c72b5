package observations_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/observations"
)

// checkedAllocator returns an allocator that fails t if any Arrow memory is
// still allocated when t ends.
func checkedAllocator(t testing.TB) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// checkedEncoder makes an encoder of rows rows for spec that allocates from
// mem, compressing with zstd when zstd is set (opts add more options); its
// Close is checked when t ends, before mem's size is.
func checkedEncoder(t testing.TB, mem memory.Allocator, spec *env.Spec, rows int, zstd bool, opts ...observations.Option) *observations.Encoder {
	t.Helper()
	opts = append([]observations.Option{observations.WithAllocator(mem)}, opts...)
	if zstd {
		opts = append(opts, observations.WithZstd())
	}
	enc, err := observations.NewEncoder(spec, rows, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := enc.Close(); err != nil {
			t.Error(err)
		}
	})
	return enc
}

// bombermanSpec returns the spec of 4-player Bomberman.
func bombermanSpec(t testing.TB) *env.Spec {
	t.Helper()
	g, err := bomberman.New(&bomberman.Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	return g.Spec()
}

// fillBuffers fills b with real Bomberman observations and masks: envs
// distinct games (the rows' envs cycle through them) after a few random
// steps each, plus random rewards, flags and episode numbers, as a pool
// would leave them after a step.
func fillBuffers(t testing.TB, b *env.Buffers, games int, seed uint64) {
	t.Helper()
	spec := b.Spec
	seats := spec.Seats
	rng := rand.New(rand.NewPCG(seed, 1))
	actions := make([]int32, seats)
	rewards := make([]float32, seats)
	term := make([]bool, seats)
	trunc := make([]bool, seats)
	var obs [][]byte
	envs := (b.Rows + seats - 1) / seats
	for g := range min(games, envs) {
		game, err := bomberman.New(&bomberman.Config{Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		game.Reset(seed + uint64(g))
		for range rng.IntN(20) {
			for s := range actions {
				actions[s] = rng.Int32N(int32(spec.Actions))
			}
			game.Step(actions, rewards, term, trunc)
		}
		for e := g; e < envs; e += games {
			for s := range seats {
				r := e*seats + s
				if r >= b.Rows {
					break
				}
				obs = b.RowObs(obs[:0], r)
				game.WriteObs(s, obs)
				game.WriteMask(s, b.RowMask(r))
			}
		}
	}
	for r := range b.Rows {
		b.Rewards[r] = float32(rng.IntN(3)-1) + rng.Float32()/8
		b.Terminated[r] = rng.IntN(3) == 0
		b.Truncated[r] = rng.IntN(5) == 0
		b.Env[r] = int32(r / seats)
		b.Seat[r] = int32(r % seats)
		b.Episode[r] = rng.Int32N(1000)
	}
}
