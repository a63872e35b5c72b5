package vecenv_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// scheduled is one match of a schedule: its seed, the choice of every seat
// and the seeds of the seats' opponents.
type scheduled struct {
	seed  uint64
	names []string
	seeds []uint64
}

// transcript is what a match did: every step's actions and rewards, and
// the result.
type transcript struct {
	steps  []string
	result env.Result
}

// recordingObserver keeps a transcript per env.
type recordingObserver struct {
	mu      sync.Mutex // only guards started (the per-env lines are per worker)
	started int
	lines   [][]string
}

func (o *recordingObserver) EpisodeStarted(i int, e env.Env) {
	o.mu.Lock()
	o.started++
	o.mu.Unlock()
	o.lines[i] = o.lines[i][:0]
}

func (o *recordingObserver) Stepped(i int, e env.Env, actions []int32, rewards []float32, terminated, truncated []bool) {
	o.lines[i] = append(o.lines[i], fmt.Sprint(actions, rewards, terminated, truncated))
}

var scheduleChoices = map[string]func(*countingBatcher) env.AgentFactory{
	"zero":   func(*countingBatcher) env.AgentFactory { return fixed(0) },
	"one":    func(*countingBatcher) env.AgentFactory { return fixed(1) },
	"random": randomFactory,
}

// makeSchedule returns n matches of the toy game's 3 seats.
func makeSchedule(n int) []scheduled {
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range scheduleChoices {
			if !yield(k) {
				return
			}
		}
	})
	out := make([]scheduled, n)
	for g := range out {
		m := scheduled{seed: uint64(1000 + g)}
		for s := range 3 {
			m.names = append(m.names, names[(g+s*(g/3+1))%len(names)])
			m.seeds = append(m.seeds, uint64(g*10+s))
		}
		out[g] = m
	}
	return out
}

// playSerially plays m as a plain loop, the reference.
func playSerially(t *testing.T, m scheduled, maxSteps int) transcript {
	t.Helper()
	e, err := toyRegistry().Make("toy", []byte(`{"seats": 3, "length": 6}`))
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(m.seed)
	opps := make([]env.Agent, 3)
	for s, name := range m.names {
		if opps[s], err = scheduleChoices[name](nil)(e.Spec()); err != nil {
			t.Fatal(err)
		}
		opps[s].Reset(e, s, m.seeds[s])
	}
	var tr transcript
	acts, rew := make([]int32, 3), make([]float32, 3)
	term, trunc := make([]bool, 3), make([]bool, 3)
	for !e.Done() && (maxSteps == 0 || e.Steps() < maxSteps) {
		for s, o := range opps {
			acts[s] = o.Act(e, s)
		}
		e.Step(acts, rew, term, trunc)
		tr.steps = append(tr.steps, fmt.Sprint(acts, rew, term, trunc))
	}
	tr.result = e.Result()
	return tr
}

