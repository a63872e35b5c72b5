package vecenv_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// counted is a fixedOpponent that counts its factory's instances and their
// Close calls.
type counted struct {
	fixedOpponent
	closes *atomic.Int64
}

func (o *counted) Close() error { o.closes.Add(1); return nil }

type counter struct{ made, closed atomic.Int64 }

func (c *counter) factory(action int32) env.AgentFactory {
	return func(*env.Spec) (env.Agent, error) {
		c.made.Add(1)
		return &counted{fixedOpponent: fixedOpponent{action: action}, closes: &c.closed}, nil
	}
}

func fixed(action int32) env.AgentFactory {
	return func(*env.Spec) (env.Agent, error) { return &fixedOpponent{action: action}, nil }
}

func randomFactory(b *countingBatcher) env.AgentFactory {
	return func(*env.Spec) (env.Agent, error) { return newRandomOpponent(b), nil }
}

// mixConfig is the toy game with 3 seats and 5 steps: learner seat 1,
// opponents on seats 0 and 2 (fixed action 0 to start with).
func mixConfig(workers int, mode vecenv.AutoReset) vecenv.Config {
	return vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 3, "length": 5}`),
		NumEnvs: 12, Seed: 21, Workers: workers, AutoReset: mode,
		LearnerSeats:  []int{1},
		Opponents:     map[int]env.AgentFactory{0: fixed(0), 2: fixed(0)},
		OpponentNames: map[int]string{0: "zero", 2: "zero"},
	}
}

// mixTrace runs a pool of cfg for 60 steps, changing the mixtures at steps
// 0 (before the first Reset), 15, 30 and 45, and returns every step's
// digest and the final stats. b batches the random choices.
func mixTrace(t *testing.T, cfg vecenv.Config, b *countingBatcher) ([][32]byte, vecenv.Stats) {
	t.Helper()
	p := testutil.NewPool(t, cfg)
	set := func(seat int, cs ...vecenv.OpponentChoice) {
		t.Helper()
		if err := p.SetOpponents(seat, cs); err != nil {
			t.Fatal(err)
		}
	}
	set(0, vecenv.OpponentChoice{Name: "zero", Factory: fixed(0), Weight: 1}, vecenv.OpponentChoice{Name: "one", Factory: fixed(1), Weight: 2})
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	buf := p.Buffers()
	out := [][32]byte{testutil.Digest(buf, p.Ended(), p.FinalObs())}
	next := actionStream(p.Rows(), p.Spec().Actions, 7)
	for s := 1; s <= 60; s++ {
		switch s {
		case 15:
			set(2, vecenv.OpponentChoice{Name: "random", Factory: randomFactory(b), Weight: 1}, vecenv.OpponentChoice{Name: "zero", Factory: fixed(0), Weight: 1})
		case 30:
			set(0, vecenv.OpponentChoice{Name: "random", Factory: randomFactory(b), Weight: 3}, vecenv.OpponentChoice{Name: "one", Factory: fixed(1), Weight: 1})
		case 45:
			set(2, vecenv.OpponentChoice{Name: "one", Factory: fixed(1), Weight: 1}, vecenv.OpponentChoice{Name: "random", Factory: randomFactory(b), Weight: 0.5})
		}
		if err := p.Step(next()); err != nil {
			t.Fatal(err)
		}
		out = append(out, testutil.Digest(buf, p.Ended(), p.FinalObs()))
	}
	return out, p.Stats()
}

// TestSetOpponentsDeterminism: with mixtures changed between steps, the
// buffers and statistics are identical for any worker count, batched or
// not, in both autoreset modes, and every choice plays.
func TestSetOpponentsDeterminism(t *testing.T) {
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			want, wantSt := mixTrace(t, mixConfig(1, mode), nil)
			for _, workers := range []int{1, 2, 3, 12} {
				b := &countingBatcher{}
				got, st := mixTrace(t, mixConfig(workers, mode), b)
				for s := range want {
					if got[s] != want[s] {
						t.Fatalf("%d workers (batched): buffers differ at step %d", workers, s)
					}
				}
				if bad := b.bad.Load(); bad != nil {
					t.Errorf("%d workers: %s", workers, bad)
				}
				if b.calls.Load() == 0 {
					t.Errorf("%d workers: the batched choice never played", workers)
				}
				if len(st.Opponents) != len(wantSt.Opponents) {
					t.Fatalf("%d workers: %d opponent stats, want %d", workers, len(st.Opponents), len(wantSt.Opponents))
				}
				for k := range st.Opponents {
					if st.Opponents[k] != wantSt.Opponents[k] {
						t.Errorf("%d workers: opponent stats %+v, want %+v", workers, st.Opponents[k], wantSt.Opponents[k])
					}
				}
			}
			// Per seat, the choices' episodes add up to the pool's.
			total := map[int]int64{}
			for _, o := range wantSt.Opponents {
				total[o.Seat] += o.Episodes
				if o.Wins+o.Draws+o.Losses != o.Episodes {
					t.Errorf("%+v: outcomes do not add up", o)
				}
			}
			if total[0] != wantSt.Episodes() || total[2] != wantSt.Episodes() {
				t.Errorf("choices' episodes %v, want %d per seat", total, wantSt.Episodes())
			}
			played := map[string]bool{}
			for _, o := range wantSt.Opponents {
				if o.Episodes > 0 {
					played[o.Name] = true
				}
			}
			for _, name := range []string{"zero", "one", "random"} {
				if !played[name] {
					t.Errorf("choice %q never played: %+v", name, wantSt.Opponents)
				}
			}
		})
	}
}

// TestSetOpponentsChangesResults: the choice drawn decides who plays, and
// the per-opponent stats tell the results apart: the learner (action 0,
// return 0) draws with an opponent playing 0 and loses to one playing 1.
func TestSetOpponentsChangesResults(t *testing.T) {
	p := toyPool(t, vecenv.Config{
		NumEnvs: 8, Seed: 3, LearnerSeats: []int{0},
		Opponents:     map[int]env.AgentFactory{1: fixed(0)},
		OpponentNames: map[int]string{1: "stay"},
	})
	if err := p.SetOpponents(1, []vecenv.OpponentChoice{
		{Name: "stay", Factory: fixed(0), Weight: 1},
		{Name: "one", Factory: fixed(1), Weight: 1},
	}); err != nil {
		t.Fatal(err)
	}
	p.Reset()
	seen := map[string]bool{}
	for range 40 {
		for i := range p.NumEnvs() {
			seen[p.Opponent(i, 1)] = true
		}
		step(t, p, 0)
	}
	if !seen["stay"] || !seen["one"] || len(seen) != 2 {
		t.Errorf("Opponent names seen: %v", seen)
	}
	by := map[string]vecenv.OpponentStats{}
	for _, o := range p.Stats().Opponents {
		by[o.Name] = o
	}
	if s := by["stay"]; s.Episodes == 0 || s.Draws != s.Episodes {
		t.Errorf("against stay: %+v, want only draws", s)
	}
	if s := by["one"]; s.Episodes == 0 || s.Losses != s.Episodes {
		t.Errorf("against one: %+v, want only losses", s)
	}
	if p.Opponent(0, 0) != "" {
		t.Errorf("Opponent of a learner seat: %q, want \"\"", p.Opponent(0, 0))
	}
}

// TestSetOpponentsLazyAndClose: instances are made when an env first draws
// a choice, kept across episodes, and closed once the choice is removed and
// no episode plays against it; Close closes the rest.
func TestSetOpponentsLazyAndClose(t *testing.T) {
	var a, b counter
	p, err := vecenv.New(vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 2, "length": 4}`),
		NumEnvs: 6, Seed: 5, Workers: 2, LearnerSeats: []int{1},
		Opponents: map[int]env.AgentFactory{0: a.factory(0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if a.made.Load() != 6 {
		t.Fatalf("New made %d instances, want 6", a.made.Load())
	}
	if err := p.SetOpponents(0, []vecenv.OpponentChoice{{Name: "b", Factory: b.factory(1), Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	if n := a.closed.Load(); n != 0 {
		t.Errorf("%d instances of a closed by SetOpponents, want 0 (closed before the next Reset or Step)", n)
	}
	p.Reset()
	if n := a.closed.Load(); n != 6 {
		t.Errorf("%d instances of a closed by Reset, want 6", n)
	}
	if n := b.made.Load(); n != 6 {
		t.Errorf("%d instances of b after Reset, want 6 (one per env)", n)
	}
	for range 20 {
		step(t, p, 0)
	}
	if n := b.made.Load(); n != 6 {
		t.Errorf("%d instances of b after 20 steps, want 6 (kept across episodes)", n)
	}

	// Mid-episode: the removed choice stays until its episodes end.
	var c counter
	step(t, p, 0) // every env is inside an episode now or resets next
	if err := p.SetOpponents(0, []vecenv.OpponentChoice{{Name: "c", Factory: c.factory(0), Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	if n := c.made.Load(); n != 1 {
		t.Errorf("SetOpponents made %d instances of c, want 1 (the others on first use)", n)
	}
	stillB := false
	for i := range p.NumEnvs() {
		stillB = stillB || p.Opponent(i, 0) == "b"
	}
	if !stillB {
		t.Error("episodes in progress switched opponents")
	}
	for range 12 {
		step(t, p, 0)
	}
	if n := b.closed.Load(); n != 6 {
		t.Errorf("%d instances of b closed after its episodes ended, want 6", n)
	}
	st := p.Stats()
	names := []string{}
	for _, o := range st.Opponents {
		names = append(names, o.Name)
	}
	if len(names) != 3 {
		t.Errorf("opponent stats %v, want a, b and c until ResetStats", names)
	}
	p.ResetStats()
	if o := p.Stats().Opponents; len(o) != 1 || o[0].Name != "c" || o[0].Weight != 1 {
		t.Errorf("after ResetStats: %+v, want only c", o)
	}
	p.Close()
	if n := c.closed.Load(); n != c.made.Load() || n != 6 {
		t.Errorf("Close closed %d of %d instances of c, want all 6", n, c.made.Load())
	}
}

// TestSetOpponentsErrors: invalid calls are ConfigErrors or wrap the
// factory's error, and leave the mixture as it was.
func TestSetOpponentsErrors(t *testing.T) {
	p := toyPool(t, vecenv.Config{LearnerSeats: []int{1}, Opponents: map[int]env.AgentFactory{0: fixed(0)}, OpponentNames: map[int]string{0: "zero"}})
	boom := errors.New("boom")
	failing := func(*env.Spec) (env.Agent, error) { return nil, boom }
	ok := vecenv.OpponentChoice{Name: "one", Factory: fixed(1), Weight: 1}
	for _, tc := range []struct {
		name    string
		seat    int
		choices []vecenv.OpponentChoice
	}{
		{"learner_seat", 1, []vecenv.OpponentChoice{ok}},
		{"bad_seat", 7, []vecenv.OpponentChoice{ok}},
		{"no_choices", 0, nil},
		{"nil_factory", 0, []vecenv.OpponentChoice{{Name: "x", Weight: 1}}},
		{"repeated_name", 0, []vecenv.OpponentChoice{ok, ok}},
		{"negative_weight", 0, []vecenv.OpponentChoice{ok, {Name: "y", Factory: fixed(0), Weight: -1}}},
		{"zero_sum", 0, []vecenv.OpponentChoice{{Name: "y", Factory: fixed(0), Weight: 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ce *vecenv.ConfigError
			if err := p.SetOpponents(tc.seat, tc.choices); !errors.As(err, &ce) {
				t.Errorf("got %v, want a *ConfigError", err)
			}
		})
	}
	if err := p.SetOpponents(0, []vecenv.OpponentChoice{ok, {Name: "bad", Factory: failing, Weight: 1}}); !errors.Is(err, boom) {
		t.Errorf("failing factory: got %v, want it wrapped", err)
	}
	p.Reset()
	step(t, p, 0)
	if o := p.Stats().Opponents; len(o) != 1 || o[0].Name != "zero" || o[0].Weight != 1 {
		t.Errorf("after failed calls: %+v, want the mixture unchanged", o)
	}
}

// TestMixStepDoesNotAllocate: once every env has made the instances of the
// choices it draws, Step with a mixture of batched and plain opponents
// allocates nothing.
func TestMixStepDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		p := testutil.NewPool(t, mixConfig(1, mode))
		b := &countingBatcher{}
		for _, seat := range []int{0, 2} {
			if err := p.SetOpponents(seat, []vecenv.OpponentChoice{
				{Name: "zero", Factory: fixed(0), Weight: 1},
				{Name: "random", Factory: randomFactory(b), Weight: 1},
				{Name: "one", Factory: fixed(1), Weight: 1},
			}); err != nil {
				t.Fatal(err)
			}
		}
		p.Reset()
		acts := make([]int32, p.Rows())
		for range 400 { // warm-up: every env draws every choice
			p.Step(acts)
		}
		if n := testing.AllocsPerRun(200, func() { p.Step(acts) }); n != 0 {
			t.Errorf("%v: %v allocations per Step, want 0", mode, n)
		}
		if b.calls.Load() == 0 {
			t.Errorf("%v: the batched choice never played", mode)
		}
	}
}
