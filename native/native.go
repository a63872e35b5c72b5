package native

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/policy" // registers the policy:PATH agent scheme
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games" // links every game
	"github.com/botarena/botarena/vecenv"
)

// ABI is the version of the shared library's C interface; the Python
// package refuses a library with another.
const ABI = 1

// Code is the kind of an [Error], numbered like the gRPC status codes
// the remote backend gives for the same mistakes.
type Code int32

const (
	// OK is no error.
	OK Code = 0
	// InvalidArgument: a bad config, seat, agent, size, env id or action.
	InvalidArgument Code = 3
	// NotFound: an unknown game, agent or pool handle, or a closed pool.
	NotFound Code = 5
	// FailedPrecondition: the call does not fit the pool's state (a step
	// before the first reset, sync calls on an async pool, a recv that
	// could never complete).
	FailedPrecondition Code = 9
	// Internal: a game or opponent panicked; the pool has been closed.
	Internal Code = 13
)

// Error is the error of every function of the package: a [Code] and one
// line of text.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// classify returns err as an *Error, with the code of its kind.
func classify(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	code := InvalidArgument
	switch {
	case errors.Is(err, env.ErrUnknownGame), errors.Is(err, agents.ErrUnknownAgent), errors.Is(err, vecenv.ErrClosed):
		code = NotFound
	case errors.Is(err, vecenv.ErrNotReset), errors.Is(err, vecenv.ErrStarved):
		code = FailedPrecondition
	}
	return &Error{Code: code, Msg: firstLine(err.Error())}
}

// firstLine returns s up to its first newline (a recovered panic carries a
// stack).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// pool is one pool of the registry. mu serialises the calls on it.
type pool struct {
	mu       sync.Mutex
	id       int64
	game     string
	p        *vecenv.Pool
	async    *vecenv.Async // nil until Bind with a batch size
	batch    int
	layout   []Array
	wasReset bool
	steps    int64 // Step and Send calls
	closed   bool
}

var registry struct {
	sync.Mutex
	pools map[int64]*pool
	last  int64
}

// with runs f on pool h under its lock, turning errors into *Error and a
// panic into an Internal error that closes the pool.
func with(h int64, f func(p *pool) error) (err error) {
	registry.Lock()
	p := registry.pools[h]
	registry.Unlock()
	if p == nil {
		return errorf(NotFound, "native: no pool %d (closed, or never made)", h)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errorf(NotFound, "native: pool %d is closed", h)
	}
	defer func() {
		if r := recover(); r != nil {
			msg := firstLine(fmt.Sprint(r))
			p.closeLocked()
			err = errorf(Internal, "native: pool %d (%s) closed after an internal error: %s", h, p.game, msg)
		}
	}()
	if err := f(p); err != nil {
		return classify(err)
	}
	return nil
}

// closeLocked stops the pool's workers, closes its opponents and drops it
// from the registry.
func (p *pool) closeLocked() {
	if p.closed {
		return
	}
	p.closed = true
	registry.Lock()
	delete(registry.pools, p.id)
	registry.Unlock()
	defer p.p.Close()
	if p.async != nil {
		p.async.Close()
	}
}

// CreateRequest is what [Create] makes a pool from: the fields of the
// remote backend's CreatePoolRequest.
type CreateRequest struct {
	// Game is the registry name ("bomberman", "bomberman/2p").
	Game string `json:"game"`
	// ConfigJSON is the game's JSON config over its defaults ("": none).
	ConfigJSON string `json:"config_json"`
	// NumEnvs is the number of envs, at least 1.
	NumEnvs int `json:"num_envs"`
	// Seed is the pool seed; null draws one at random (see Info.Seed).
	Seed *uint64 `json:"seed"`
	// LearnerSeats are the seats whose actions Step takes; empty or null
	// means every seat, in order.
	LearnerSeats []int `json:"learner_seats"`
	// Opponents names the agent of every other seat, by seat.
	Opponents map[int]string `json:"opponents"`
	// DefaultOpponent, when not "", plays every seat that is neither a
	// learner seat nor in Opponents (nothing when LearnerSeats is empty:
	// every seat learns).
	DefaultOpponent string `json:"default_opponent"`
	// AutoReset is "next_step" (the default, also "") or "same_step".
	AutoReset string `json:"autoreset"`
	// Workers is the number of goroutines stepping the pool (0:
	// GOMAXPROCS, capped at NumEnvs).
	Workers int `json:"workers"`
}

