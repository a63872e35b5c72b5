package battlecube

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTasksScalarIsOneOverTasksPerTick: with Config.TasksScalar the last
// scalar is 1/T for every seat at every step, in play or not, after the
// history scalars and cycle marks when those are on; everything before it
// is byte for byte the observation without it (same seeds, same actions).
func TestTasksScalarIsOneOverTasksPerTick(t *testing.T) {
	for _, tc := range []struct {
		tasks               int
		history, cycleMarks bool
	}{{1, false, false}, {3, false, false}, {3, true, false}, {1, true, true}, {3, true, true}, {5, false, true}} {
		t.Run(fmt.Sprintf("T%d/history%v/marks%v", tc.tasks, tc.history, tc.cycleMarks), func(t *testing.T) {
			off := DefaultConfig()
			off.TasksPerTick, off.History, off.CycleMarks = tc.tasks, tc.history, tc.cycleMarks
			a, b := offAndOn(t, off, func(c *Config) { c.TasksScalar = true })
			n := scalarsOf(off)
			if got := b.Spec().Obs[1].Shape; len(got) != 1 || got[0] != n+1 {
				t.Fatalf("scalars shape %v, want [%d]", got, n+1)
			}
			if step, seat, ok := sameObsPrefix(a, b, 4*n, rand.New(rand.NewPCG(7, uint64(tc.tasks))), 2000); !ok {
				t.Fatalf("step %d seat %d: the observation before the tasks scalar differs", step, seat)
			}
			obs := b.Spec().NewObsBuffers()
			for s := range b.Players() {
				b.WriteObs(s, obs)
				if v, want := scalar(obs[1], n), 1/float32(tc.tasks); v != want {
					t.Errorf("seat %d: tasks scalar %v, want %v", s, v, want)
				}
			}
		})
	}
}

// offAndOn returns a game of cfg and one of a copy of cfg changed by on.
func offAndOn(t *testing.T, cfg *Config, on func(*Config)) (*Game, *Game) {
	t.Helper()
	changed := *cfg
	on(&changed)
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(&changed)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}
