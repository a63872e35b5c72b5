package league

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/httpbot"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/observations/matchdata"
)

// Entrant is one agent of the league in a seat.
type Entrant struct {
	Name string `json:"agent"` // the agent's name in the league
	Spec string `json:"spec"`  // its spec, resolved by agents.New
}

// Match is one game to play: everything a [Runner] needs, so that it can be
// sent to another process.
type Match struct {
	// Index is the game's index in the league, from 0.
	Index int64
	// Seed is the game's seed ([GameSeed] of the league seed and Index).
	Seed uint64
	// Game is the registry name and Config the JSON config of the league.
	Game   string
	Config json.RawMessage
	// Seats holds the agent of each seat, seat 0 first.
	Seats []Entrant
	// MaxRounds, when positive, ends the game after that many rounds (its
	// result is then the standings at that point); 0 plays to the end.
	MaxRounds int
	// Record asks for the per-step data in [Result.Data].
	Record bool
	// Fingerprint asks for [Result.Fingerprint].
	Fingerprint bool
}

// Result is the outcome of a played [Match]: the match runner's result
// ([match.Result], the one result type: the game, seed, rounds, winner,
// draw, the leaderboard with each seat's league name (Standing.Agent) and
// actions by kind, the forfeit, the external bots' faults and, when asked,
// the fingerprint) with what the league keeps beside it: the game's index
// in the league and its per-step data. Every [Runner] leaves out what
// depends on where the game was played: the players' in-game names
// (Standing.Name), fault counts that are all 0, and the forfeit's round,
// reason and error (a server sends only the seat). Its JSON form, which
// the store keeps, is match.Result's with "index" added; see [GameRecord].
type Result struct {
	match.Result
	// Index is the game's index in the league (Match.Index).
	Index int64 `json:"index"`
	// Data is the per-step data when the match asked for it (Record), else
	// nil. It is not stored in the league.
	Data *matchdata.Rows `json:"-"`
}

// Runner plays matches: where a game is played. [LocalRunner] plays them in
// this process; a remote runner (games sent to `botarena serve` processes)
// implements the same interface and plugs into [RunOptions.Runner].
//
// Play must be safe for concurrent use: a league run calls it from several
// worker goroutines at once. It must be deterministic: the same Match gives
// the same Result (given deterministic agents), whatever else runs
// meanwhile, so that a league's results do not depend on the worker count
// or on where games are played. It returns ctx's error when ctx is
// cancelled before the game ends, and an error naming the agent or game for
// a match it cannot play (an unknown agent, a bad config). A failure of one
// agent during play is not an error: that seat forfeits (Result.Forfeit).
// When m.Record is set, Result.Data holds the per-step data; when
// m.Fingerprint is set, Result.Fingerprint the final state's fingerprint.
type Runner interface {
	Play(ctx context.Context, m Match) (Result, error)
}

// LocalRunner plays matches in this process with the match runner
// (package match): the env from Registry and the agents from their specs
// with agents.New, closing agents that implement io.Closer when the game
// ends; an agent that panics forfeits, as match documents. The zero value uses env.Default and
// discards external bots' logs. It is safe for concurrent use.
type LocalRunner struct {
	// Registry makes the envs; nil means env.Default.
	Registry *env.Registry
	// Log receives external bots' fault lines (agents.Terminal); nil
	// discards them. It must be safe for concurrent writes.
	Log io.Writer
}

var _ Runner = (*LocalRunner)(nil)

// GameSeed returns the seed of game index of a league seeded with seed:
// [env.MixSeed] of the two, as a pool derives its envs' seeds, so that every
// game gets an unrelated seed and a resumed run the seeds an uninterrupted
// one would have used. Each seat's agent gets [env.AgentSeed] of the game's
// seed, as everywhere else.
func GameSeed(seed uint64, index int64) uint64 { return env.MixSeed(seed, uint64(index)) }

// ErrBadMatch is matched (errors.Is) by the errors of a [Match] that cannot
// be played as given: a config that is not valid JSON or not valid for the
// game, a seat count that is not the game's, an agent that cannot be made
// for the game. Their text is unchanged; a server uses it to tell the
// client's mistakes from its own faults.
var ErrBadMatch = errors.New("league: bad match")

// Play plays m to the end (or m.MaxRounds) with the match runner
// (match.Match.Run, whose failure policy gives Result.Forfeit) and returns
// its result.
func (r *LocalRunner) Play(ctx context.Context, m Match) (Result, error) {
	reg := r.Registry
	if reg == nil {
		reg = env.Default
	}
	cfg, err := MatchConfig(reg, m)
	if err != nil {
		return Result{}, markBad(err)
	}
	e, err := reg.Make(m.Game, cfg)
	if err != nil {
		return Result{}, markBad(err)
	}
	spec := e.Spec()
	if len(m.Seats) != spec.Seats {
		return Result{}, kindError{ErrBadMatch, fmt.Errorf("league: game %d: %d agents for %d seats", m.Index, len(m.Seats), spec.Seats)}
	}
	specs := make([]string, len(m.Seats))
	for seat, ent := range m.Seats {
		specs[seat] = ent.Spec
	}
	ags, err := match.NewAgents(m.Game, specs, spec, nil, r.Log)
	if err != nil {
		var ae *match.AgentError
		errors.As(err, &ae)
		return Result{}, kindError{ErrBadMatch, fmt.Errorf("league: agent %s: %w", m.Seats[ae.Seat].Name, ae.Err)}
	}
	g := &match.Match{Env: e, Agents: ags, Seed: m.Seed, MaxRounds: m.MaxRounds, Fingerprint: m.Fingerprint, Names: m.names()}
	defer g.Close()
	var rec *recorder
	if m.Record {
		rec = newRecorder(spec, m)
		labels := make([]int32, spec.Seats)
		g.Hooks.Acted = func(e env.Env, _ int, actions []int32) error {
			rec.observe(e)
			agents.Labels(ags, actions, labels)
			return nil
		}
		g.Hooks.Stepped = func(_ env.Env, _ int, s match.Step) error {
			rec.step(s.Actions, labels, s.Rewards, s.Terminated, s.Truncated)
			return nil
		}
	}
	mr, err := g.Run(ctx)
	if err != nil {
		if errors.Is(err, match.ErrRunaway) {
			err = fmt.Errorf("league: game %d: %w", m.Index, err)
		}
		return Result{}, err
	}
	res := m.result(mr)
	if rec != nil {
		res.Data = &rec.rows
	}
	return res, nil
}

