package battlecube

import (
	"math/rand/v2"
	"testing"
)

// marksOf reads seat's cycle-mark scalars from a scalars tensor of cfg.
func marksOf(cfg *Config, sc []byte) [NumCycleMarkScalars]float32 {
	var m [NumCycleMarkScalars]float32
	for k := range m {
		m[k] = scalar(sc, CycleMarksOffset(cfg)+k)
	}
	return m
}

// marked returns the cycle marks with 1 at the given entries.
func marked(at ...int) [NumCycleMarkScalars]float32 {
	var m [NumCycleMarkScalars]float32
	for _, i := range at {
		m[i] = 1
	}
	return m
}

// TestCycleMarksShowTheCellsBotsStoodOnWhenLastAsked: with three tasks
// per tick, each seat's marks name, for its cell and its six neighbours,
// the seat's own cell at the cycle's first tick and the other bots' cells
// then, until the next cycle starts at the bots' new cells; a bot out of
// play has no marks and leaves none.
func TestCycleMarksShowTheCellsBotsStoodOnWhenLastAsked(t *testing.T) {
	for _, history := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.Players, cfg.TasksPerTick, cfg.CycleMarks, cfg.History = 3, 3, true, history
		cfg.StartPositions = [][3]int{{0, 0, 0}, {7, 7, 7}, {1, 0, 0}}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		const self, others = CycleMarkSelf, CycleMarkOthers
		noop := int32(Noop)
		// Seat 0 walks +Y twice, then waits; seat 1 leaves the cube in the
		// second tick; seat 2 waits.
		ticks := [][3]int32{
			{int32(MovePlusY), noop, noop},
			{int32(MovePlusY), int32(MovePlusX), noop},
			{noop, noop, noop},
			{int32(MoveMinusY), noop, noop},
		}
		want := [][3][NumCycleMarkScalars]float32{
			// Before tick 0 (a cycle starts): every bot's own cell; seat 2 is seat 0's +X neighbour.
			{marked(self+0, others+int(MovePlusX)), marked(self + 0), marked(self+0, others+int(MoveMinusX))},
			// Seat 0 at (0,1,0): its cycle-start cell is −Y of it.
			{marked(self + int(MoveMinusY)), marked(self + 0), marked(self+0, others+int(MoveMinusX))},
			// Seat 0 at (0,2,0): two cells from its start; seat 1 is out.
			{marked(), marked(), marked(self+0, others+int(MoveMinusX))},
			// A new cycle: seat 0's cell now; nobody next to it.
			{marked(self + 0), marked(), marked(self + 0)},
			// Seat 0 at (0,1,0), the cycle's start one cell +Y.
			{marked(self + int(MovePlusY)), marked(), marked(self + 0)},
		}
		obs := g.Spec().NewObsBuffers()
		rew := make([]float32, 3)
		term, trunc := make([]bool, 3), make([]bool, 3)
		for tk := range want {
			for s := range 3 {
				g.WriteObs(s, obs)
				if got := marksOf(cfg, obs[1]); got != want[tk][s] {
					t.Errorf("history %v, before tick %d, seat %d: marks %v, want %v", history, tk, s, got, want[tk][s])
				}
			}
			if tk < len(ticks) {
				g.Step(ticks[tk][:], rew, term, trunc)
			}
		}
	}
}

// TestCycleMarksOfALoadedStateAreItsCells: a state loaded in the middle
// of a cycle starts the cycle where its bots stand.
func TestCycleMarksOfALoadedStateAreItsCells(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players, cfg.TasksPerTick, cfg.CycleMarks = 2, 3, true
	cfg.StartPositions = [][3]int{{3, 3, 3}, {5, 5, 5}}
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Step([]int32{int32(MovePlusZ), int32(Noop)}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	req, err := g.AppendNative(nil, "request.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.LoadNative(req); err != nil {
		t.Fatal(err)
	}
	if h.SubTick() != 2 {
		t.Fatalf("loaded sub-tick %d, want 2", h.SubTick())
	}
	obs := h.Spec().NewObsBuffers()
	h.WriteObs(0, obs)
	if got, want := marksOf(cfg, obs[1]), marked(CycleMarkSelf+0); got != want {
		t.Errorf("loaded at sub-tick 2: marks %v, want %v (the cell it stands on)", got, want)
	}
	g.WriteObs(0, obs)
	if got, want := marksOf(cfg, obs[1]), marked(CycleMarkSelf+int(MoveMinusZ)); got != want {
		t.Errorf("played to sub-tick 2: marks %v, want %v", got, want)
	}
}

// TestCycleMarksOffLeavesTheObservationAsItWas: without Config.CycleMarks
// the scalars have their old length, and with it the planes and the
// scalars before the marks are byte for byte those of the game without it
// (same seed, same actions), with and without History.
func TestCycleMarksOffLeavesTheObservationAsItWas(t *testing.T) {
	for _, history := range []bool{false, true} {
		off := DefaultConfig()
		off.TasksPerTick, off.History = 3, history
		a, b := offAndOn(t, off, func(c *Config) { c.CycleMarks = true })
		base := CycleMarksOffset(off)
		if got := a.Spec().Obs[1].Shape; len(got) != 1 || got[0] != base {
			t.Fatalf("history %v, marks off: scalars shape %v, want [%d]", history, got, base)
		}
		if got := b.Spec().Obs[1].Shape; len(got) != 1 || got[0] != base+NumCycleMarkScalars {
			t.Fatalf("history %v, marks on: scalars shape %v, want [%d]", history, got, base+NumCycleMarkScalars)
		}
		if step, seat, ok := sameObsPrefix(a, b, 4*base, rand.New(rand.NewPCG(7, 3)), 3000); !ok {
			t.Fatalf("history %v, step %d seat %d: planes or the scalars before the marks differ with marks on", history, step, seat)
		}
	}
}
