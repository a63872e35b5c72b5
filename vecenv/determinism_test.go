package vecenv_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// short makes bomberman episodes end often: some by elimination, most by
// the round cap.
var short = []byte(`{"max_rounds": 40}`)

// agentFactory adapts a built-in agent to an env.AgentFactory.
func agentFactory(name string) env.AgentFactory {
	return func(spec *env.Spec) (env.Agent, error) {
		return agents.New(spec.Game, name, spec)
	}
}

// mixedConfig is bomberman with learners on seats 0 and 2, a random agent
// on seat 1 and the reference bot on seat 3.
func mixedConfig(numEnvs, workers int, seed uint64, mode vecenv.AutoReset) vecenv.Config {
	return vecenv.Config{
		Game:         "bomberman",
		GameConfig:   short,
		NumEnvs:      numEnvs,
		Seed:         seed,
		Workers:      workers,
		LearnerSeats: []int{0, 2},
		Opponents:    map[int]env.AgentFactory{1: agentFactory("random"), 3: agentFactory("reference")},
		AutoReset:    mode,
	}
}

// actionStream returns a function giving the actions of each step: random
// values in 0..actions-1 (many of them illegal moves) from a fixed seed.
func actionStream(rows, actions int, seed uint64) func() []int32 {
	rng := rand.New(rand.NewPCG(seed, 99))
	buf := make([]int32, rows)
	return func() []int32 {
		for r := range buf {
			buf[r] = int32(rng.IntN(actions))
		}
		return buf
	}
}

// trace runs cfg for steps steps and returns the digest of every step
// (index 0 is the Reset), the final stats and the number of episode ends.
func trace(t *testing.T, cfg vecenv.Config, steps int) ([][32]byte, vecenv.Stats, int) {
	t.Helper()
	return traceOf(t, testutil.NewPool(t, cfg), steps)
}

// traceOf is trace on a pool already made.
func traceOf(t *testing.T, p *vecenv.Pool, steps int) ([][32]byte, vecenv.Stats, int) {
	t.Helper()
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	b := p.Buffers()
	out := [][32]byte{testutil.Digest(b, p.Ended(), p.FinalObs())}
	next := actionStream(p.Rows(), p.Spec().Actions, 5)
	ends := 0
	for range steps {
		if err := p.Step(next()); err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Ended() {
			if e {
				ends++
			}
		}
		out = append(out, testutil.Digest(b, p.Ended(), p.FinalObs()))
	}
	return out, p.Stats(), ends
}

func TestDeterminismAcrossWorkers(t *testing.T) {
	const numEnvs, steps = 12, 150
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			want, wantStats, ends := trace(t, mixedConfig(numEnvs, 1, 42, mode), steps)
			if ends < numEnvs {
				t.Fatalf("only %d row episode ends in %d steps; the test needs many", ends, steps)
			}
			if wantStats.Episodes() == 0 {
				t.Fatal("no episodes completed")
			}
			for _, workers := range []int{2, 7, 1} {
				got, gotStats, _ := trace(t, mixedConfig(numEnvs, workers, 42, mode), steps)
				for s := range want {
					if got[s] != want[s] {
						t.Fatalf("workers=%d: buffers differ from workers=1 at step %d", workers, s)
					}
				}
				if fmt.Sprint(gotStats) != fmt.Sprint(wantStats) {
					t.Errorf("workers=%d: stats %+v, want %+v", workers, gotStats, wantStats)
				}
			}
			other, _, _ := trace(t, mixedConfig(numEnvs, 2, 43, mode), steps)
			if other[0] == want[0] || other[steps] == want[steps] {
				t.Error("pool seeds 42 and 43 give identical buffers")
			}
		})
	}
}

