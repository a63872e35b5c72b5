package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

// ErrForfeit is wrapped by [Result.Err] when an agent forfeited the match
// by panicking (see the failure policy in the package documentation).
var ErrForfeit = errors.New("forfeit")

// ErrRunaway is wrapped by the error of [Match.Run] for a game that did not
// end within [RoundLimit] rounds: a bug in the game.
var ErrRunaway = errors.New("the game did not end")

// ErrStop, returned by a [Hooks] function, ends the match there without an
// error: Run returns the result of the game as it stands.
var ErrStop = errors.New("match: stop")

// RoundLimit returns the round at which [Match.Run] gives up on a game of
// spec that has not ended: well past its step cap, 10*MaxSteps+10.
func RoundLimit(spec *env.Spec) int { return 10*spec.MaxSteps + 10 }

// Step is one round's actions and outcomes, one entry per seat, as passed
// to env.Env.Step. Its slices are reused by the next round.
type Step struct {
	Actions    []int32
	Rewards    []float32
	Terminated []bool
	Truncated  []bool
}

// Hooks watch a match round by round; nil functions are skipped. A hook
// that returns [ErrStop] ends the match without an error; any other error
// ends it with that error. Hooks run on Run's goroutine and may read the
// env but not change it.
type Hooks struct {
	// State sees every state of the match once, in order: at the start of
	// each round, round being the number of rounds played so far, from the
	// initial state (round 0) to the final one (the state in which the env
	// is Done, MaxRounds was reached or an agent forfeited). Displays,
	// replay writers and the viewer's frames use it.
	State func(e env.Env, round int) error
	// Acted is called once every agent has chosen its action for the
	// round, before the env steps (recorders take the observations there).
	Acted func(e env.Env, round int, actions []int32) error
	// Stepped is called after the env stepped, with the round's actions
	// and outcomes.
	Stepped func(e env.Env, round int, s Step) error
}

// Match is one game between agents, ready to [Match.Run].
type Match struct {
	// Env is the game, made by the caller with its config; Run resets it.
	Env env.Env
	// Agents holds the agent of every seat, seat 0 first; the Match owns
	// them (see Close).
	Agents []env.Agent
	// Seed is the game's seed: the env is reset with it and seat k's agent
	// with env.AgentSeed(Seed, k).
	Seed uint64
	// MaxRounds, when positive, ends the match after that many rounds (the
	// result is then the standings at that point); 0 plays to the end.
	MaxRounds int
	// Load, when set, is called after the env's Reset and before the
	// agents' Reset: it may load another state into the env (a native
	// state file). Its error ends Run with that error.
	Load func(e env.Env) error
	// Hooks watch the match; the zero value watches nothing.
	Hooks Hooks
	// Names names the agent of every seat in the result
	// ([Standing.Agent], [Forfeit.Agent], [SeatFaults.Agent]): the agent
	// specs or league names; nil leaves them unnamed.
	Names []string
	// Fingerprint asks for [Result.Fingerprint].
	Fingerprint bool
}

// AgentError is the error of [NewAgents] for a seat whose agent cannot be
// made. Its text is that of Err.
type AgentError struct {
	Seat int
	Spec string
	Err  error
}

func (e *AgentError) Error() string { return e.Err.Error() }
func (e *AgentError) Unwrap() error { return e.Err }

// NewAgents makes one agent per seat of game from specs (agent names or
// external bots' specs, resolved by agents.New for envs of spec) and
// attaches in and log to those that implement agents.Terminal (the
// console reads a person's commands from in; external bots write their
// fault lines to log); nil in is an empty reader and nil log discards. On
// error it closes the agents it made and returns an [*AgentError].
func NewAgents(game string, specs []string, spec *env.Spec, in io.Reader, log io.Writer) ([]env.Agent, error) {
	if in == nil {
		in = strings.NewReader("")
	}
	if log == nil {
		log = io.Discard
	}
	ags := make([]env.Agent, 0, len(specs))
	for seat, s := range specs {
		a, err := agents.New(game, s, spec)
		if err != nil {
			closeAll(ags)
			return nil, &AgentError{Seat: seat, Spec: s, Err: err}
		}
		if t, ok := a.(agents.Terminal); ok {
			t.Attach(in, log)
		}
		ags = append(ags, a)
	}
	return ags, nil
}

// Close closes the agents that implement io.Closer (external bots'
// processes and folders). Call it once, when the match is over or could
// not start.
func (m *Match) Close() { closeAll(m.Agents) }

func closeAll(ags []env.Agent) {
	for _, a := range ags {
		agents.Close(a)
	}
}

