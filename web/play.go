package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

// liveSource is a live match: built-in agents and policies playing a game
// from a seed, played again from its start for every request.
type liveSource struct {
	reg    *env.Registry
	game   string
	config json.RawMessage
	agents []string // as the page names them
	specs  []string // the agent specs that play them
	seed   uint64
	limit  int
	held   int64 // policyCost(specs)
}

func (l *liveSource) start() (playing, error) {
	e, err := l.reg.Make(l.game, l.config)
	if err != nil {
		return nil, err
	}
	ags, err := match.NewAgents(l.game, l.specs, e.Spec(), nil, nil)
	if err != nil {
		return nil, err
	}
	h := match.RecordingHeader{Game: l.game, Config: l.config, Seed: l.seed, Agents: l.agents}
	p, err := newSimPlay(l.game, e, ags, l.seed, l.limit, h, nil)
	if err != nil {
		return nil, err
	}
	for seat, a := range ags {
		if pa, ok := a.(*policy.Agent); ok {
			if p.explainers == nil {
				p.explainers = make([]*policy.Explainer, len(ags))
			}
			p.explainers[seat] = policy.NewExplainer(pa)
		}
	}
	return p, nil
}

// simPlay plays a session with the match runner: the built-in agents of a
// live match, or the recorded actions of a replay ([scripted]).
type simPlay struct {
	game    string
	g       *match.Match
	codec   env.Codec // g.Env's
	max     int       // the last round
	header  match.RecordingHeader
	final   *recordedResult // a replay's recorded result, shown with its last round
	round   int             // the current round
	forfeit *match.Result   // the result, once an agent forfeited
	last    match.Result    // the result of the last run, as far as it played
	buf     []byte
	// explainers explain the policy seats (nil for the others; nil when
	// none): each frame not over shows what they make of its state.
	explainers []*policy.Explainer
	// invalid holds each seat's invalid count before the round's step,
	// acted the round's actions as the page shows them.
	invalid []int
	acted   []ActionView
	cmd     []byte
}

// newSimPlay returns a playing of e (not yet reset) between ags, seeded
// with seed, of at most limit rounds.
func newSimPlay(game string, e env.Env, ags []env.Agent, seed uint64, limit int, h match.RecordingHeader, final *recordedResult) (*simPlay, error) {
	codec, err := env.CodecOf(e)
	if err != nil {
		(&match.Match{Agents: ags}).Close()
		return nil, err
	}
	h.StateFormat = codec.NativeFormats()[0]
	return &simPlay{game: game, codec: codec, max: limit, header: h, final: final,
		g: &match.Match{Env: e, Agents: ags, Seed: seed, MaxRounds: limit, Names: h.Agents}}, nil
}

// watchActions sets the hooks that keep the last round's actions for the
// frames (acted): each seat's action, named, whether the game counted it
// invalid, and its reward.
func (p *simPlay) watchActions() {
	p.g.Hooks.Acted = func(e env.Env, _ int, actions []int32) error {
		p.invalid = p.invalid[:0]
		for seat := range actions {
			p.invalid = append(p.invalid, e.Invalid(seat))
		}
		return nil
	}
	p.g.Hooks.Stepped = func(e env.Env, _ int, st match.Step) error {
		p.acted = p.acted[:0]
		for seat, a := range st.Actions {
			v := actionView(e, p.codec, seat, a, &p.cmd)
			v.Invalid = seat < len(p.invalid) && e.Invalid(seat) > p.invalid[seat]
			if seat < len(st.Rewards) {
				v.Reward = st.Rewards[seat]
			}
			p.acted = append(p.acted, v)
		}
		return nil
	}
}

func (p *simPlay) limit() int { return p.max }
func (p *simPlay) close()     { p.g.Close() }

// over reports whether the playing has no round after the current one.
func (p *simPlay) over() bool {
	return p.forfeit != nil || p.g.Env.Done() || p.round >= p.max
}

func (p *simPlay) run(ctx context.Context, from int, fn func(round int) error) error {
	p.watchActions()
	p.g.Hooks.State = func(_ env.Env, round int) error {
		p.round = round
		if round < from && !p.over() {
			return nil // seeking
		}
		return fn(round)
	}
	return p.play(ctx, fn)
}

// play runs the match with the hooks set; after a forfeit it calls fn
// again with the last state, now over.
func (p *simPlay) play(ctx context.Context, fn func(round int) error) error {
	res, err := p.g.Run(ctx)
	if err != nil {
		return err
	}
	p.last = res
	if res.Forfeit != nil {
		p.forfeit = &res
		if err := fn(p.round); err != nil && !errors.Is(err, match.ErrStop) {
			return err
		}
	}
	return nil
}