// TestDeterminismAcrossChunks: however many workers each batch wakes, and
// whichever worker takes which chunk, the buffers and stats equal the
// serial pool's: counts forced to change at every step (1, 2, 3, 4 in a
// random order) over more chunks than workers, and a pool left to choose
// its count (Config.Workers 0).
func TestDeterminismAcrossChunks(t *testing.T) {
	const numEnvs, steps = 13, 150
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			want, wantStats, _ := trace(t, mixedConfig(numEnvs, 1, 42, mode), steps)
			forced := testutil.NewPool(t, mixedConfig(numEnvs, 4, 42, mode))
			if c := vecenv.Chunks(forced); c <= forced.Workers() {
				t.Fatalf("%d chunks for %d workers; the test needs more chunks than workers", c, forced.Workers())
			}
			rng := rand.New(rand.NewPCG(3, 3))
			seen := map[int]bool{}
			vecenv.ForceWorkers(forced, func() int {
				k := 1 + rng.IntN(4)
				seen[k] = true
				return k
			})
			for name, p := range map[string]*vecenv.Pool{"forced": forced, "auto": testutil.NewPool(t, mixedConfig(numEnvs, 0, 42, mode))} {
				got, gotStats, _ := traceOf(t, p, steps)
				for s := range want {
					if got[s] != want[s] {
						t.Fatalf("%s: buffers differ from workers=1 at step %d", name, s)
					}
				}
				if fmt.Sprint(gotStats) != fmt.Sprint(wantStats) {
					t.Errorf("%s: stats %+v, want %+v", name, gotStats, wantStats)
				}
			}
			if len(seen) != 4 {
				t.Errorf("forced counts %v, want each of 1..4", seen)
			}
		})
	}
}

// refEnv is one env of the reference: the pool's semantics written as a
// plain loop over envs, straight from the package documentation.
type refEnv struct {
	e       env.Env
	opps    map[int]env.Agent
	episode int
	steps   int
	pending bool
	ret     []float64
}

// reference drives envs like cfg's pool would, without vecenv, writing the
// same buffers; it returns a step function and the stats accumulated by
// hand.
type reference struct {
	cfg      vecenv.Config
	learners []int
	envs     []*refEnv
	buf      *env.Buffers
	ended    []bool
	final    [][]byte
	stats    []vecenv.SeatStats
}

func newReference(t *testing.T, cfg vecenv.Config, oppNames map[int]string) *reference {
	t.Helper()
	r := &reference{cfg: cfg, learners: cfg.LearnerSeats}
	for i := range cfg.NumEnvs {
		e, err := env.Make(cfg.Game, cfg.GameConfig)
		if err != nil {
			t.Fatal(err)
		}
		re := &refEnv{e: e, opps: map[int]env.Agent{}, episode: -1, ret: make([]float64, len(r.learners))}
		for seat, name := range oppNames {
			if re.opps[seat], err = agents.New(cfg.Game, name, e.Spec()); err != nil {
				t.Fatal(err)
			}
		}
		r.envs = append(r.envs, re)
		_ = i
	}
	spec := r.envs[0].e.Spec()
	rows := cfg.NumEnvs * len(r.learners)
	r.buf = env.NewBuffers(spec, rows)
	r.ended = make([]bool, rows)
	if cfg.AutoReset == vecenv.SameStep {
		r.final = make([][]byte, len(spec.Obs))
		for t, tn := range spec.Obs {
			r.final[t] = make([]byte, rows*tn.Bytes())
		}
	}
	for i := range cfg.NumEnvs {
		for k, seat := range r.learners {
			r.buf.Env[i*len(r.learners)+k] = int32(i)
			r.buf.Seat[i*len(r.learners)+k] = int32(seat)
		}
	}
	for _, seat := range r.learners {
		r.stats = append(r.stats, vecenv.SeatStats{Seat: seat})
	}
	return r
}

func (r *reference) newEpisode(i int) {
	re := r.envs[i]
	re.episode++
	re.steps, re.pending = 0, false
	re.e.Reset(vecenv.EpisodeSeed(r.cfg.Seed, i, re.episode))
	for seat, a := range re.opps {
		a.Reset(re.e, seat, vecenv.OpponentSeed(r.cfg.Seed, i, re.episode, seat))
	}
	clear(re.ret)
}

func (r *reference) write(i int, obs [][]byte) {
	e := r.envs[i].e
	for k, seat := range r.learners {
		row := i*len(r.learners) + k
		var dst [][]byte
		for t, tn := range e.Spec().Obs {
			n := tn.Bytes()
			dst = append(dst, obs[t][row*n:(row+1)*n])
		}
		e.WriteObs(seat, dst)
		e.WriteMask(seat, r.buf.RowMask(row))
	}
}

func (r *reference) resetRows(i int) {
	r.newEpisode(i)
	r.write(i, r.buf.Obs)
	for k := range r.learners {
		row := i*len(r.learners) + k
		r.buf.Rewards[row], r.buf.Terminated[row], r.buf.Truncated[row], r.ended[row] = 0, false, false, false
		r.buf.Episode[row] = int32(r.envs[i].episode)
	}
}

func (r *reference) reset() {
	for i := range r.envs {
		r.resetRows(i)
	}
}