// Info describes a pool made by [Create].
type Info struct {
	Handle       int64  `json:"handle"`
	Spec         Spec   `json:"spec"`
	Seed         uint64 `json:"seed"`
	NumEnvs      int    `json:"num_envs"`
	Rows         int    `json:"rows"`
	LearnerSeats []int  `json:"learner_seats"`
	// Opponents names the agent of every opponent seat, by seat.
	Opponents map[int]string `json:"opponents"`
	AutoReset string         `json:"autoreset"`
	Workers   int            `json:"workers"`
	// Layout lists the arrays of one output, in the order [Bind] takes
	// their addresses.
	Layout []Array `json:"layout"`
}

// Spec is a game's spec, as the remote backend's GameSpec.
type Spec struct {
	Game         string   `json:"game"`
	Seats        int      `json:"seats"`
	Observations []Tensor `json:"observations"`
	Actions      int      `json:"actions"`
	ActionNames  []string `json:"action_names"`
	MaxSteps     int      `json:"max_steps"`
	Reward       string   `json:"reward"`
	// ActionFactors splits the actions into commands and cells
	// ([env.Spec.Factors]); nil for a flat action space.
	ActionFactors *ActionFactors `json:"action_factors,omitempty"`
}

// ActionFactors is [env.ActionFactors] in the remote spec's field names.
type ActionFactors struct {
	Commands []string `json:"commands"`
	Cells    int      `json:"cells"`
	Command  []int32  `json:"command"`
	Cell     []int32  `json:"cell"`
}

// Tensor is one observation tensor of a [Spec].
type Tensor struct {
	Name   string `json:"name"`
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Layout string `json:"layout"`
	// Shared lists the channels every seat of an env sees alike
	// ([env.Tensor.Shared]), as the remote spec does.
	Shared []int `json:"shared"`
}

// Create makes a pool from req and returns its handle and description.
// The pool writes its own buffers until [Bind]; it is not reset. Errors:
// an unknown game or agent is NotFound, anything else wrong with req
// InvalidArgument.
func Create(req CreateRequest) (Info, error) {
	cfg, err := poolConfig(req)
	if err != nil {
		return Info{}, classify(err)
	}
	vp, err := vecenv.New(cfg)
	if err != nil {
		return Info{}, classify(err)
	}
	p := &pool{game: req.Game, p: vp, layout: layout(vp)}
	registry.Lock()
	if registry.pools == nil {
		registry.pools = map[int64]*pool{}
	}
	registry.last++
	p.id = registry.last
	registry.pools[p.id] = p
	registry.Unlock()
	return Info{
		Handle:       p.id,
		Spec:         specOf(vp.Spec()),
		Seed:         cfg.Seed,
		NumEnvs:      vp.NumEnvs(),
		Rows:         vp.Rows(),
		LearnerSeats: vp.LearnerSeats(),
		Opponents:    cfg.OpponentNames,
		AutoReset:    vp.AutoReset().String(),
		Workers:      vp.Workers(),
		Layout:       p.layout,
	}, nil
}

