package vecenv_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// toyPool makes a pool of the toy game (2 seats, 3 steps per episode
// unless configured otherwise).
func toyPool(t *testing.T, cfg vecenv.Config) *vecenv.Pool {
	t.Helper()
	cfg.Game = "toy"
	cfg.Registry = toyRegistry()
	if cfg.NumEnvs == 0 {
		cfg.NumEnvs = 3
	}
	return testutil.NewPool(t, cfg)
}

// obsOf returns row r's toy observation: [seat, steps, last action, seed].
func obsOf(p *vecenv.Pool, r int) []byte { return p.Buffers().Obs[0][r*4 : r*4+4] }

func step(t *testing.T, p *vecenv.Pool, a ...int32) {
	t.Helper()
	acts := make([]int32, p.Rows())
	for r := range acts {
		acts[r] = a[r%len(a)]
	}
	if err := p.Step(acts); err != nil {
		t.Fatal(err)
	}
}

func TestAutoResetNextStep(t *testing.T) {
	p := toyPool(t, vecenv.Config{Workers: 2})
	b := p.Buffers()
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for r := range p.Rows() {
		if b.Env[r] != int32(r/2) || b.Seat[r] != int32(r%2) || b.Episode[r] != 0 {
			t.Fatalf("row %d: env %d seat %d episode %d", r, b.Env[r], b.Seat[r], b.Episode[r])
		}
		if o := obsOf(p, r); o[1] != 0 || o[3] != byte(vecenv.EpisodeSeed(0, r/2, 0)) {
			t.Fatalf("row %d: reset obs %v", r, o)
		}
	}
	step(t, p, 1)
	step(t, p, 1)
	for r := range p.Rows() {
		if b.Terminated[r] || b.Truncated[r] || p.Ended()[r] || b.Rewards[r] != 1 || obsOf(p, r)[1] != 2 {
			t.Fatalf("step 2, row %d: term %v trunc %v ended %v reward %v obs %v", r, b.Terminated[r], b.Truncated[r], p.Ended()[r], b.Rewards[r], obsOf(p, r))
		}
	}
	step(t, p, 0) // the third step ends every episode by the cap
	for r := range p.Rows() {
		if b.Terminated[r] || !b.Truncated[r] || !p.Ended()[r] || b.Rewards[r] != 0 || b.Episode[r] != 0 {
			t.Fatalf("final step, row %d: term %v trunc %v ended %v reward %v episode %d", r, b.Terminated[r], b.Truncated[r], p.Ended()[r], b.Rewards[r], b.Episode[r])
		}
		if o := obsOf(p, r); o[1] != 3 || o[2] != 0 {
			t.Fatalf("final step, row %d: obs %v, want the final observation", r, o)
		}
	}
	if p.FinalObs() != nil {
		t.Error("FinalObs is not nil in next-step mode")
	}
	step(t, p, 2) // ignored: the envs reset
	for r := range p.Rows() {
		if b.Terminated[r] || b.Truncated[r] || p.Ended()[r] || b.Rewards[r] != 0 || b.Episode[r] != 1 {
			t.Fatalf("reset step, row %d: term %v trunc %v ended %v reward %v episode %d", r, b.Terminated[r], b.Truncated[r], p.Ended()[r], b.Rewards[r], b.Episode[r])
		}
		if o := obsOf(p, r); o[1] != 0 || o[2] != 0 || o[3] != byte(vecenv.EpisodeSeed(0, r/2, 1)) {
			t.Fatalf("reset step, row %d: obs %v, want the first observation of episode 1", r, o)
		}
	}
	step(t, p, 1)
	if o := obsOf(p, 0); o[1] != 1 || o[2] != 1 || b.Rewards[0] != 1 {
		t.Fatalf("after the reset step: obs %v reward %v", o, b.Rewards[0])
	}
	st := p.Stats()
	if st.Episodes() != 3 || st.Seats[0].Steps != 9 || st.Seats[0].Return != 6 || st.Seats[0].Draws != 3 {
		t.Errorf("stats %+v, want 3 drawn episodes of 3 steps and return 2 each", st)
	}
}

