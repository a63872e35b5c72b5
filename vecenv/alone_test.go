package vecenv_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// waitingOpponent stands for an external bot: each Act waits for its
// answer, and the most waits in flight at once is recorded.
type waitingOpponent struct{ inFlight, most *atomic.Int32 }

func (o *waitingOpponent) Reset(env.Env, int, uint64) {}
func (o *waitingOpponent) Act(env.Env, int) int32 {
	n := o.inFlight.Add(1)
	defer o.inFlight.Add(-1)
	for m := o.most.Load(); n > m && !o.most.CompareAndSwap(m, n); m = o.most.Load() {
	}
	time.Sleep(50 * time.Millisecond)
	return 0
}

// A pool whose workers sat out a short batch (a Reset that took
// microseconds) still spreads a long one over them: once the caller alone
// has run past a few wake-ups' time with chunks left, it wakes the workers,
// so the envs' waits overlap. (The test counts waits in flight; it does
// not time the step.)
func TestWorkersJoinABatchThatProvesLong(t *testing.T) {
	var inFlight, most atomic.Int32
	const envs = 8
	p, err := vecenv.New(vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 2, "length": 50}`),
		NumEnvs: envs, Workers: 4, Seed: 1, LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) {
			return &waitingOpponent{&inFlight, &most}, nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for range 3 { // short batches the workers may be too late for
		if err := p.Reset(); err != nil {
			t.Fatal(err)
		}
	}
	most.Store(0)
	if err := p.Step(make([]int32, p.Rows())); err != nil {
		t.Fatal(err)
	}
	if got := most.Load(); got < 2 {
		t.Errorf("at most %d wait in flight at once: the step ran on the caller alone", got)
	}
}
