package testutil

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
)

// Play plays e to its end with one agent per seat: it resets e with seed
// and each seat's agent with agentSeed(seat), steps until e is Done, and
// returns the actions of every step, seat after seat.
func Play(e env.Env, seats []env.Agent, seed uint64, agentSeed func(seat int) uint64) []int32 {
	e.Reset(seed)
	for seat, a := range seats {
		a.Reset(e, seat, agentSeed(seat))
	}
	n := e.Spec().Seats
	actions, rewards := make([]int32, n), make([]float32, n)
	terminated, truncated := make([]bool, n), make([]bool, n)
	var trace []int32
	for !e.Done() {
		for seat, a := range seats {
			actions[seat] = a.Act(e, seat)
		}
		trace = append(trace, actions...)
		e.Step(actions, rewards, terminated, truncated)
	}
	return trace
}

// PlayNamed makes the env game with the JSON config cfg and one agent a
// seat with newAgent(name, spec), for each of names in turn, and plays it
// to its end as [Play] does with seed and agentSeed. It returns the env,
// played, and Play's trace of actions. newAgent nil means the game's
// built-in agents ([Agent]); an agent scheme's test passes its registry's
// maker (agents.New) to play bots that are no game's. It fails t when the
// env or an agent cannot be made.
func PlayNamed(t testing.TB, game, cfg string, newAgent func(name string, spec *env.Spec) (env.Agent, error), names []string, seed uint64, agentSeed func(seat int) uint64) (env.Env, []int32) {
	t.Helper()
	e, err := env.Make(game, []byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	seats := make([]env.Agent, len(names))
	for seat, name := range names {
		if newAgent == nil {
			seats[seat] = Agent(t, game, name, e.Spec())
			continue
		}
		if seats[seat], err = newAgent(name, e.Spec()); err != nil {
			t.Fatal(err)
		}
	}
	return e, Play(e, seats, seed, agentSeed)
}

// Agent makes the built-in agent name of the registry name game (from the
// agents its kit lists in [env.Default]) for spec; it fails t when there
// is none.
func Agent(t testing.TB, game, name string, spec *env.Spec) env.Agent {
	t.Helper()
	entry, err := env.Default.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var info env.AgentInfo
	if b, ok := entry.Kit.(interface{ Agents() []env.AgentInfo }); ok {
		if i := slices.IndexFunc(b.Agents(), func(a env.AgentInfo) bool { return a.Name == name }); i >= 0 {
			info = b.Agents()[i]
		}
	}
	if info.New == nil {
		t.Fatalf("%s has no agent %q", game, name)
	}
	a, err := info.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Winner plays e to its end as [Play] does and returns the winning seat
// by e's Outcome, -1 for a draw.
func Winner(e env.Env, seats []env.Agent, seed uint64, agentSeed func(seat int) uint64) int {
	Play(e, seats, seed, agentSeed)
	if w, draw := e.Outcome(); !draw {
		return w
	}
	return -1
}

// Panicky is an agent that plays Action until its env has played From
// steps and then panics with Msg: a bot that crashes in a given round,
// for the tests of forfeits.
type Panicky struct {
	From   int
	Action int32
	Msg    string
}

// Reset does nothing.
func (Panicky) Reset(env.Env, int, uint64) {}

// Act returns p.Action before step p.From and panics from then on.
func (p Panicky) Act(e env.Env, _ int) int32 {
	if e.Steps() >= p.From {
		panic(p.Msg)
	}
	return p.Action
}