// markBad marks err as an [ErrBadMatch], except an unknown game, which
// stays what it is.
func markBad(err error) error {
	if errors.Is(err, env.ErrUnknownGame) {
		return err
	}
	return kindError{ErrBadMatch, err}
}

// result returns the league's record of m's game from the match runner's
// result r: r with the game's index, without its players' in-game names
// (match.Standing.Name), without the fault counts that are all 0, and with
// the forfeit's seat and agent only (not its round, reason or error). All
// of these depend on where the game was played (a [PoolRunner] plays every
// game of a pool with one config, a [LocalRunner] each with its agents'
// names, as [MatchConfig] sets them; a remote runner's results carry only
// the faults a seat had and the forfeiting seat, and a server sends no
// panic's text), and a league's results must not; the agents' league names
// are in match.Standing.Agent.
func (m Match) result(r match.Result) Result {
	for i := range r.Leaderboard {
		r.Leaderboard[i].Name = ""
	}
	r.Faults = slices.DeleteFunc(r.Faults, func(f match.SeatFaults) bool { return f.Total() == 0 })
	if len(r.Faults) == 0 {
		r.Faults = nil
	}
	if f := r.Forfeit; f != nil {
		r.Forfeit = &match.Forfeit{Seat: f.Seat, Agent: f.Agent}
	}
	return Result{Result: r, Index: m.Index}
}

// names returns the league names of m's seats' agents, seat 0 first: the
// agents a result's standings name.
func (m Match) names() []string {
	out := make([]string, len(m.Seats))
	for i, s := range m.Seats {
		out[i] = s.Name
	}
	return out
}

// MatchConfig returns the config m is played with: the league config (m's
// Config, a JSON object over the game's defaults) with the per-match
// fields the game's config has set: max_rounds (m.MaxRounds, when
// positive), names (the agents' names, numbered where one plays several
// seats) and urls (HTTP bots' urls), as botarena play sets them. A game
// whose config is not a JSON object gets m.Config as it is.
func MatchConfig(reg *env.Registry, m Match) ([]byte, error) {
	entry, err := reg.Lookup(m.Game)
	if err != nil {
		return nil, err
	}
	defaults, err := json.Marshal(entry.NewConfig())
	if err != nil {
		return nil, err
	}
	var has map[string]json.RawMessage
	if err := json.Unmarshal(defaults, &has); err != nil {
		return m.Config, nil // not an object: leave the config alone
	}
	fields := map[string]json.RawMessage{}
	if len(m.Config) > 0 && string(m.Config) != "null" {
		if err := json.Unmarshal(m.Config, &fields); err != nil {
			return nil, fmt.Errorf("league: config: want a JSON object: %v", err)
		}
	}
	set := func(k string, v any) {
		if _, ok := has[k]; ok {
			raw, _ := json.Marshal(v)
			fields[k] = raw
		}
	}
	if m.MaxRounds > 0 {
		set("max_rounds", m.MaxRounds)
	}
	var urls []string
	for i, s := range m.Seats {
		if u := httpbot.URL(s.Spec); u != "" {
			if urls == nil {
				urls = make([]string, len(m.Seats))
			}
			urls[i] = u
		}
	}
	set("names", agents.PlayerNames(m.names()))
	if urls != nil {
		set("urls", urls)
	}
	return json.Marshal(fields)
}

// recorder collects a game's per-step data.
type recorder struct {
	spec *env.Spec
	obs  [][]byte
	mask []byte
	rows matchdata.Rows
}

func newRecorder(spec *env.Spec, m Match) *recorder {
	r := &recorder{spec: spec, obs: spec.NewObsBuffers(), mask: make([]byte, spec.Actions)}
	r.rows = matchdata.Rows{Game: m.Index, Seed: m.Seed, Obs: make([][]byte, len(spec.Obs))}
	r.rows.Agents = m.names()
	return r
}

// observe appends every seat's observation and mask before a step.
func (r *recorder) observe(e env.Env) {
	for seat := range r.spec.Seats {
		e.WriteObs(seat, r.obs)
		e.WriteMask(seat, r.mask)
		for i, b := range r.obs {
			r.rows.Obs[i] = append(r.rows.Obs[i], b...)
		}
		r.rows.Mask = append(r.rows.Mask, r.mask...)
	}
}

// step appends the step's actions, the seats' labels (the teachers'
// actions of agents.Labeller agents, else the actions themselves) and
// outcomes.
func (r *recorder) step(actions, labels []int32, rewards []float32, terminated, truncated []bool) {
	r.rows.Action = append(r.rows.Action, actions...)
	r.rows.Label = append(r.rows.Label, labels...)
	r.rows.Reward = append(r.rows.Reward, rewards...)
	r.rows.Terminated = append(r.rows.Terminated, terminated...)
	r.rows.Truncated = append(r.rows.Truncated, truncated...)
	r.rows.Steps++
}
