package match_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testgame"
	"github.com/botarena/botarena/match"
)

// counter is a tiny game for the runner's tests: every seat adds its
// action to its score each round; the game lasts rounds rounds (forever
// when rounds is 0); the highest score wins, ties by seat order.
type counter struct {
	env.Env // unused methods panic
	spec    *env.Spec
	rounds  int
	step    int
	scores  []int
	seed    uint64
}

func newCounter(seats, rounds int) *counter {
	return &counter{spec: &env.Spec{Game: "counter", Seats: seats, Actions: 3, MaxSteps: max(rounds, 1)}, rounds: rounds, scores: make([]int, seats)}
}

func (g *counter) Spec() *env.Spec { return g.spec }
func (g *counter) Reset(seed uint64) {
	g.seed, g.step = seed, 0
	clear(g.scores)
}
func (g *counter) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	for i, a := range actions {
		g.scores[i] += int(a)
	}
	g.step++
}
func (g *counter) Done() bool         { return g.rounds > 0 && g.step >= g.rounds }
func (g *counter) Steps() int         { return g.step }
func (g *counter) Result() env.Result { return testgame.ScoreResult(g.step, g.scores, nil) }

// fixed plays one action; it panics in Act from round panicAt on (never
// when negative) and in Reset when resetPanics. It records its seed and
// whether it was told the game ended or closed.
type fixed struct {
	action      int32
	panicAt     int
	resetPanics bool
	seed        uint64
	ended       int
	closed      int
}

func (a *fixed) Reset(_ env.Env, _ int, seed uint64) {
	if a.resetPanics {
		panic("no reset")
	}
	a.seed = seed
}
func (a *fixed) Act(e env.Env, _ int) int32 {
	if a.panicAt >= 0 && e.Steps() >= a.panicAt {
		panic("boom")
	}
	return a.action
}
func (a *fixed) GameEnded(env.Env, int) { a.ended++ }
func (a *fixed) Close() error           { a.closed++; return nil }

func agentsOf(as ...*fixed) []env.Agent {
	out := make([]env.Agent, len(as))
	for i, a := range as {
		out[i] = a
	}
	return out
}

func TestRunSeedsTheEnvAndEveryAgent(t *testing.T) {
	a, b := &fixed{action: 1, panicAt: -1}, &fixed{action: 2, panicAt: -1}
	g := newCounter(2, 4)
	m := &match.Match{Env: g, Agents: agentsOf(a, b), Seed: 77}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if g.seed != 77 || a.seed != env.AgentSeed(77, 0) || b.seed != env.AgentSeed(77, 1) {
		t.Errorf("seeds: env %d, agents %d %d; want 77 and env.AgentSeed(77, seat)", g.seed, a.seed, b.seed)
	}
	if res.Rounds != 4 || res.Winner != 1 || res.Forfeit != nil {
		t.Errorf("result %+v, want 4 rounds won by seat 1 without forfeit", res)
	}
	if a.ended != 1 || b.ended != 1 {
		t.Errorf("GameEnded calls %d %d, want 1 each", a.ended, b.ended)
	}
	if a.closed != 0 {
		t.Error("Run closed the agents; Close does")
	}
	m.Close()
	if a.closed != 1 || b.closed != 1 {
		t.Errorf("Close calls %d %d, want 1 each", a.closed, b.closed)
	}
}

func TestHooksSeeEveryStateAndStep(t *testing.T) {
	g := newCounter(2, 3)
	var log []string
	m := &match.Match{Env: g, Agents: agentsOf(&fixed{action: 1, panicAt: -1}, &fixed{action: 2, panicAt: -1}), Hooks: match.Hooks{
		State: func(e env.Env, round int) error {
			if e.Steps() != round {
				t.Errorf("State round %d at step %d", round, e.Steps())
			}
			log = append(log, "state")
			return nil
		},
		Acted: func(e env.Env, round int, actions []int32) error {
			if !slices.Equal(actions, []int32{1, 2}) {
				t.Errorf("Acted actions %v", actions)
			}
			log = append(log, "acted")
			return nil
		},
		Stepped: func(e env.Env, round int, s match.Step) error {
			if e.Steps() != round+1 || len(s.Rewards) != 2 {
				t.Errorf("Stepped round %d at step %d, %+v", round, e.Steps(), s)
			}
			log = append(log, "stepped")
			return nil
		},
	}}
	if _, err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"state", "acted", "stepped", "state", "acted", "stepped", "state", "acted", "stepped", "state"}
	if !slices.Equal(log, want) {
		t.Errorf("hooks %v, want %v", log, want)
	}
}

