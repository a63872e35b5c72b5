package native

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/all" // registers the agent schemes (policy:PATH, dir:, cmd:, http://)
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games" // links every game
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

// ABI is the version of the shared library's C interface; the Python
// package refuses a library with another. 2: the calls off the step path
// take and return the env service's messages (binary protobuf). 3:
// bta_send_recv, [SendRecv] in one call.
const ABI = 3

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
	code := InvalidArgument // envproto.ErrInvalid, *env.ConfigError, *vecenv.ConfigError, ...
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
	async    *vecenv.Async // nil until Bind of a pool with a batch size
	batch    int           // envs per async batch (CreatePoolRequest.batch_size); 0: sync
	layout   []*botarenav1.TensorSpec
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

// withID is [with] for the pool named by its id (CreatePoolResponse.pool_id).
func withID(id string, f func(p *pool) error) error {
	h, err := handleOf(id)
	if err != nil {
		return err
	}
	return with(h, f)
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

// handleOf returns the handle of pool id (its decimal form, as
// CreatePool's response names it).
func handleOf(id string) (int64, error) {
	h, err := strconv.ParseInt(id, 10, 64)
	if err != nil || h <= 0 {
		return 0, errorf(NotFound, "native: no pool %q (pool ids are the handles CreatePool returns)", id)
	}
	return h, nil
}

// ListGames lists the registered games as the env service does (see
// [envproto.GameInfo]); server_version is the library's version.
func ListGames(*botarenav1.ListGamesRequest) (*botarenav1.ListGamesResponse, error) {
	resp := &botarenav1.ListGamesResponse{ServerVersion: Version()}
	for _, name := range env.Default.Names() {
		info, err := envproto.GameInfo(env.Default, name)
		if err != nil {
			return nil, errorf(Internal, "native: %s", err.Error())
		}
		resp.Games = append(resp.Games, info)
	}
	return resp, nil
}

// CreatePool makes a pool from req, checked as the env service checks it
// ([envproto.PoolConfig]; every agent a local user may name is allowed:
// see the package documentation), with batch_size making it async. The
// response's pool_id is the pool's handle in decimal, the handle the
// step functions take; output_arrays lists the arrays [Bind] takes;
// arrow_schema is empty (nothing is encoded) and compression and
// shared_planes are ignored. The pool writes its own buffers until
// [Bind]; it is not reset. Errors: an unknown game or agent is NotFound,
// anything else wrong with req InvalidArgument.
func CreatePool(req *botarenav1.CreatePoolRequest) (*botarenav1.CreatePoolResponse, error) {
	pc, err := envproto.PoolConfig(req, envproto.PoolOptions{Opponent: factory})
	if err != nil {
		return nil, classify(err)
	}
	vp, err := vecenv.New(pc.Config)
	if err != nil {
		return nil, classify(err)
	}
	p := &pool{game: req.GetGame(), p: vp, layout: layout(vp), batch: pc.BatchSize}
	registry.Lock()
	if registry.pools == nil {
		registry.pools = map[int64]*pool{}
	}
	registry.last++
	p.id = registry.last
	registry.pools[p.id] = p
	registry.Unlock()
	learners := make([]int32, 0, len(vp.LearnerSeats()))
	for _, seat := range vp.LearnerSeats() {
		learners = append(learners, int32(seat))
	}
	return &botarenav1.CreatePoolResponse{
		PoolId:       strconv.FormatInt(p.id, 10),
		Spec:         envproto.GameSpec(vp.Spec()),
		Seed:         pc.Config.Seed,
		NumEnvs:      int32(vp.NumEnvs()),
		Rows:         int32(vp.Rows()),
		LearnerSeats: learners,
		AutoReset:    envproto.AutoReset(vp.AutoReset()),
		Workers:      int32(vp.Workers()),
		BatchSize:    int32(pc.BatchSize),
		Opponents:    envproto.Opponents(pc.Config.OpponentNames),
		OutputArrays: p.layout,
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

// ClosePool closes the pool req names (see [Close]); an unknown or closed
// pool is not an error here.
func ClosePool(req *botarenav1.ClosePoolRequest) (*botarenav1.ClosePoolResponse, error) {
	h, err := handleOf(req.GetPoolId())
	if err != nil {
		return nil, err
	}
	return &botarenav1.ClosePoolResponse{}, Close(h)
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
	if p.batch > 0 {
		return errorf(FailedPrecondition, "native: pool %d steps asynchronously (batch size %d): use AsyncReset, Send and Recv", p.id, p.batch)
	}
	return nil
}

// asyncOrErr returns the pool's Async, or an error when it has none.
func (p *pool) asyncOrErr() (*vecenv.Async, error) {
	switch {
	case p.batch == 0:
		return nil, errorf(FailedPrecondition, "native: pool %d is not async: create it with a batch_size", p.id)
	case p.async == nil:
		return nil, errorf(FailedPrecondition, "native: pool %d is not bound: Bind its memory first", p.id)
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
	return with(h, func(p *pool) error { return p.send(envs, actions, false) })
}

// Recv waits for the next batch of async pool h and returns its index in
// the ring bound by [Bind] (see [vecenv.Async.Recv]).
func Recv(h int64) (int, error) {
	k := 0
	err := with(h, func(p *pool) (err error) {
		k, err = p.recv()
		return err
	})
	return k, err
}

// SendRecv is [Send] then [Recv] in one call: it queues envs of async
// pool h with their actions and waits for the next batch, returning its
// index in the ring. A step of an async pool from Python crosses into Go
// once instead of twice. The batch the last Recv returned is handed over
// with the call (see [vecenv.Async.ReleaseAndSend]): it may be written
// before this call returns, and envs sent back in its order step into
// their own rows, where games update observations in place. Nothing is
// received when Send fails.
func SendRecv(h int64, envs, actions []int32) (int, error) {
	k := 0
	err := with(h, func(p *pool) (err error) {
		if err := p.send(envs, actions, true); err != nil {
			return err
		}
		k, err = p.recv()
		return err
	})
	return k, err
}

// send is [Send] on p, under its lock; with release, the batch the last
// Recv returned is released first ([vecenv.Async.ReleaseAndSend]).
func (p *pool) send(envs, actions []int32, release bool) error {
	a, err := p.asyncOrErr()
	if err != nil {
		return err
	}
	send := a.Send
	if release {
		send = a.ReleaseAndSend
	}
	if err := send(envs, actions); err != nil {
		return err
	}
	p.steps++
	return nil
}

// recv is [Recv] on p, under its lock.
func (p *pool) recv() (int, error) {
	a, err := p.asyncOrErr()
	if err != nil {
		return 0, err
	}
	return a.Recv()
}

// quiet waits, in async mode, until no env steps, so that the pool can be
// read or changed directly.
func (p *pool) quiet() {
	if p.async != nil {
		p.async.Wait()
	}
}
