package battlebots

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// trajectory resets g with seed and returns the digest
// ([testutil.ObsDigest]) of MaxSteps steps of uniformly random actions
// drawn from a PCG seeded with seed: every observation, mask, reward and
// flag, a finished bout reset with a seed from the same PCG.
func trajectory(g *Game, seed uint64) string {
	g.Reset(seed)
	return testutil.ObsDigest(g, g.Spec().MaxSteps, rand.New(rand.NewPCG(seed, 1)), func(rng *rand.Rand, _ []uint8) int32 { return rng.Int32N(NumActions) })
}

func TestDeterminism(t *testing.T) {
	g, _ := New(DefaultConfig())
	h, _ := New(DefaultConfig())
	a := trajectory(g, 5)
	if b := trajectory(h, 5); a != b {
		t.Error("same seed, same actions: different trajectories")
	}
	// The same env again, after a Reset, gives the same bytes.
	if b := trajectory(g, 5); a != b {
		t.Error("Reset does not restore the start")
	}
	if b := trajectory(h, 6); a == b {
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
