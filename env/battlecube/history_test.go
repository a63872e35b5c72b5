package battlecube

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// scalar reads float32 i of a scalars tensor.
func scalar(sc []byte, i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(sc[4*i:]))
}

// TestHistoryScalarsCountTicksStoodStill: after a known sequence of tasks,
// each seat's history scalars are the share of its ticks it ended on its
// start cell, its run of such ticks (capped), and the other bots' mean
// share; a bomb or a NOOP is standing still, a move is not.
func TestHistoryScalarsCountTicksStoodStill(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players, cfg.History = 3, true
	cfg.StartPositions = [][3]int{{0, 0, 0}, {7, 7, 7}, {4, 4, 4}}
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	bomb := int32(BombAction(8, 2, 6, 1))
	// Seat 0: noop, bomb, move, noop; seat 1: always moves back and forth; seat 2: noop throughout.
	ticks := [][3]int32{
		{int32(Noop), int32(MoveMinusX), int32(Noop)},
		{bomb, int32(MovePlusX), int32(Noop)},
		{int32(MovePlusY), int32(MoveMinusX), int32(Noop)},
		{int32(Noop), int32(MovePlusX), int32(Noop)},
	}
	// want[t][seat] = share, run scalar, others' mean, after tick t.
	want := [][3][3]float32{
		{{1, 1. / 8, (0 + 1) / 2.}, {0, 0, (1 + 1) / 2.}, {1, 1. / 8, (1 + 0) / 2.}},
		{{1, 2. / 8, (0 + 1) / 2.}, {0, 0, (1 + 1) / 2.}, {1, 2. / 8, (1 + 0) / 2.}},
		{{2. / 3, 0, (0 + 1) / 2.}, {0, 0, (2./3 + 1) / 2.}, {1, 3. / 8, (2./3 + 0) / 2.}},
		{{3. / 4, 1. / 8, (0 + 1) / 2.}, {0, 0, (3./4 + 1) / 2.}, {1, 4. / 8, (3./4 + 0) / 2.}},
	}
	obs := g.Spec().NewObsBuffers()
	for s := range 3 {
		g.WriteObs(s, obs)
		for i := ScalarStillShare; i < numScalarsHistory; i++ {
			if v := scalar(obs[1], i); v != 0 {
				t.Errorf("seat %d before any tick: scalar %d = %v, want 0", s, i, v)
			}
		}
	}
	rew := make([]float32, 3)
	term, trunc := make([]bool, 3), make([]bool, 3)
	for tk, acts := range ticks {
		g.Step(acts[:], rew, term, trunc)
		for s := range 3 {
			g.WriteObs(s, obs)
			for k, i := range []int{ScalarStillShare, ScalarStillRun, ScalarOthersStill} {
				if v, w := scalar(obs[1], i), want[tk][s][k]; math.Abs(float64(v-w)) > 1e-6 {
					t.Errorf("after tick %d, seat %d: scalar %d = %v, want %v", tk, s, i, v, w)
				}
			}
		}
	}
	// The run is capped; a Reset starts every history again.
	for range 2 * HistoryRunCap {
		g.Step([]int32{int32(Noop), int32(Noop), int32(Noop)}, rew, term, trunc)
	}
	g.WriteObs(2, obs)
	if v := scalar(obs[1], ScalarStillRun); v != 1 {
		t.Errorf("after %d ticks standing still: run scalar %v, want 1", 4+2*HistoryRunCap, v)
	}
	g.Reset(1)
	g.WriteObs(2, obs)
	if v := scalar(obs[1], ScalarStillShare); v != 0 {
		t.Errorf("after Reset: share %v, want 0", v)
	}
}

// TestHistoryOffLeavesTheObservationAsItWas: without Config.History the
// spec has the four scalars, and with it the planes and the first four
// scalars are byte for byte those of the game without it (same seed, same
// actions).
func TestHistoryOffLeavesTheObservationAsItWas(t *testing.T) {
	off, on := DefaultConfig(), DefaultConfig()
	on.History = true
	a, err := New(off)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(on)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Spec().Obs[1].Shape; len(got) != 1 || got[0] != NumScalars {
		t.Fatalf("history off: scalars shape %v, want [%d]", got, NumScalars)
	}
	if got := b.Spec().Obs[1].Shape; len(got) != 1 || got[0] != NumScalars+NumHistoryScalars {
		t.Fatalf("history on: scalars shape %v, want [%d]", got, NumScalars+NumHistoryScalars)
	}
	if step, seat, ok := sameObsPrefix(a, b, 4*NumScalars, rand.New(rand.NewPCG(5, 9)), 3000); !ok {
		t.Fatalf("step %d seat %d: planes or the first four scalars differ with history on", step, seat)
	}
}

// sameObsPrefix plays a and b (the same game but for the scalars after
// the first prefix bytes) alike for the given number of steps, with random
// actions (moves mostly) and the same reset seeds, and reports the first
// step and seat whose planes or first prefix bytes of scalars differ.
func sameObsPrefix(a, b *Game, prefix int, rng *rand.Rand, steps int) (step, seat int, ok bool) {
	n := a.n
	acts, rew := make([]int32, n), make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	oa, ob := a.Spec().NewObsBuffers(), b.Spec().NewObsBuffers()
	for step := range steps {
		if a.Done() {
			seed := rng.Uint64()
			a.Reset(seed)
			b.Reset(seed)
		}
		for s := range n {
			a.WriteObs(s, oa)
			b.WriteObs(s, ob)
			if !bytes.Equal(oa[0], ob[0]) || !bytes.Equal(oa[1][:prefix], ob[1][:prefix]) {
				return step, s, false
			}
			acts[s] = int32(rng.IntN(int(NumFixedActions)))
			if rng.IntN(3) == 0 {
				acts[s] = int32(rng.IntN(a.Spec().Actions))
			}
		}
		a.Step(acts, rew, term, trunc)
		b.Step(acts, rew, term, trunc)
	}
	return 0, 0, true
}
