package policy

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// unbatched hides an agent's Batcher, so that the pool calls its Act: the
// reference the batched pool must match.
type unbatched struct{ env.Agent }

// opponent returns a factory for the agent spec; with batched false the
// agent plays through Act.
func opponent(spec string, batched bool) env.AgentFactory {
	return func(s *env.Spec) (env.Agent, error) {
		a, err := agents.New(s.Game, spec, s)
		if err != nil || batched {
			return a, err
		}
		return unbatched{a}, nil
	}
}

// policyPools are pool configs with policy opponents: battlebots with one
// sampling policy seat, and battlecube with three opponent seats (arg-max,
// sampling, and a built-in agent between them), all with short episodes
// so that envs reset during the run.
func policyPools(workers int, batched bool) map[string]vecenv.Config {
	bots := "policy:" + fixturePath
	cube := "policy:" + filepath.Join("testdata", "battlecube.policy.safetensors")
	return map[string]vecenv.Config{
		"battlebots": {
			Game: "battlebots", GameConfig: []byte(`{"max_rounds": 9}`), NumEnvs: 9, Seed: 11, Workers: workers,
			LearnerSeats: []int{0},
			Opponents:    map[int]env.AgentFactory{1: opponent(bots+"?sample", batched)},
		},
		"battlecube": {
			Game: "battlecube", GameConfig: []byte(`{"max_ticks": 7}`), NumEnvs: 5, Seed: 12, Workers: workers,
			LearnerSeats: []int{2}, AutoReset: vecenv.SameStep,
			Opponents: map[int]env.AgentFactory{
				0: opponent(cube, batched),
				1: opponent("random", batched),
				3: opponent(cube+"?sample", batched),
			},
		},
	}
}

// poolTrace runs cfg for steps steps with random learner actions and
// returns a digest of every step's buffers.
func poolTrace(t *testing.T, cfg vecenv.Config, steps int) [][32]byte {
	t.Helper()
	p := testutil.NewPool(t, cfg)
	p.Reset()
	rng := rand.New(rand.NewPCG(3, 4))
	acts := make([]int32, p.Rows())
	b := p.Buffers()
	var out [][32]byte
	ends := 0
	for range steps {
		for r := range acts {
			acts[r] = int32(rng.IntN(p.Spec().Actions))
		}
		if err := p.Step(acts); err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Ended() {
			if e {
				ends++
			}
		}
		out = append(out, testutil.Digest(b, p.Ended(), p.FinalObs()))
	}
	if ends == 0 {
		t.Fatal("no episode ended; the test wants resets")
	}
	return out
}

// TestPoolDeterminismAcrossWorkers: pools with policy opponents (arg-max
// and sampling) give byte-identical buffers for any worker count, and the
// same as calling each agent's Act (no batching).
func TestPoolDeterminismAcrossWorkers(t *testing.T) {
	const steps = 20
	for name := range policyPools(1, true) {
		t.Run(name, func(t *testing.T) {
			want := poolTrace(t, policyPools(1, false)[name], steps)
			for _, workers := range []int{1, 2, 3} {
				got := poolTrace(t, policyPools(workers, true)[name], steps)
				for s := range want {
					if got[s] != want[s] {
						t.Fatalf("batched, %d workers: buffers differ from unbatched Act at step %d", workers, s)
					}
				}
			}
			other := policyPools(2, true)[name]
			other.Seed++
			got, differ := poolTrace(t, other, steps), false
			for s := range want {
				differ = differ || got[s] != want[s]
			}
			if !differ {
				t.Error("another pool seed gives the same buffers")
			}
		})
	}
}

// TestPoolStepDoesNotAllocate: a battlebots pool with a policy opponent
// allocates nothing per Step after warm-up (one worker: exactly 0; two:
// only the runtime's rare channel waiter records, as vecenv's
// TestBombermanStepAllocations explains).
func TestPoolStepDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, workers := range []int{1, 2} {
		for _, spec := range []string{"policy:" + fixturePath, "policy:" + fixturePath + "?sample"} {
			p := testutil.NewPool(t, vecenv.Config{
				Game: "battlebots", GameConfig: []byte(`{"max_rounds": 5}`), NumEnvs: 40, Seed: 1, Workers: workers,
				LearnerSeats: []int{0},
				Opponents:    map[int]env.AgentFactory{1: opponent(spec, true)},
			})
			p.Reset()
			acts := make([]int32, p.Rows())
			for range 20 {
				p.Step(acts)
			}
			if workers == 1 {
				if n := testing.AllocsPerRun(30, func() { p.Step(acts) }); n != 0 {
					t.Errorf("%s, 1 worker: %v allocations per Step, want 0", spec, n)
				}
				continue
			}
			const steps = 60
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range steps {
				p.Step(acts)
			}
			runtime.ReadMemStats(&after)
			if n := after.Mallocs - before.Mallocs; n > steps/4 {
				t.Errorf("%s, 2 workers: %d allocations in %d steps", spec, n, steps)
			}
		}
	}
}