func TestMaxRoundsAndStop(t *testing.T) {
	t.Run("max_rounds", func(t *testing.T) {
		a := &fixed{action: 1, panicAt: -1}
		m := &match.Match{Env: newCounter(2, 10), Agents: agentsOf(a, &fixed{panicAt: -1}), MaxRounds: 3}
		res, err := m.Run(context.Background())
		if err != nil || res.Rounds != 3 || a.ended != 0 {
			t.Errorf("Run = %+v, %v (GameEnded %d); want 3 rounds, the game not ended", res, err, a.ended)
		}
	})
	t.Run("stop", func(t *testing.T) {
		m := &match.Match{Env: newCounter(2, 10), Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1}),
			Hooks: match.Hooks{State: func(_ env.Env, round int) error {
				if round == 2 {
					return match.ErrStop
				}
				return nil
			}}}
		res, err := m.Run(context.Background())
		if err != nil || res.Rounds != 2 {
			t.Errorf("Run = %+v, %v; want 2 rounds", res, err)
		}
	})
	t.Run("hook_error", func(t *testing.T) {
		bad := errors.New("disk full")
		m := &match.Match{Env: newCounter(2, 10), Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1}),
			Hooks: match.Hooks{Stepped: func(env.Env, int, match.Step) error { return bad }}}
		if _, err := m.Run(context.Background()); !errors.Is(err, bad) {
			t.Errorf("Run error %v, want the hook's", err)
		}
	})
	t.Run("load_error", func(t *testing.T) {
		bad := errors.New("no state")
		m := &match.Match{Env: newCounter(2, 10), Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1}),
			Load: func(env.Env) error { return bad }}
		if _, err := m.Run(context.Background()); !errors.Is(err, bad) {
			t.Errorf("Run error %v, want Load's", err)
		}
	})
}

func TestCancelledAndRunawayGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &match.Match{Env: newCounter(2, 10), Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1})}
	if _, err := m.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	g := newCounter(2, 0) // never ends
	m = &match.Match{Env: g, Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1})}
	_, err := m.Run(context.Background())
	if !errors.Is(err, match.ErrRunaway) || g.step != match.RoundLimit(g.spec) {
		t.Errorf("runaway: %v after %d steps, want ErrRunaway after %d", err, g.step, match.RoundLimit(g.spec))
	}
}

// TestFailurePolicy pins the one failure policy: an agent that panics
// forfeits, the match ends there, and the seat drops to last place.
func TestFailurePolicy(t *testing.T) {
	cases := []struct {
		name      string
		agents    []*fixed
		forfeit   int
		rounds    int
		winner    int
		draw      bool
		standings []int // seats, best first
	}{
		// Seat 0 leads (2 a round) when it panics in round 3: it loses.
		{"leader_panics", []*fixed{{action: 2, panicAt: 3}, {action: 1, panicAt: -1}}, 0, 3, 1, false, []int{1, 0}},
		{"panic_in_reset", []*fixed{{panicAt: -1}, {panicAt: -1, resetPanics: true}}, 1, 0, 0, false, []int{0, 1}},
		// Both would panic in round 2: the first in seat order forfeits.
		{"first_seat_forfeits", []*fixed{{action: 1, panicAt: 2}, {action: 2, panicAt: 2}}, 0, 2, 1, false, []int{1, 0}},
		// The others tie at the top: a draw without a winner.
		{"others_tie", []*fixed{{action: 1, panicAt: -1}, {action: 2, panicAt: 2}, {action: 1, panicAt: -1}}, 1, 2, -1, true, []int{0, 2, 1}},
		{"others_ranked", []*fixed{{action: 1, panicAt: -1}, {action: 2, panicAt: 2}, {action: 0, panicAt: -1}}, 1, 2, 0, false, []int{0, 2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ags := agentsOf(c.agents...)
			m := &match.Match{Env: newCounter(len(ags), 10), Agents: ags, Seed: 1}
			res, err := m.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var seats, ranks []int
			for _, s := range res.Leaderboard {
				seats, ranks = append(seats, s.Seat), append(ranks, s.Rank)
			}
			if res.Forfeit == nil || res.Forfeit.Seat != c.forfeit || !errors.Is(res.Forfeit.Err, match.ErrForfeit) || res.Forfeit.Round != c.rounds || res.Rounds != c.rounds ||
				res.Winner != match.Seat(c.winner) || res.Draw != c.draw || !slices.Equal(seats, c.standings) {
				t.Errorf("result %+v, want forfeit %d after %d rounds, winner %d draw %v, standings %v", res, c.forfeit, c.rounds, c.winner, c.draw, c.standings)
			}
			for i, r := range ranks {
				if r != i+1 {
					t.Errorf("ranks %v, want 1..n", ranks)
				}
			}
			for _, a := range c.agents {
				if a.ended != 0 {
					t.Error("GameEnded after a forfeit")
				}
			}
		})
	}
}

func TestNewAgents(t *testing.T) {
	spec := &env.Spec{Game: "counter", Seats: 2, Actions: 3}
	ags, err := match.NewAgents("counter", []string{"idle", "random"}, spec, nil, nil)
	if err != nil || len(ags) != 2 {
		t.Fatalf("NewAgents = %v, %v", ags, err)
	}
	_, err = match.NewAgents("counter", []string{"idle", "nobody"}, spec, nil, nil)
	var ae *match.AgentError
	if !errors.As(err, &ae) || ae.Seat != 1 || ae.Spec != "nobody" || err.Error() != ae.Err.Error() {
		t.Errorf("NewAgents with an unknown agent: %v (%+v)", err, ae)
	}
}