// native returns the canonical state as seat sees it, as JSON.
func (p *simPlay) native(seat int) (json.RawMessage, error) {
	format := p.codec.NativeFormats()[0]
	var err error
	if p.buf, err = p.codec.AppendNative(p.buf[:0], format, seat); err != nil {
		return nil, err
	}
	return match.NativeJSON(p.buf, format)
}

func (p *simPlay) frame(seat int) (*Frame, error) {
	state, err := p.native(-1)
	if err != nil {
		return nil, err
	}
	e := p.g.Env
	f := &Frame{Game: p.game, Seats: e.Spec().Seats, Round: p.round, Format: p.codec.NativeFormats()[0],
		State: state, Seat: seat, Result: match.ResultOf(e, p.header.Seed, p.header.Agents, nil), Done: p.over()}
	if p.forfeit != nil {
		f.Result = *p.forfeit
	}
	f.Result.Game = p.game
	if p.round > 0 {
		f.Actions = p.acted
	}
	if !f.Done && p.explainers != nil {
		f.Policies = explain(e, p.codec, p.explainers, p.header.Agents, &p.cmd)
	}
	if f.Done {
		f.Result.Faults = match.AgentFaults(p.g.Agents, p.header.Agents)
	}
	if f.Done && p.final != nil {
		p.final.apply(f)
	}
	if seat >= 0 {
		if f.View, err = p.native(seat); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (p *simPlay) record(ctx context.Context, rw *recordWriter, last int) error {
	rec := match.NewRecorder(rw, p.header, 0)
	p.g.Hooks = rec.Hooks(match.Hooks{State: func(_ env.Env, round int) error {
		p.round = round
		if round >= last && !p.over() {
			return match.ErrStop
		}
		return nil
	}})
	if err := p.play(ctx, func(int) error { return nil }); err != nil {
		return err
	}
	return rec.Finish(p.result())
}

// result is the result line of a recording of the rounds played: a
// replay's recorded one once it is over, else the match runner's result
// of the rounds played (the standings as they are, faults and actions).
func (p *simPlay) result() match.Result {
	if p.final != nil && p.final.ok && p.over() {
		return p.final.parsed
	}
	r := p.last
	r.Game = p.game // the registry name as asked for
	return r
}

// scripted plays the recorded actions of one seat of a replay, round by
// round, then the do-nothing action 0.
type scripted struct {
	actions [][]int32 // by round, one per seat
	next    int
}

func (a *scripted) Reset(env.Env, int, uint64) { a.next = 0 }
func (a *scripted) Act(_ env.Env, seat int) int32 {
	if a.next >= len(a.actions) {
		return 0
	}
	act := a.actions[a.next][seat]
	a.next++
	return act
}

// scriptedAgents returns one scripted agent per seat playing actions.
func scriptedAgents(seats int, actions [][]int32) []env.Agent {
	ags := make([]env.Agent, seats)
	for i := range ags {
		ags[i] = &scripted{actions: actions}
	}
	return ags
}

// errNotReplayed is wrapped by replay's error when a replay's recorded
// actions do not lead to its recorded states or outcomes.
var errNotReplayed = errors.New("the game does not replay from its seed and actions")

// replayed checks that playing actions in e from seed (loading the state
// of round 0 first when load is set) gives the recorded states (check
// each) and outcomes (outcome each, nil to skip). It returns nil, or an
// error wrapping errNotReplayed that names the first round that differs.
func replayed(ctx context.Context, e env.Env, seed uint64, actions [][]int32, load []byte, state func(round int, got []byte) bool, outcome func(round int, s match.Step) bool) error {
	codec, err := env.CodecOf(e)
	if err != nil {
		return err
	}
	format := codec.NativeFormats()[0]
	g := &match.Match{Env: e, Agents: scriptedAgents(e.Spec().Seats, actions), Seed: seed, MaxRounds: len(actions)}
	if load != nil {
		g.Load = func(env.Env) error { return codec.LoadNative(load) }
	}
	var buf []byte
	steps := 0
	g.Hooks.State = func(_ env.Env, round int) error {
		if state == nil {
			return nil
		}
		if buf, err = codec.AppendNative(buf[:0], format, -1); err != nil {
			return err
		}
		if !state(round, buf) {
			return fmt.Errorf("%w: round %d's state differs from the recorded one", errNotReplayed, round)
		}
		return nil
	}
	g.Hooks.Stepped = func(_ env.Env, round int, s match.Step) error {
		steps++
		if outcome != nil && !outcome(round, s) {
			return fmt.Errorf("%w: round %d's rewards or flags differ from the recorded ones", errNotReplayed, round)
		}
		return nil
	}
	if _, err := g.Run(ctx); err != nil {
		return err
	}
	if steps < len(actions) {
		return fmt.Errorf("%w: it ended after %d of %d recorded rounds", errNotReplayed, steps, len(actions))
	}
	return nil
}
