// The tests of the helpers that need a game: internal/testgame.

package testutil_test

import (
	"image"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/botarena/botarena/internal/testgame"
	"github.com/botarena/botarena/internal/testutil"
)

// scribbler is a test game whose Paint changes the state.
type scribbler struct{ *testgame.Game }

func (s scribbler) Paint(seat int) *image.RGBA {
	s.Round++
	return s.Game.Paint(seat)
}

// fatalRecorder records a Fatal or Fatalf and ends the goroutine, as
// testing.T does.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (r *fatalRecorder) Helper()      {}
func (r *fatalRecorder) Fatal(...any) { r.Fatalf("") }
func (r *fatalRecorder) Fatalf(string, ...any) {
	r.failed = true
	runtime.Goexit()
}

func TestPaintKeepsStateFailsOnlyWhenPaintChangesTheState(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scribble bool
	}{{"keeps", false}, {"changes", true}} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := testgame.New(&testgame.Config{Players: 2})
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(1)
			r := &fatalRecorder{TB: t}
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				if tc.scribble {
					testutil.PaintKeepsState(r, scribbler{g}, 0)
				} else {
					testutil.PaintKeepsState(r, g, 0)
				}
			}()
			wg.Wait()
			if r.failed != tc.scribble {
				t.Errorf("failed %v, want %v", r.failed, tc.scribble)
			}
		})
	}
}

func TestStepRandomlyStopsOrResetsAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		reset                 bool
		steps, visits, resets int
	}{
		{"stops_without_reset", false, 100, 3, 0},
		{"resets_and_goes_on", true, 10, 10, 3},
		{"fewer_steps_than_a_game", false, 2, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := testgame.New(&testgame.Config{Players: 2, MaxRounds: 3})
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(1)
			var seats []int
			visits, resets := 0, 0
			act := func(seat int, mask []uint8) int32 {
				if len(mask) != g.Spec().Actions {
					t.Fatalf("mask of %d actions, want %d", len(mask), g.Spec().Actions)
				}
				seats = append(seats, seat)
				return 1
			}
			var reset func()
			if tc.reset {
				reset = func() { resets++; g.Reset(uint64(resets)) }
			}
			testutil.StepRandomly(g, tc.steps, act, reset, func() { visits++ })
			if visits != tc.visits || resets != tc.resets {
				t.Errorf("%d visits, %d resets; want %d, %d", visits, resets, tc.visits, tc.resets)
			}
			if len(seats) != 2*visits || (len(seats) > 1 && (seats[0] != 0 || seats[1] != 1)) {
				t.Errorf("act asked for seats %v", seats)
			}
		})
	}
}

func TestBenchStepStepsTheGameWithoutAllocating(t *testing.T) {
	g, err := testgame.New(&testgame.Config{Players: 3, MaxRounds: 4})
	if err != nil {
		t.Fatal(err)
	}
	table := []int32{0, 1, 2, 1}
	r := testing.Benchmark(func(b *testing.B) { testutil.BenchStep(b, g, table, true, false) })
	if r.N == 0 || r.AllocsPerOp() != 0 {
		t.Errorf("%d iterations, %d allocations per step; want some, none", r.N, r.AllocsPerOp())
	}
	// Both rates are computed in floating point from the same count and
	// time, so they agree to rounding, not bit for bit.
	if steps, agents := r.Extra["steps/s"], r.Extra["agent-steps/s"]; steps <= 0 || math.Abs(agents-3*steps) > 1e-9*agents {
		t.Errorf("metrics %v: want agent-steps/s three times steps/s", r.Extra)
	}
}
