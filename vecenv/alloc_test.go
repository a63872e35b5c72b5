package vecenv_test

import (
	"runtime"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// TestStepDoesNotAllocate: after warm-up, Step allocates nothing, with
// opponents, autoresets every third step and both modes, on 1 and 3
// workers.
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
// opponents and frequent autoresets (the statistics read each ended game's
// Outcome), Step allocates nothing after warm-up.
func TestBombermanStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		p := newPool(t, mixedConfig(16, 2, 3, mode))
		p.Reset()
		next := actionStream(p.Rows(), p.Spec().Actions, 1)
		for range 3000 { // warm-up: long enough for the runtime's waiter caches to settle
			p.Step(next())
		}
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
		want := 0
		// The worker hand-offs block on channels, and a blocked goroutine
		// takes a waiter record (sudog, 112 bytes) from its P's cache.
		// Workers block on one P and wake on another, so the per-P caches
		// drift and now and then the runtime allocates a record to refill
		// one; a GC cycle empties them all. A memory profile of this test
		// shows no other allocation site than the channel receive in
		// vecenv.wait. These are the runtime's, bounded, and far from one
		// per step (0–4 in 300 steps were seen): allow 8, plus the refills
		// after a GC.
		gcs := int(after.NumGC - before.NumGC)
		want += 8 + 2*p.Workers()*gcs
		if ends < 16 {
			t.Errorf("%v: only %d episode ends", mode, ends)
		}
		if allocs > want {
			t.Errorf("%v: %d allocations in %d steps with %d episode ends, want at most %d", mode, allocs, steps, ends, want)
		}
		t.Logf("%v: %d allocations in %d steps, %d episode ends, %d GC cycles", mode, allocs, steps, ends, gcs)
	}
}
