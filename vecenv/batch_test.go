package vecenv_test

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// randomOpponent plays random toy actions (action 2 takes its seat out)
// from its per-episode seed; with a batcher it is a BatchOpponent.
type randomOpponent struct {
	pcg rand.PCG
	rng *rand.Rand
	b   *countingBatcher // nil: plays through Act
}

func newRandomOpponent(b *countingBatcher) *randomOpponent {
	o := &randomOpponent{b: b}
	o.rng = rand.New(&o.pcg)
	return o
}

func (o *randomOpponent) Reset(_ env.Env, _ int, seed uint64) { o.pcg.Seed(seed, 5) }
func (o *randomOpponent) Act(env.Env, int) int32              { return int32(o.rng.IntN(3)) }

// Batcher returns nil (play through Act) when o has no batcher: a typed nil
// pointer in an interface would not be nil.
func (o *randomOpponent) Batcher() vecenv.Batcher {
	if o.b == nil {
		return nil
	}
	return o.b
}

// countingBatcher batches randomOpponents, checking what the pool hands it.
type countingBatcher struct {
	mu      sync.Mutex
	workers int          // NewBatchWorker calls
	calls   atomic.Int64 // ActBatch calls
	seats   atomic.Int64 // seats computed
	bad     atomic.Value // a string describing a broken promise
}

func (b *countingBatcher) NewBatchWorker(spec *env.Spec, maxSeats int) vecenv.BatchWorker {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.workers++
	return &countingWorker{b: b, max: maxSeats, spec: spec}
}

type countingWorker struct {
	b    *countingBatcher
	max  int
	spec *env.Spec
	busy atomic.Bool
}

func (w *countingWorker) ActBatch(dst []int32, envs []env.Env, seats []int, opps []env.Agent) {
	if !w.busy.CompareAndSwap(false, true) {
		w.b.bad.Store("ActBatch called concurrently on one BatchWorker")
	}
	defer w.busy.Store(false)
	if len(dst) == 0 || len(dst) > w.max || len(envs) != len(dst) || len(seats) != len(dst) || len(opps) != len(dst) {
		w.b.bad.Store("bad slice lengths")
	}
	w.b.calls.Add(1)
	w.b.seats.Add(int64(len(dst)))
	for k := range dst {
		if envs[k].Done() {
			w.b.bad.Store("an env that resets this step was gathered")
		}
		if s := envs[k].Spec(); s.Game != w.spec.Game || s.Seats != w.spec.Seats {
			w.b.bad.Store("an env of another spec")
		}
		dst[k] = opps[k].Act(envs[k], seats[k])
	}
}

// batchConfig is the toy game with 4 seats: learner seat 1, randomOpponents
// on seats 0, 2 and 3, all sharing b (nil: no batching).
func batchConfig(workers int, mode vecenv.AutoReset, b *countingBatcher) vecenv.Config {
	f := func(*env.Spec) (env.Agent, error) { return newRandomOpponent(b), nil }
	return vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 4, "length": 5}`),
		NumEnvs: 10, Seed: 8, Workers: workers, AutoReset: mode,
		LearnerSeats: []int{1},
		Opponents:    map[int]env.AgentFactory{0: f, 2: f, 3: f},
	}
}

// TestBatchOpponentsMatchAct: opponents computed through a shared Batcher
// give the same buffers as the same opponents playing through Act, for any
// worker count and both autoreset modes; each worker gets one BatchWorker,
// a step makes at most one ActBatch call per chunk of envs, and envs that
// reset instead of stepping are left out.
func TestBatchOpponentsMatchAct(t *testing.T) {
	const steps = 40
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			want, _, ends := trace(t, batchConfig(1, mode, nil), steps)
			if ends == 0 {
				t.Fatal("no episode ended")
			}
			for _, workers := range []int{1, 2, 3, 10} {
				b := &countingBatcher{}
				got, _, _ := trace(t, batchConfig(workers, mode, b), steps)
				chunks := vecenv.Chunks(testutil.NewPool(t, batchConfig(workers, mode, nil)))
				for s := range want {
					if got[s] != want[s] {
						t.Fatalf("%d workers: batched buffers differ from Act at step %d", workers, s)
					}
				}
				if bad := b.bad.Load(); bad != nil {
					t.Errorf("%d workers: %s", workers, bad)
				}
				if b.workers != workers {
					t.Errorf("%d workers: %d BatchWorkers, want one per worker", workers, b.workers)
				}
				if c := b.calls.Load(); c == 0 || c > int64(steps*chunks) {
					t.Errorf("%d workers: %d ActBatch calls in %d steps of %d chunks", workers, c, steps, chunks)
				}
				if mode == vecenv.NextStep && b.seats.Load() >= int64(steps*10*3) {
					t.Errorf("%d workers: %d seats computed; resetting envs were not left out", workers, b.seats.Load())
				}
			}
		})
	}
}

// TestBatchOpponentsDoNotAllocate: Step with batched opponents allocates
// nothing after warm-up.
func TestBatchOpponentsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := testutil.NewPool(t, batchConfig(1, vecenv.NextStep, &countingBatcher{}))
	p.Reset()
	acts := make([]int32, p.Rows())
	p.Step(acts)
	if n := testing.AllocsPerRun(100, func() { p.Step(acts) }); n != 0 {
		t.Errorf("%v allocations per Step, want 0", n)
	}
}
