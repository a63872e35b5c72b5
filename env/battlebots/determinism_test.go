package battlebots

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// trajectory plays a bout with seeded random actions and returns every
// observation, mask, reward and flag in one byte string.
func trajectory(t testing.TB, g *Game, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	spec := g.Spec()
	obs := spec.NewObsBuffers()
	mask := make([]uint8, NumActions)
	acts := make([]int32, 2)
	rewards := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	var out []byte
	g.Reset(seed)
	for !g.Done() {
		acts[0], acts[1] = rng.Int32N(NumActions), rng.Int32N(NumActions)
		g.Step(acts, rewards, term, trunc)
		for s := range 2 {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
			out = append(append(append(out, obs[0]...), obs[1]...), mask...)
		}
		out = append(out, byte(rewards[0]+2), byte(rewards[1]+2))
		for _, f := range [4]bool{term[0], term[1], trunc[0], trunc[1]} {
			if f {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		}
	}
	return out
}

func TestDeterminism(t *testing.T) {
	g, _ := New(DefaultConfig())
	h, _ := New(DefaultConfig())
	a := trajectory(t, g, 5)
	if b := trajectory(t, h, 5); !bytes.Equal(a, b) {
		t.Error("same seed, same actions: different trajectories")
	}
	// The same env again, after a Reset, gives the same bytes.
	if b := trajectory(t, g, 5); !bytes.Equal(a, b) {
		t.Error("Reset does not restore the start")
	}
	if b := trajectory(t, h, 6); bytes.Equal(a, b) {
		t.Error("different actions, same trajectory")
	}
}

func TestZeroAllocs(t *testing.T) {
	g, _ := New(DefaultConfig())
	spec := g.Spec()
	obs := spec.NewObsBuffers()
	mask := make([]uint8, NumActions)
	acts := make([]int32, 2)
	rewards := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	table := make([]int32, 4096)
	for i := range table {
		table[i] = rng.Int32N(NumActions)
	}
	k := 0
	allocs := testing.AllocsPerRun(2000, func() {
		acts[0], acts[1] = table[k%len(table)], table[(k+1)%len(table)]
		k += 2
		g.Step(acts, rewards, term, trunc)
		for s := range 2 {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
		}
		g.Outcome()
		if g.Done() {
			g.Reset(uint64(k))
		}
	})
	if allocs != 0 {
		t.Errorf("Step/WriteObs/WriteMask/Outcome/Reset allocate %v times per step", allocs)
	}
	buf := make([]byte, 0, 4096)
	if a := testing.AllocsPerRun(100, func() { buf = g.AppendArena(buf[:0], -1) }); a != 0 {
		t.Errorf("AppendArena allocates %v times", a)
	}
}