func TestAutoResetSameStep(t *testing.T) {
	p := toyPool(t, vecenv.Config{Workers: 2, AutoReset: vecenv.SameStep})
	b := p.Buffers()
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	step(t, p, 1)
	step(t, p, 1)
	step(t, p, 0, 1) // seat 1 wins on return
	for r := range p.Rows() {
		want := float32(r % 2)
		if b.Terminated[r] || !b.Truncated[r] || !p.Ended()[r] || b.Rewards[r] != want || b.Episode[r] != 1 {
			t.Fatalf("final step, row %d: term %v trunc %v ended %v reward %v episode %d", r, b.Terminated[r], b.Truncated[r], p.Ended()[r], b.Rewards[r], b.Episode[r])
		}
		if o := obsOf(p, r); o[1] != 0 || o[3] != byte(vecenv.EpisodeSeed(0, r/2, 1)) {
			t.Fatalf("final step, row %d: obs %v, want the first observation of episode 1", r, o)
		}
		if f := p.FinalObs()[0][r*4 : r*4+4]; f[0] != byte(r%2) || f[1] != 3 || f[2] != byte(want) || f[3] != byte(vecenv.EpisodeSeed(0, r/2, 0)) {
			t.Fatalf("final step, row %d: final obs %v", r, f)
		}
	}
	step(t, p, 1)
	for r := range p.Rows() {
		if b.Truncated[r] || p.Ended()[r] || b.Rewards[r] != 1 || obsOf(p, r)[1] != 1 {
			t.Fatalf("next step, row %d: the new episode did not go on (trunc %v ended %v reward %v obs %v)", r, b.Truncated[r], p.Ended()[r], b.Rewards[r], obsOf(p, r))
		}
	}
	st := p.Stats()
	if st.Seats[0].Losses != 3 || st.Seats[1].Wins != 3 || st.Seats[1].Return != 9 || st.Seats[0].MeanLength() != 3 {
		t.Errorf("stats %+v, want seat 1 winning 3 episodes of return 3", st)
	}
}

// TestEpisodeEndsWhenLearnersAreOut checks the two ways a seat can be out:
// the only learner seat (the episode ends) and one of two learner seats
// (the env plays on and the row stays terminated).
func TestEpisodeEndsWhenLearnersAreOut(t *testing.T) {
	t.Run("single_learner", func(t *testing.T) {
		p := toyPool(t, vecenv.Config{
			NumEnvs:      2,
			GameConfig:   []byte(`{"length": 10}`),
			LearnerSeats: []int{0},
			Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) {
				return &fixedOpponent{action: 1}, nil
			}},
		})
		p.Reset()
		step(t, p, 2)
		b := p.Buffers()
		for r := range p.Rows() {
			if !b.Terminated[r] || b.Truncated[r] || !p.Ended()[r] || p.Env(r).Done() {
				t.Fatalf("row %d: term %v trunc %v ended %v done %v", r, b.Terminated[r], b.Truncated[r], p.Ended()[r], p.Env(r).Done())
			}
		}
		step(t, p, 1)
		if b.Episode[0] != 1 || b.Terminated[0] || obsOf(p, 0)[1] != 0 {
			t.Fatalf("the env did not reset: episode %d obs %v", b.Episode[0], obsOf(p, 0))
		}
		st := p.Stats().Seats[0]
		// The toy's winner is the best return so far: the learner's 2.
		if st.Episodes != 2 || st.Wins != 2 || st.Return != 4 || st.Steps != 2 {
			t.Errorf("stats %+v, want 2 won episodes of 1 step and return 2", st)
		}
	})
	t.Run("one_of_two_learners", func(t *testing.T) {
		p := toyPool(t, vecenv.Config{NumEnvs: 1, GameConfig: []byte(`{"length": 10}`)})
		p.Reset()
		step(t, p, 2, 1)
		b := p.Buffers()
		if !b.Terminated[0] || b.Terminated[1] || p.Ended()[0] || p.Ended()[1] {
			t.Fatalf("term %v ended %v", b.Terminated, p.Ended())
		}
		step(t, p, 1, 1)
		if !b.Terminated[0] || b.Rewards[0] != 0 || b.Rewards[1] != 1 || p.Ended()[0] || b.Episode[0] != 0 {
			t.Fatalf("seat 0 out, env on: term %v rewards %v ended %v", b.Terminated, b.Rewards, p.Ended())
		}
		step(t, p, 0, 2)
		if !b.Terminated[0] || !b.Terminated[1] || !p.Ended()[0] || !p.Ended()[1] {
			t.Fatalf("both out: term %v ended %v", b.Terminated, p.Ended())
		}
	})
}

func TestResetBumpsEpisodes(t *testing.T) {
	p := toyPool(t, vecenv.Config{})
	b := p.Buffers()
	if err := p.Step(make([]int32, p.Rows())); !errors.Is(err, vecenv.ErrNotReset) {
		t.Fatalf("Step before Reset: %v, want ErrNotReset", err)
	}
	for ep := range int32(3) {
		if err := p.Reset(); err != nil {
			t.Fatal(err)
		}
		step(t, p, 1)
		for r := range p.Rows() {
			if b.Episode[r] != ep {
				t.Fatalf("after Reset %d: row %d episode %d", ep, r, b.Episode[r])
			}
		}
	}
	if n := p.Stats().Episodes(); n != 0 {
		t.Errorf("%d episodes counted; Reset drops episodes in progress", n)
	}
}