// Run plays the match as the package documentation describes and returns
// its result. It returns an error, and no result, when Load or a hook
// fails, when ctx is cancelled before the game ends, and for a game that
// does not end within [RoundLimit] rounds (wrapping [ErrRunaway]). It
// panics if the number of agents is not the env's number of seats.
func (m *Match) Run(ctx context.Context) (Result, error) {
	e := m.Env
	spec := e.Spec()
	seats := spec.Seats
	if len(m.Agents) != seats {
		panic(fmt.Sprintf("match: %d agents for the %d seats of %s", len(m.Agents), seats, spec.Game))
	}
	e.Reset(m.Seed)
	if m.Load != nil {
		if err := m.Load(e); err != nil {
			return Result{}, err
		}
	}
	forfeit, why := -1, error(nil)
	for seat, a := range m.Agents {
		if why = reset(e, a, seat, env.AgentSeed(m.Seed, seat)); why != nil {
			forfeit = seat
			break
		}
	}
	st := Step{
		Actions: make([]int32, seats), Rewards: make([]float32, seats),
		Terminated: make([]bool, seats), Truncated: make([]bool, seats),
	}
	counter := NewCounter(e)
	limit := RoundLimit(spec)
	for round := 0; ; round++ {
		if err := call(m.Hooks.State, e, round); err != nil {
			if errors.Is(err, ErrStop) {
				break
			}
			return Result{}, err
		}
		if forfeit >= 0 || e.Done() || (m.MaxRounds > 0 && round >= m.MaxRounds) {
			break
		}
		if round >= limit {
			return Result{}, fmt.Errorf("%s: %w after %d rounds", spec.Game, ErrRunaway, round)
		}
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		for seat, a := range m.Agents {
			var act int32
			if act, why = action(e, a, seat); why != nil {
				forfeit = seat
				break
			}
			st.Actions[seat] = act
		}
		if forfeit >= 0 {
			break
		}
		counter.Count(st.Actions)
		if m.Hooks.Acted != nil {
			if err := m.Hooks.Acted(e, round, st.Actions); err != nil {
				if errors.Is(err, ErrStop) {
					break
				}
				return Result{}, err
			}
		}
		e.Step(st.Actions, st.Rewards, st.Terminated, st.Truncated)
		if m.Hooks.Stepped != nil {
			if err := m.Hooks.Stepped(e, round, st); err != nil {
				if errors.Is(err, ErrStop) {
					break
				}
				return Result{}, err
			}
		}
	}
	if forfeit < 0 && e.Done() {
		for seat, a := range m.Agents {
			if g, ok := a.(agents.GameEnder); ok {
				g.GameEnded(e, seat)
			}
		}
	}
	res := forfeited(newResult(spec, m.Seed, e.Result(), m.Names), forfeit)
	counter.Fill(&res)
	fillDeaths(e, &res)
	if forfeit >= 0 {
		res.Forfeit = &Forfeit{Seat: forfeit, Agent: nameOf(m.Names, forfeit), Round: res.Rounds,
			Reason: strings.TrimPrefix(why.Error(), ErrForfeit.Error()+": "), Err: why}
	}
	res.Faults = AgentFaults(m.Agents, m.Names)
	if m.Fingerprint {
		res.Fingerprint = Fingerprint(e)
	}
	return res, nil
}

// call calls the State hook f, if any.
func call(f func(env.Env, int) error, e env.Env, round int) error {
	if f == nil {
		return nil
	}
	return f(e, round)
}

// reset resets a for seat; a panic is a forfeit.
func reset(e env.Env, a env.Agent, seat int, seed uint64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the agent panicked in Reset: %v", ErrForfeit, r)
		}
	}()
	a.Reset(e, seat, seed)
	return nil
}

// action asks a for seat's action; a panic is a forfeit.
func action(e env.Env, a env.Agent, seat int) (act int32, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the agent panicked: %v", ErrForfeit, r)
		}
	}()
	return a.Act(e, seat), nil
}

// forfeited applies the failure policy to r: the forfeit seat (none when
// -1) drops to last place, the ranks are renumbered, and the first of the
// others wins unless the top of the others is tied, a draw.
func forfeited(r Result, forfeit int) Result {
	i := -1
	for k, s := range r.Leaderboard {
		if s.Seat == forfeit {
			i = k
		}
	}
	if forfeit < 0 || i < 0 {
		return r
	}
	lb := make([]Standing, 0, len(r.Leaderboard))
	lb = append(lb, r.Leaderboard[:i]...)
	lb = append(lb, r.Leaderboard[i+1:]...)
	lb = append(lb, r.Leaderboard[i])
	for k := range lb {
		lb[k].Rank = k + 1
	}
	r.Leaderboard = lb
	r.Winner, r.Draw = Seat(lb[0].Seat), false
	if len(lb) > 2 && TiedTop(lb[:len(lb)-1]) > 1 {
		r.Winner, r.Draw = -1, true
	}
	return r
}