// poolConfig checks req and turns it into a vecenv config.
func poolConfig(req CreateRequest) (vecenv.Config, error) {
	if req.Game == "" {
		return vecenv.Config{}, errorf(InvalidArgument, "game: required (games: %s)", strings.Join(env.Default.Names(), ", "))
	}
	if _, err := env.Default.Lookup(req.Game); err != nil {
		return vecenv.Config{}, err
	}
	mode, err := vecenv.ParseAutoReset(req.AutoReset)
	if err != nil {
		return vecenv.Config{}, err
	}
	var cfgJSON []byte
	if req.ConfigJSON != "" {
		cfgJSON = []byte(req.ConfigJSON)
	}
	var learners []int
	if len(req.LearnerSeats) > 0 {
		learners = req.LearnerSeats
	}
	specs := maps.Clone(req.Opponents)
	if req.DefaultOpponent != "" && learners != nil {
		e, err := env.Default.Make(req.Game, cfgJSON)
		if err != nil {
			return vecenv.Config{}, err
		}
		if specs == nil {
			specs = map[int]string{}
		}
		for seat := range e.Spec().Seats {
			if _, ok := specs[seat]; !ok && !slices.Contains(learners, seat) {
				specs[seat] = req.DefaultOpponent
			}
		}
	}
	var opps map[int]env.AgentFactory
	var names map[int]string
	for _, seat := range slices.Sorted(maps.Keys(specs)) {
		f, err := factory(req.Game, fmt.Sprintf("opponents[%d]", seat), specs[seat])
		if err != nil {
			return vecenv.Config{}, err
		}
		if opps == nil {
			opps, names = map[int]env.AgentFactory{}, map[int]string{}
		}
		opps[seat], names[seat] = f, specs[seat]
	}
	var seed uint64
	if req.Seed != nil {
		seed = *req.Seed
	} else {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	return vecenv.Config{
		Game:          req.Game,
		GameConfig:    cfgJSON,
		NumEnvs:       req.NumEnvs,
		Seed:          seed,
		Workers:       req.Workers,
		LearnerSeats:  learners,
		Opponents:     opps,
		OpponentNames: names,
		AutoReset:     mode,
	}, nil
}

// factory returns the factory of agent spec for game; field names it in
// errors.
func factory(game, field, spec string) (env.AgentFactory, error) {
	if spec == "console" {
		return nil, errorf(InvalidArgument, "%s: the console agent plays at botarena's own terminal (botarena play), not in pools", field)
	}
	if !agents.Known(game, spec) {
		return nil, fmt.Errorf("%s: %w %s for %s (valid: %s)", field, agents.ErrUnknownAgent, agents.QuoteSpec(spec), game,
			strings.Join(append(agents.Names(game), agents.Schemes(game)...), ", "))
	}
	return func(s *env.Spec) (env.Agent, error) { return agents.New(game, spec, s) }, nil
}

func specOf(s *env.Spec) Spec {
	out := Spec{Game: s.Game, Seats: s.Seats, Actions: s.Actions, ActionNames: slices.Clone(s.ActionNames), MaxSteps: s.MaxSteps, Reward: s.Reward}
	for _, t := range s.Obs {
		out.Observations = append(out.Observations, Tensor{Name: t.Name, DType: t.DType.String(), Shape: slices.Clone(t.Shape), Layout: t.Layout, Shared: slices.Clone(t.Shared)})
	}
	if f := s.Factors; f != nil {
		out.ActionFactors = &ActionFactors{Commands: slices.Clone(f.Commands), Cells: f.Cells, Command: slices.Clone(f.Command), Cell: slices.Clone(f.Cell)}
	}
	return out
}

// Close closes pool h: it waits for a call running on it, stops its
// workers and closes its opponents; the caller's arrays are no longer
// written. Closing a closed or unknown handle does nothing.
func Close(h int64) error {
	registry.Lock()
	p := registry.pools[h]
	registry.Unlock()
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closeLocked()
	return nil
}

// Reset starts a new episode in every env of pool h and writes every row
// (see [vecenv.Pool.Reset]).
func Reset(h int64) error {
	return with(h, func(p *pool) error {
		if err := p.sync(); err != nil {
			return err
		}
		if err := p.p.Reset(); err != nil {
			return err
		}
		p.wasReset = true
		return nil
	})
}

// Step steps every env of pool h with actions, one per row (see
// [vecenv.Pool.Step]); the slice is only read during the call.
func Step(h int64, actions []int32) error {
	return with(h, func(p *pool) error {
		if err := p.sync(); err != nil {
			return err
		}
		if err := p.p.Step(actions); err != nil {
			return err
		}
		p.steps++
		return nil
	})
}

// sync refuses the sync calls of an async pool.
func (p *pool) sync() error {
	if p.async != nil {
		return errorf(FailedPrecondition, "native: pool %d steps asynchronously (batch size %d): use AsyncReset, Send and Recv", p.id, p.batch)
	}
	return nil
}

// async returns the pool's Async, or an error when it has none.
func (p *pool) asyncOrErr() (*vecenv.Async, error) {
	if p.async == nil {
		return nil, errorf(FailedPrecondition, "native: pool %d is not async: bind it with a batch size first", p.id)
	}
	return p.async, nil
}

// AsyncReset resets every env of async pool h in the background (see
// [vecenv.Async.Reset]).
func AsyncReset(h int64) error {
	return with(h, func(p *pool) error {
		a, err := p.asyncOrErr()
		if err != nil {
			return err
		}
		if err := a.Reset(); err != nil {
			return err
		}
		p.wasReset = true
		return nil
	})
}

// Send queues envs of async pool h with their actions (see
// [vecenv.Async.Send]); the slices are only read during the call.
func Send(h int64, envs, actions []int32) error {
	return with(h, func(p *pool) error {
		a, err := p.asyncOrErr()
		if err != nil {
			return err
		}
		if err := a.Send(envs, actions); err != nil {
			return err
		}
		p.steps++
		return nil
	})
}

// Recv waits for the next batch of async pool h and returns its index in
// the ring bound by [Bind] (see [vecenv.Async.Recv]).
func Recv(h int64) (int, error) {
	k := 0
	err := with(h, func(p *pool) error {
		a, err := p.asyncOrErr()
		if err != nil {
			return err
		}
		k, err = a.Recv()
		return err
	})
	return k, err
}

// quiet waits, in async mode, until no env steps, so that the pool can be
// read or changed directly.
func (p *pool) quiet() {
	if p.async != nil {
		p.async.Wait()
	}
}