func TestOpponentsPerEnv(t *testing.T) {
	var made []*fixedOpponent
	p := toyPool(t, vecenv.Config{
		NumEnvs:      4,
		Seed:         9,
		LearnerSeats: []int{1},
		Opponents: map[int]env.AgentFactory{0: func(*env.Spec) (env.Agent, error) {
			o := &fixedOpponent{action: 1}
			made = append(made, o)
			return o, nil
		}},
	})
	if len(made) != 4 {
		t.Fatalf("%d opponents made for 4 envs", len(made))
	}
	p.Reset()
	for i, o := range made {
		if o.resets != 1 || o.seed != vecenv.OpponentSeed(9, i, 0, 0) {
			t.Errorf("env %d: opponent reset %d times with seed %d", i, o.resets, o.seed)
		}
		if got := obsOf(p, i); got[0] != 1 {
			t.Errorf("row %d shows seat %d, want the learner seat 1", i, got[0])
		}
	}
	step(t, p, 0)
	for i := range made {
		// The opponent's action 1 shows in its env's return stats later;
		// here, its seat 0 must have acted: the env's last action of seat 0.
		if g := p.Env(i); g.Steps() != 1 {
			t.Errorf("env %d: %d steps", i, g.Steps())
		}
	}
}

func TestOpponentPanicReachesCaller(t *testing.T) {
	p := toyPool(t, vecenv.Config{
		NumEnvs:      4,
		Workers:      2,
		LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) {
			return &fixedOpponent{panicAt: 1}, nil
		}},
	})
	p.Reset()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(error).Error(), "fixedOpponent: boom") {
			t.Fatalf("recovered %v, want the opponent's panic", r)
		}
	}()
	step(t, p, 0)
}

func TestCloseTwice(t *testing.T) {
	before := runtime.NumGoroutine()
	p, err := vecenv.New(vecenv.Config{Game: "toy", Registry: toyRegistry(), NumEnvs: 8, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p.Workers() != 4 {
		t.Fatalf("%d workers", p.Workers())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Step(make([]int32, p.Rows())); !errors.Is(err, vecenv.ErrClosed) {
		t.Errorf("Step after Close: %v", err)
	}
	if err := p.Reset(); !errors.Is(err, vecenv.ErrClosed) {
		t.Errorf("Reset after Close: %v", err)
	}
	// A goroutine of an earlier test may still be on its way out when
	// before is read: give the count a moment to settle before judging.
	after := runtime.NumGoroutine()
	for i := 0; i < 200 && after > before; i++ {
		time.Sleep(5 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Errorf("%d goroutines after Close, %d before", after, before)
	}
}

func TestDefaults(t *testing.T) {
	p := testutil.NewPool(t, vecenv.Config{Game: "toy", Registry: toyRegistry(), NumEnvs: 1000})
	if want := runtime.GOMAXPROCS(0); p.Workers() != want {
		t.Errorf("Workers() = %d, want GOMAXPROCS = %d", p.Workers(), want)
	}
	if p.AutoReset() != vecenv.NextStep || p.Rows() != 2000 || len(p.LearnerSeats()) != 2 {
		t.Errorf("mode %v rows %d learners %v", p.AutoReset(), p.Rows(), p.LearnerSeats())
	}
	if err := p.Buffers().Check(); err != nil {
		t.Error(err)
	}
	q := testutil.NewPool(t, vecenv.Config{Game: "toy", Registry: toyRegistry(), NumEnvs: 3, Workers: 16})
	if q.Workers() != 3 {
		t.Errorf("Workers() = %d with 3 envs, want 3", q.Workers())
	}
	for _, s := range []string{"", "next_step", "same_step"} {
		m, err := vecenv.ParseAutoReset(s)
		if err != nil || (s != "" && m.String() != s) {
			t.Errorf("ParseAutoReset(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := vecenv.ParseAutoReset("eager"); err == nil {
		t.Error("ParseAutoReset(eager) succeeded")
	}
}

func TestConfigErrors(t *testing.T) {
	reg := toyRegistry()
	opp := func(*env.Spec) (env.Agent, error) { return &fixedOpponent{}, nil }
	for _, tc := range []struct {
		name string
		cfg  vecenv.Config
		want string // a substring of the error
	}{
		{"no_game", vecenv.Config{NumEnvs: 1}, "config Game: is required"},
		{"unknown_game", vecenv.Config{Game: "chess", NumEnvs: 1}, `unknown game "chess"`},
		{"bad_game_config", vecenv.Config{Game: "toy", GameConfig: []byte(`{"seats": 0}`), NumEnvs: 1}, "seats: must be 1..8, got 0"},
		{"unknown_game_field", vecenv.Config{Game: "toy", GameConfig: []byte(`{"colour": 1}`), NumEnvs: 1}, "colour"},
		{"zero_envs", vecenv.Config{Game: "toy"}, "config NumEnvs: must be at least 1, got 0"},
		{"negative_workers", vecenv.Config{Game: "toy", NumEnvs: 1, Workers: -1}, "config Workers: must be 0 (GOMAXPROCS) or more, got -1"},
		{"bad_autoreset", vecenv.Config{Game: "toy", NumEnvs: 1, AutoReset: 7}, "config AutoReset"},
		{"learner_out_of_range", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0, 2}}, "config LearnerSeats[1]: must be a seat in 0..1 of toy, got 2"},
		{"learner_negative", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{-1}}, "config LearnerSeats[0]: must be a seat in 0..1 of toy, got -1"},
		{"learner_twice", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{1, 1}}, "config LearnerSeats[1]: must not repeat a seat, got 1"},
		{"missing_opponent", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0}}, "config Opponents: must have a factory for every seat that is not a learner seat, got no factory for seat 1"},
		{"opponent_on_learner", vecenv.Config{Game: "toy", NumEnvs: 1, Opponents: map[int]env.AgentFactory{0: opp}}, "config Opponents[0]: must not be a learner seat"},
		{"opponent_bad_seat", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]env.AgentFactory{1: opp, 5: opp}}, "config Opponents[5]: must be a seat in 0..1 of toy, got 5"},
		{"nil_factory", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]env.AgentFactory{1: nil}}, "config Opponents[1]: must be a factory"},
		{"factory_error", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) {
			return nil, errors.New("no such bot")
		}}}, "config Opponents[1]: no such bot"},
		{"factory_nil_opponent", vecenv.Config{Game: "toy", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) {
			return nil, nil
		}}}, "config Opponents[1]: factory returned a nil env.Agent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cfg.Registry == nil && tc.cfg.Game != "chess" {
				tc.cfg.Registry = reg
			}
			p, err := vecenv.New(tc.cfg)
			if err == nil {
				p.Close()
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
			if tc.name == "unknown_game" && !errors.Is(err, env.ErrUnknownGame) {
				t.Errorf("error %q does not wrap env.ErrUnknownGame", err)
			}
		})
	}
}

