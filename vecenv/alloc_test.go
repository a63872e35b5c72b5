package vecenv_test

import (
	"runtime"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// TestStepDoesNotAllocate: after warm-up, Step allocates nothing, with
// opponents, autoresets every third step and both modes, on 1 and 3
// workers (the toy game implements vecenv.Outcomer).
func TestStepDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		for _, workers := range []int{1, 3} {
			p := toyPool(t, vecenv.Config{
				NumEnvs:      64,
				Workers:      workers,
				LearnerSeats: []int{1},
				AutoReset:    mode,
				Opponents: map[int]vecenv.OpponentFactory{0: func(*env.Spec) (vecenv.Opponent, error) {
					return &fixedOpponent{action: 1}, nil
				}},
			})
			p.Reset()
			acts := make([]int32, p.Rows())
			ends := 0
			allocs := testing.AllocsPerRun(100, func() {
				if err := p.Step(acts); err != nil {
					t.Fatal(err)
				}
				if p.Ended()[0] {
					ends++
				}
			})
			if allocs != 0 {
				t.Errorf("%v, %d workers: %v allocations per Step, want 0", mode, workers, allocs)
			}
			if ends < 20 {
				t.Errorf("%v: only %d episode ends", mode, ends)
			}
		}
	}
}

// TestBombermanStepAllocations: with Bomberman, the random and reference
// opponents and frequent autoresets, Step allocates nothing except
// Bomberman's Result (one allocation per ended episode), which the pool
// calls for the win/draw/loss statistics because Bomberman does not
// implement vecenv.Outcomer yet. Once it does, this test expects 0 (up to
// the runtime's refills after a GC cycle, see below).
func TestBombermanStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		p := newPool(t, mixedConfig(16, 2, 3, mode))
		p.Reset()
		next := actionStream(p.Rows(), p.Spec().Actions, 1)
		for range 100 { // warm-up
			p.Step(next())
		}
		_, outcomer := p.Env(0).(vecenv.Outcomer)
		const steps = 300
		batches := make([][]int32, steps)
		for s := range batches {
			batches[s] = append([]int32(nil), next()...)
		}
		var before, after runtime.MemStats
		ends := 0
		// No runtime.GC here: it empties the runtime's caches of channel
		// waiters (sudogs), and refilling them would count.
		runtime.ReadMemStats(&before)
		for s := range steps {
			if err := p.Step(batches[s]); err != nil {
				t.Fatal(err)
			}
			for i := range p.NumEnvs() {
				if p.Ended()[2*i] {
					ends++
				}
			}
		}
		runtime.ReadMemStats(&after)
		allocs := int(after.Mallocs - before.Mallocs)
		want := ends
		if outcomer {
			want = 0
		}
		// The worker hand-offs block on channels, and a blocked goroutine
		// takes a waiter record (sudog) from its P's cache. When a worker
		// blocks on one P and wakes on another, the caches drift until
		// they settle, and a GC cycle (which Result's garbage triggers now
		// and then) empties them; the runtime allocates a few records to
		// refill them. Bounded, and none in a steady state: allow a few.
		gcs := int(after.NumGC - before.NumGC)
		want += 16 + 2*p.Workers()*gcs
		if ends < 16 {
			t.Errorf("%v: only %d episode ends", mode, ends)
		}
		if allocs > want {
			t.Errorf("%v: %d allocations in %d steps with %d episode ends, want at most %d", mode, allocs, steps, ends, want)
		}
		t.Logf("%v: %d allocations in %d steps, %d episode ends, %d GC cycles", mode, allocs, steps, ends, gcs)
	}
}