// playScheduled plays every match of sched on a pool without learner seats
// of numEnvs envs, planning each env's next match as the last one ends and
// holding the envs once the schedule runs out, as a league does.
func playScheduled(t *testing.T, sched []scheduled, numEnvs, workers, maxSteps int, b *countingBatcher) []transcript {
	t.Helper()
	obs := &recordingObserver{lines: make([][]string, numEnvs)}
	p := testutil.NewPool(t, vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 3, "length": 6}`),
		NumEnvs: numEnvs, Workers: workers, LearnerSeats: []int{}, MaxEpisodeSteps: maxSteps,
		Opponents: map[int]env.AgentFactory{0: fixed(0), 1: fixed(0), 2: fixed(0)},
		Observer:  obs,
	})
	for seat := range 3 {
		var cs []vecenv.OpponentChoice
		for _, name := range []string{"zero", "one", "random"} {
			cs = append(cs, vecenv.OpponentChoice{Name: name, Factory: scheduleChoices[name](b), Weight: 1})
		}
		if err := p.SetOpponents(seat, cs); err != nil {
			t.Fatal(err)
		}
	}
	out := make([]transcript, len(sched))
	playing := make([]int, numEnvs)
	next := 0
	assign := func(i int) {
		t.Helper()
		if next == len(sched) {
			playing[i] = -1
			if err := p.Hold(i); err != nil {
				t.Fatal(err)
			}
			return
		}
		m := sched[next]
		playing[i] = next
		next++
		if err := p.Plan(i, vecenv.EpisodePlan{Seed: m.seed, Opponents: m.names, OpponentSeeds: m.seeds}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range numEnvs {
		assign(i)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if p.Rows() != 0 {
		t.Fatalf("Rows = %d, want 0 without learner seats", p.Rows())
	}
	for steps := 0; slices.ContainsFunc(playing, func(g int) bool { return g >= 0 }); steps++ {
		if steps > 10*len(sched)*7 {
			t.Fatal("the schedule did not finish")
		}
		if err := p.Step(nil); err != nil {
			t.Fatal(err)
		}
		for i, ended := range p.EnvsEnded() {
			if !ended {
				continue
			}
			if playing[i] < 0 {
				t.Fatalf("held env %d ended an episode", i)
			}
			out[playing[i]] = transcript{steps: slices.Clone(obs.lines[i]), result: p.Env(i).Result()}
			assign(i)
		}
	}
	if obs.started != len(sched) {
		t.Errorf("the observer saw %d episodes start, want %d (held envs start none)", obs.started, len(sched))
	}
	return out
}

func TestPlannedEpisodesPlayLikeASerialLoopForAnyWorkerCount(t *testing.T) {
	sched := makeSchedule(40)
	for _, maxSteps := range []int{0, 4} {
		want := make([]transcript, len(sched))
		for g, m := range sched {
			want[g] = playSerially(t, m, maxSteps)
		}
		for _, workers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("max_steps=%d/workers=%d", maxSteps, workers), func(t *testing.T) {
				b := &countingBatcher{}
				got := playScheduled(t, sched, 7, workers, maxSteps, b)
				for g := range sched {
					if !slices.Equal(got[g].steps, want[g].steps) || fmt.Sprint(got[g].result) != fmt.Sprint(want[g].result) {
						t.Fatalf("match %d %v:\npool   %v %+v\nserial %v %+v", g, sched[g].names, got[g].steps, got[g].result, want[g].steps, want[g].result)
					}
				}
				if b.calls.Load() == 0 {
					t.Error("the random opponents were never batched")
				}
				if bad := b.bad.Load(); bad != nil {
					t.Error(bad)
				}
			})
		}
	}
}

func TestPlanSetsTheSeedOfALearnersNextEpisode(t *testing.T) {
	p := testutil.NewPool(t, vecenv.Config{
		Game: "toy", Registry: toyRegistry(), NumEnvs: 2, Seed: 3, LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{1: fixed(0)}, OpponentNames: map[int]string{1: "zero"},
	})
	if err := p.Plan(1, vecenv.EpisodePlan{Seed: 0x1234}); err != nil {
		t.Fatal(err)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	buf := p.Buffers()
	if got := buf.Obs[0][1*4+3]; got != 0x34 {
		t.Errorf("env 1's first observation shows seed byte %#x, want 0x34 (the planned seed)", got)
	}
	if got, want := buf.Obs[0][3], byte(vecenv.EpisodeSeed(3, 0, 0)); got != want {
		t.Errorf("env 0 (not planned) shows seed byte %#x, want %#x", got, want)
	}
	// The plan is for one episode: the next one is seeded as usual.
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.Obs[0][1*4+3], byte(vecenv.EpisodeSeed(3, 1, 1)); got != want {
		t.Errorf("env 1's episode after the planned one shows seed byte %#x, want %#x", got, want)
	}
	if err := p.Hold(0); !errors.Is(err, vecenv.ErrHoldLearners) {
		t.Errorf("Hold on a pool with learner seats: got %v, want ErrHoldLearners", err)
	}
}

func TestPlanRejectsBadPlansAndLeavesThePoolUnchanged(t *testing.T) {
	p := testutil.NewPool(t, vecenv.Config{
		Game: "toy", Registry: toyRegistry(), NumEnvs: 2, LearnerSeats: []int{},
		Opponents:     map[int]env.AgentFactory{0: fixed(0), 1: fixed(1)},
		OpponentNames: map[int]string{0: "zero", 1: "one"},
	})
	for _, c := range []struct {
		name string
		env  int
		plan vecenv.EpisodePlan
		want string
	}{
		{"env_out_of_range", 2, vecenv.EpisodePlan{}, "config Plan: must be an env in 0..1, got 2"},
		{"negative_env", -1, vecenv.EpisodePlan{}, "config Plan: must be an env in 0..1, got -1"},
		{"too_few_opponents", 0, vecenv.EpisodePlan{Opponents: []string{"zero"}}, "EpisodePlan.Opponents: must name one choice per opponent seat (2), got 1"},
		{"unknown_choice", 0, vecenv.EpisodePlan{Opponents: []string{"zero", "zero"}}, `EpisodePlan.Opponents[1]: must be a choice of seat 1's mixture (see SetOpponents), got "zero"`},
		{"too_many_seeds", 0, vecenv.EpisodePlan{OpponentSeeds: []uint64{1, 2, 3}}, "EpisodePlan.OpponentSeeds: must hold one seed per opponent seat (2), got 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := p.Plan(c.env, c.plan)
			var ce *vecenv.ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a ConfigError containing %q", err, c.want)
			}
		})
	}
	if err := p.Hold(5); err == nil {
		t.Error("Hold(5) of 2 envs: no error")
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Env(0).Spec().Game, "toy"; got != want {
		t.Fatal(got)
	}
}