func TestStepErrors(t *testing.T) {
	p := toyPool(t, vecenv.Config{NumEnvs: 2}) // 4 rows, 3 actions
	p.Reset()
	before := testutil.Digest(p.Buffers(), p.Ended(), p.FinalObs())
	for _, tc := range []struct {
		name    string
		actions []int32
		want    string
	}{
		{"nil", nil, "got 0 actions, want 4 (one per row: 2 envs × 2 learner seats)"},
		{"short", []int32{0, 0, 0}, "got 3 actions, want 4"},
		{"long", []int32{0, 0, 0, 0, 0}, "got 5 actions, want 4"},
		{"too_big", []int32{0, 0, 3, 0}, "action 3 at row 2 (env 1, seat 0) is outside 0..2"},
		{"negative", []int32{0, -1, 0, 9}, "action -1 at row 1 (env 0, seat 1) is outside 0..2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := p.Step(tc.actions)
			if !errors.Is(err, vecenv.ErrActions) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Step: %v, want ErrActions with %q", err, tc.want)
			}
		})
	}
	if testutil.Digest(p.Buffers(), p.Ended(), p.FinalObs()) != before || p.Env(0).Steps() != 0 {
		t.Error("a rejected Step changed the pool")
	}
}

// TestDispatchStress runs many short batches on 1 to 7 workers, with pauses
// long enough for the workers to park, and compares every step with the
// serial pool.
func TestDispatchStress(t *testing.T) {
	const steps = 1500
	run := func(workers int) [][32]byte {
		p := toyPool(t, vecenv.Config{NumEnvs: 13, Workers: workers, AutoReset: vecenv.SameStep, GameConfig: []byte(`{"length": 5}`)})
		p.Reset()
		next := actionStream(p.Rows(), p.Spec().Actions, 3)
		var out [][32]byte
		for s := range steps {
			if s%100 == 0 {
				time.Sleep(200 * time.Microsecond)
			}
			if err := p.Step(next()); err != nil {
				t.Fatal(err)
			}
			out = append(out, testutil.Digest(p.Buffers(), p.Ended(), p.FinalObs()))
		}
		return out
	}
	want := run(1)
	for workers := 2; workers <= 7; workers++ {
		got := run(workers)
		for s := range want {
			if got[s] != want[s] {
				t.Fatalf("workers=%d: step %d differs from workers=1", workers, s)
			}
		}
	}
}