func (r *reference) step(actions []int32) {
	L := len(r.learners)
	for i, re := range r.envs {
		if re.pending {
			r.resetRows(i)
			continue
		}
		seats := re.e.Spec().Seats
		acts := make([]int32, seats)
		for k, seat := range r.learners {
			acts[seat] = actions[i*L+k]
		}
		for seat, a := range re.opps {
			acts[seat] = a.Act(re.e, seat)
		}
		rew, term, trunc := make([]float32, seats), make([]bool, seats), make([]bool, seats)
		re.e.Step(acts, rew, term, trunc)
		re.steps++
		done := re.e.Done()
		out := true
		for _, seat := range r.learners {
			out = out && (term[seat] || trunc[seat])
		}
		ended := done || out
		for k, seat := range r.learners {
			row := i*L + k
			r.buf.Rewards[row] = rew[seat]
			r.buf.Terminated[row] = term[seat]
			r.buf.Truncated[row] = trunc[seat] || (ended && !term[seat])
			r.ended[row] = ended
			re.ret[k] += float64(rew[seat])
		}
		if !ended {
			r.write(i, r.buf.Obs)
			continue
		}
		res := re.e.Result()
		for k, seat := range r.learners {
			s := &r.stats[k]
			s.Episodes++
			s.Steps += int64(re.steps)
			s.Return += re.ret[k]
			switch {
			case done && res.Draw:
				s.Draws++
			case res.Winner == seat:
				s.Wins++
			default:
				s.Losses++
			}
		}
		if r.cfg.AutoReset == vecenv.NextStep {
			r.write(i, r.buf.Obs)
			re.pending = true
			continue
		}
		r.write(i, r.final)
		r.resetRows(i)
		for k, seat := range r.learners {
			row := i*L + k
			// resetRows cleared the final step's rewards and flags.
			r.buf.Terminated[row] = term[seat]
			r.buf.Truncated[row] = trunc[seat] || !term[seat]
			r.buf.Rewards[row] = rew[seat]
			r.ended[row] = true
		}
	}
}

// TestMatchesReference compares the pool, on 2 workers, with the plain-loop
// reference above: every buffer byte at every step, and the statistics
// with the ones accumulated by hand.
func TestMatchesReference(t *testing.T) {
	const numEnvs, steps = 8, 160
	for _, tc := range []struct {
		name string
		mode vecenv.AutoReset
		all  bool // every seat a learner, no opponents
	}{
		{"next_step/opponents", vecenv.NextStep, false},
		{"same_step/opponents", vecenv.SameStep, false},
		{"next_step/all_learners", vecenv.NextStep, true},
		{"same_step/all_learners", vecenv.SameStep, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mixedConfig(numEnvs, 2, 7, tc.mode)
			opps := map[int]string{1: "random", 3: "reference"}
			if tc.all {
				cfg.LearnerSeats, cfg.Opponents, opps = []int{0, 1, 2, 3}, nil, nil
			}
			p := testutil.NewPool(t, cfg)
			ref := newReference(t, cfg, opps)
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			ref.reset()
			next := actionStream(p.Rows(), p.Spec().Actions, 11)
			for s := range steps + 1 {
				if got, want := testutil.Digest(p.Buffers(), p.Ended(), p.FinalObs()), testutil.Digest(ref.buf, ref.ended, ref.final); got != want {
					t.Fatalf("step %d: pool buffers differ from the reference", s)
				}
				if s == steps {
					break
				}
				acts := next()
				if err := p.Step(acts); err != nil {
					t.Fatal(err)
				}
				ref.step(acts)
			}
			got := p.Stats()
			t.Logf("stats: %+v", got.Seats)
			if fmt.Sprint(got.Seats) != fmt.Sprint(ref.stats) {
				t.Errorf("stats:\n got %+v\nwant %+v", got.Seats, ref.stats)
			}
			if got.Episodes() < numEnvs {
				t.Errorf("only %d episodes completed", got.Episodes())
			}
			for _, s := range got.Seats {
				if s.Wins+s.Draws+s.Losses != s.Episodes {
					t.Errorf("seat %d: %d wins + %d draws + %d losses != %d episodes", s.Seat, s.Wins, s.Draws, s.Losses, s.Episodes)
				}
			}
			p.ResetStats()
			if st := p.Stats(); st.Episodes() != 0 || st.Seats[0].Return != 0 {
				t.Errorf("after ResetStats: %+v", st)
			}
		})
	}
}