func TestSetOpponentsKeepsPlannedChoicesItKeepsAndDrawsForThoseItRemoves(t *testing.T) {
	obs := &recordingObserver{lines: make([][]string, 2)}
	p := testutil.NewPool(t, vecenv.Config{
		Game: "toy", Registry: toyRegistry(), NumEnvs: 2, LearnerSeats: []int{},
		Opponents:     map[int]env.AgentFactory{0: fixed(0), 1: fixed(0)},
		OpponentNames: map[int]string{0: "zero", 1: "zero"},
		Observer:      obs,
	})
	one := vecenv.OpponentChoice{Name: "one", Factory: fixed(1), Weight: 0}
	zero := vecenv.OpponentChoice{Name: "zero", Factory: fixed(0), Weight: 1}
	for seat := range 2 {
		if err := p.SetOpponents(seat, []vecenv.OpponentChoice{zero, one}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		if err := p.Plan(i, vecenv.EpisodePlan{Seed: 1, Opponents: []string{"one", "one"}}); err != nil {
			t.Fatal(err)
		}
	}
	// Seat 0 keeps "one" (weight 0 still: only planned); seat 1 drops it.
	if err := p.SetOpponents(0, []vecenv.OpponentChoice{zero, one}); err != nil {
		t.Fatal(err)
	}
	if err := p.SetOpponents(1, []vecenv.OpponentChoice{zero}); err != nil {
		t.Fatal(err)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if got := [2]string{p.Opponent(i, 0), p.Opponent(i, 1)}; got != [2]string{"one", "zero"} {
			t.Errorf("env %d plays %v, want [one zero]", i, got)
		}
	}
	if err := p.Step(nil); err != nil {
		t.Fatal(err)
	}
	if got, want := obs.lines[0][0], fmt.Sprint([]int32{1, 0}, []float32{1, 0}, []bool{false, false}, []bool{false, false}); got != want {
		t.Errorf("first step %s, want %s", got, want)
	}
}

func TestMaxEpisodeStepsTruncatesTheSeatsInPlay(t *testing.T) {
	p := testutil.NewPool(t, vecenv.Config{
		Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 2, "length": 9}`),
		NumEnvs: 1, MaxEpisodeSteps: 2,
	})
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	buf := p.Buffers()
	for step := 1; step <= 2; step++ {
		if err := p.Step([]int32{1, 0}); err != nil {
			t.Fatal(err)
		}
		if got, want := p.EnvsEnded()[0], step == 2; got != want {
			t.Fatalf("step %d: EnvsEnded %v, want %v", step, got, want)
		}
	}
	if !buf.Truncated[0] || !buf.Truncated[1] || buf.Terminated[0] || buf.Terminated[1] || !p.Ended()[0] {
		t.Errorf("after the cap: terminated %v truncated %v ended %v; want both seats truncated", buf.Terminated, buf.Truncated, p.Ended())
	}
	st := p.Stats()
	if st.Episodes() != 1 || st.Seats[0].Steps != 2 || st.Seats[0].Wins != 1 {
		t.Errorf("stats %+v, want one 2-step episode won by seat 0", st.Seats)
	}
	if _, err := vecenv.New(vecenv.Config{Game: "toy", Registry: toyRegistry(), NumEnvs: 1, MaxEpisodeSteps: -1}); err == nil || !strings.Contains(err.Error(), "MaxEpisodeSteps") {
		t.Errorf("MaxEpisodeSteps -1: got %v, want a MaxEpisodeSteps error", err)
	}
}
