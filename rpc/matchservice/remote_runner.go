package matchservice

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/observations/matchdata"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

// Defaults of the [RemoteRunner] options.
const (
	DefaultRemoteWindow = 4
	DefaultRemoteBatch  = 8
)

// ErrAllServersDown is returned (wrapped, with each server's last error)
// by [RemoteRunner.Play] once every server has failed.
var ErrAllServersDown = errors.New("every match server is down")

// ErrMatchData is matched (errors.Is) by the error [RemoteRunner.Play]
// returns for a recorded match (league.Match.Record) whose per-step data
// from the server does not fit the game's spec: a missing data message (a
// server that predates recording ignores the request's record flag), or
// lengths other than seats × steps × the bytes of each tensor, the mask
// and the per-row fields. The error names the server, the game and the
// field.
var ErrMatchData = errors.New("inconsistent match data")

// A RemoteOption configures [NewRemoteRunner].
type RemoteOption func(*remoteOptions)

type remoteOptions struct {
	window int
	batch  int
	client []client.Option
	reg    *env.Registry
}

// WithRemoteWindow sets how many PlayBatch calls the runner keeps in flight
// to each server at once. The default is [DefaultRemoteWindow] (4).
func WithRemoteWindow(n int) RemoteOption { return func(o *remoteOptions) { o.window = n } }

// WithRemoteBatch sets the most games one PlayBatch call carries. A call
// takes the games waiting when it is sent, up to this many, so batches are
// large only when the league keeps enough games in flight (its Workers).
// The default is [DefaultRemoteBatch] (8).
func WithRemoteBatch(n int) RemoteOption { return func(o *remoteOptions) { o.batch = n } }

// WithRemoteClientOptions sets the options of the runner's clients
// (protocol, HTTP client, message limit, token), as for client.Dial. The
// message limit (client.WithMaxMessageBytes, default
// client.DefaultMaxMessageBytes) also bounds the batches of recorded
// matches (see [RemoteRunner]).
func WithRemoteClientOptions(opts ...client.Option) RemoteOption {
	return func(o *remoteOptions) { o.client = append(o.client, opts...) }
}

// WithRemoteRegistry sets the registry the runner looks games up in for
// the spec of a recorded match (league.Match.Record), to check the data the
// servers send and to size their batches; it should be the league run's
// (league.RunOptions.Registry). The default is [env.Default].
func WithRemoteRegistry(reg *env.Registry) RemoteOption {
	return func(o *remoteOptions) { o.reg = reg }
}

// RemoteRunner is a league.Runner that plays games on `botarena serve`
// processes through botarena.v1.MatchService.
//
// Play queues its match; every server has Window sender goroutines, each
// taking the queued matches (up to Batch) and sending them in one
// PlayBatch call, so a server that plays faster takes more games (the
// least loaded server gets the next batch). A game is deterministic from
// its seed, so its result does not depend on the server that played it.
//
// When a call fails in a way that says the server is gone (Unavailable,
// Unknown, Aborted or Internal transport errors, or Canceled while the
// games are still wanted), the server is marked down and not used again by
// this runner, and its games are queued again for the others: a game is
// idempotent, and the league stores results by game index, so replaying
// one elsewhere stores it once with the same result. Once every server is
// down, Play returns an error wrapping [ErrAllServersDown] that names each
// server's last error. Errors of a game itself (an unknown agent, an
// external agent the server does not allow, a bad config) are returned by
// Play as the server sent them (*connect.Error).
//
// A match with Record set (league run --data) asks its server for the
// game's per-step data, which Play checks against the game's spec (made
// from the runner's registry, [WithRemoteRegistry]) and returns in
// Result.Data: byte for byte the data league.LocalRunner records. Recorded
// games are large (about seats × steps × 2 KB for BattleBots), and a
// PlayBatch response carries every game of its call within one message, so
// a call carries only as many recorded games as fit the client's message
// limit by their worst case (seats × the game's step cap, or MaxRounds, ×
// the bytes of a row), and at least one. The servers' limit (serve
// --max-message-bytes) must be as large; a game whose data does not fit
// it fails with ResourceExhausted.
//
// A RemoteRunner is safe for concurrent use. Close it to stop its
// goroutines.
type RemoteRunner struct {
	opts    remoteOptions
	budget  int // the most bytes of recorded games' worst cases one call carries; 0: no limit
	servers []*remoteServer
	queue   chan *remoteJob
	ctx     context.Context // cancelled by Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	https   []*http.Client // the runner's own HTTP clients, closed by Close

	mu      sync.Mutex
	live    int                  // servers not marked down
	allDown chan struct{}        // closed when live reaches 0
	specs   map[string]*env.Spec // recorded games' specs by game and config
}

var _ league.Runner = (*RemoteRunner)(nil)

// remoteServer is one server of a RemoteRunner.
type remoteServer struct {
	addr   string
	client botarenav1connect.MatchServiceClient
	down   chan struct{} // closed when marked down
	err    error         // why it is down; guarded by RemoteRunner.mu
	games  atomic.Int64  // games it played
}

// remoteJob is one queued match and where its outcome goes.
type remoteJob struct {
	ctx  context.Context
	m    league.Match
	req  *botarenav1.PlayRequest
	done chan remoteOutcome // buffered: one outcome, never blocks the sender
	// For a recorded match: the game's spec and the worst-case size of its
	// result in bytes (0 otherwise).
	spec  *env.Spec
	bound int
}

type remoteOutcome struct {
	res league.Result
	err error
}

// NewRemoteRunner returns a runner that plays games on the MatchService of
// the servers at addrs: "host:port" (h2c) or base URLs, as for client.Dial. It
// does not connect until the first game. It fails for an empty list or a
// malformed address.
func NewRemoteRunner(addrs []string, opts ...RemoteOption) (*RemoteRunner, error) {
	o := remoteOptions{window: DefaultRemoteWindow, batch: DefaultRemoteBatch, reg: env.Default}
	for _, opt := range opts {
		opt(&o)
	}
	if len(addrs) == 0 {
		return nil, errors.New("matchservice: NewRemoteRunner: no server addresses")
	}
	if o.window < 1 || o.batch < 1 {
		return nil, fmt.Errorf("matchservice: NewRemoteRunner: window and batch must be at least 1, got %d and %d", o.window, o.batch)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &RemoteRunner{
		opts:    o,
		queue:   make(chan *remoteJob),
		ctx:     ctx,
		cancel:  cancel,
		live:    len(addrs),
		allDown: make(chan struct{}),
		specs:   map[string]*env.Spec{},
	}
	for _, addr := range addrs {
		e, err := client.NewEndpoint(addr, o.client...)
		if err != nil {
			cancel()
			r.closeClients()
			return nil, fmt.Errorf("matchservice: NewRemoteRunner: %w", err)
		}
		if e.Owned {
			r.https = append(r.https, e.HTTPClient)
		}
		r.budget = max(e.MaxMessageBytes, 0) // the same for every server
		mc := botarenav1connect.NewMatchServiceClient(e.HTTPClient, e.BaseURL, e.Options...)
		r.servers = append(r.servers, &remoteServer{addr: addr, client: mc, down: make(chan struct{})})
	}
	for _, srv := range r.servers {
		for range o.window {
			r.wg.Go(func() { r.send(srv) })
		}
	}
	return r, nil
}

// Play queues m for the servers and waits for its outcome or ctx. With
// m.Record set, the result's Data holds the game's per-step data. It
// returns ctx's error when ctx is cancelled first (the server's game is
// then cancelled too, once no other game of its call is wanted), an error
// wrapping [ErrAllServersDown] when no server is left, a game's own error
// (*connect.Error) as its server sent it, an error wrapping [ErrMatchData]
// when a recorded game's data does not fit its spec, and the registry's
// error when it cannot make a recorded game's env (for its spec).
func (r *RemoteRunner) Play(ctx context.Context, m league.Match) (league.Result, error) {
	j := &remoteJob{ctx: ctx, m: m, req: playRequest(m), done: make(chan remoteOutcome, 1)}
	if m.Record {
		spec, err := r.spec(m)
		if err != nil {
			return league.Result{}, fmt.Errorf("matchservice: match data of game %d: %w", m.Index, err)
		}
		j.spec, j.bound = spec, dataBound(spec, m.MaxRounds)
	}
	select {
	case r.queue <- j:
	case <-r.allDown:
		return league.Result{}, r.downErr()
	case <-r.ctx.Done():
		return league.Result{}, errors.New("matchservice: the remote runner is closed")
	case <-ctx.Done():
		return league.Result{}, ctx.Err()
	}
	select {
	case o := <-j.done:
		return o.res, o.err
	case <-ctx.Done():
		return league.Result{}, ctx.Err()
	}
}

// Close stops the runner's goroutines, cancelling the calls in flight, and
// closes its idle connections. Games waiting in Play get an error. It
// always returns nil.
func (r *RemoteRunner) Close() error {
	r.cancel()
	r.wg.Wait()
	r.closeClients()
	return nil
}

func (r *RemoteRunner) closeClients() {
	for _, hc := range r.https {
		hc.CloseIdleConnections()
	}
}

// ServerStats describes one server of a [RemoteRunner].
type ServerStats struct {
	Addr  string
	Games int64 // games whose results it returned
	Err   error // why it was marked down; nil while it is up
}

// Servers returns the runner's servers, in the order of the addresses given
// to NewRemoteRunner, with the games each has played and, for a server
// marked down, why.
func (r *RemoteRunner) Servers() []ServerStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]ServerStats, len(r.servers))
	for i, srv := range r.servers {
		out[i] = ServerStats{Addr: srv.addr, Games: srv.games.Load(), Err: srv.err}
	}
	return out
}

// spec returns the spec of m's game and config, made once per game and
// config with the runner's registry.
func (r *RemoteRunner) spec(m league.Match) (*env.Spec, error) {
	key := m.Game + "\x00" + string(m.Config)
	r.mu.Lock()
	spec := r.specs[key]
	r.mu.Unlock()
	if spec != nil {
		return spec, nil
	}
	e, err := r.opts.reg.Make(m.Game, m.Config)
	if err != nil {
		return nil, err
	}
	spec = e.Spec()
	r.mu.Lock()
	r.specs[key] = spec
	r.mu.Unlock()
	return spec, nil
}

// dataBound is the most bytes a recorded game of spec, capped at
// maxRounds when positive, adds to a PlayBatch response: every seat for
// every step its rows (tensors, mask, an action of at most 5 varint
// bytes, a reward, two flags) and 1 KiB for the rest of the result.
func dataBound(spec *env.Spec, maxRounds int) int {
	steps := spec.MaxSteps
	if maxRounds > 0 {
		steps = min(steps, maxRounds)
	}
	return spec.Seats*steps*(spec.ObsBytes()+spec.Actions+5+4+2) + 1<<10
}

// send is one sender of srv: it takes the queued games, up to a batch (and
// for recorded games the runner's byte budget), and plays them on srv until
// srv is marked down or the runner is closed.
func (r *RemoteRunner) send(srv *remoteServer) {
	var next *remoteJob // taken from the queue but over the last batch's budget
	for {
		first := next
		next = nil
		if first == nil {
			select {
			case first = <-r.queue:
			case <-srv.down:
				return
			case <-r.ctx.Done():
				return
			}
		} else {
			select {
			case <-srv.down:
				r.requeue(first)
				return
			default:
			}
		}
		batch, size := []*remoteJob{first}, first.bound
	fill:
		for len(batch) < r.opts.batch {
			select {
			case j := <-r.queue:
				if r.budget > 0 && size+j.bound > r.budget {
					next = j // it starts the next batch
					break fill
				}
				batch, size = append(batch, j), size+j.bound
			default:
				break fill
			}
		}
		wanted := batch[:0]
		for _, j := range batch {
			if j.ctx.Err() == nil { // else Play has returned
				wanted = append(wanted, j)
			}
		}
		if len(wanted) == 0 {
			continue
		}
		if err := r.playBatch(srv, wanted); err != nil {
			if next != nil {
				r.requeue(next)
			}
			return
		}
	}
}

// playBatch plays jobs on srv with one PlayBatch call and delivers their
// outcomes. When srv fails, it marks srv down, queues the games it did not
// play again and returns the error.
func (r *RemoteRunner) playBatch(srv *remoteServer, jobs []*remoteJob) error {
	// The call is cancelled when none of its games is wanted any more, or
	// when the runner closes.
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	var wanted atomic.Int64
	wanted.Store(int64(len(jobs)))
	for _, j := range jobs {
		stop := context.AfterFunc(j.ctx, func() {
			if wanted.Add(-1) == 0 {
				cancel()
			}
		})
		defer stop()
	}
	req := &botarenav1.PlayBatchRequest{Matches: make([]*botarenav1.PlayRequest, len(jobs))}
	for i, j := range jobs {
		req.Matches[i] = j.req
	}
	resp, err := srv.client.PlayBatch(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			// Nobody waits for these games (or the runner is closed): the
			// server is not at fault.
			for _, j := range jobs {
				j.done <- remoteOutcome{err: context.Cause(ctx)}
			}
			return nil
		}
		if serverGone(err) {
			return r.markDown(srv, err, jobs)
		}
		for _, j := range jobs {
			j.done <- remoteOutcome{err: fmt.Errorf("matchservice: server %s: %w", srv.addr, err)}
		}
		return nil
	}
	outs := resp.GetOutcomes()
	if len(outs) != len(jobs) {
		return r.markDown(srv, fmt.Errorf("PlayBatch returned %d outcomes for %d games", len(outs), len(jobs)), jobs)
	}
	var again []*remoteJob
	var gone error
	for i, o := range outs {
		j := jobs[i]
		switch {
		case o.GetResult() != nil:
			res := leagueResult(o.GetResult())
			res.Game = j.m.Game // the registry name, which the response does not repeat
			if j.m.Record {
				data, err := matchRows(j.spec, j.m, o.GetResult())
				if err != nil {
					j.done <- remoteOutcome{err: fmt.Errorf("matchservice: server %s: game %d: %w", srv.addr, j.m.Index, err)}
					continue
				}
				res.Data = data
			}
			srv.games.Add(1)
			j.done <- remoteOutcome{res: res}
		case o.GetError() != nil:
			err := matchError(o.GetError())
			if serverGone(err) {
				// The server shut down during the game: play it elsewhere.
				again, gone = append(again, j), err
				continue
			}
			j.done <- remoteOutcome{err: fmt.Errorf("matchservice: server %s: %w", srv.addr, err)}
		default:
			j.done <- remoteOutcome{err: fmt.Errorf("matchservice: server %s: game %d: empty outcome", srv.addr, j.m.Index)}
		}
	}
	if gone != nil {
		return r.markDown(srv, gone, again)
	}
	return nil
}

// serverGone reports whether err says that the server (or the connection
// to it) is gone rather than that a game was wrong: the game is then
// played again on another server.
func serverGone(err error) bool {
	switch connect.CodeOf(err) {
	case connect.CodeUnavailable, connect.CodeUnknown, connect.CodeAborted, connect.CodeCanceled:
		return true
	case connect.CodeInternal:
		// A broken connection or a truncated response; a game's own
		// internal error comes as a PlayBatch outcome, not a call error.
		return true
	}
	return false
}

// markDown marks srv down for err, hands jobs to the other servers (or
// fails them when none is left) and returns err.
func (r *RemoteRunner) markDown(srv *remoteServer, err error, jobs []*remoteJob) error {
	r.mu.Lock()
	select {
	case <-srv.down:
	default:
		srv.err = err
		close(srv.down)
		r.live--
		if r.live == 0 {
			close(r.allDown)
		}
	}
	r.mu.Unlock()
	for _, j := range jobs {
		r.requeue(j)
	}
	return err
}

// requeue hands j to the servers' senders again, from a goroutine of its
// own, or fails it when no server is left or the runner is closed.
func (r *RemoteRunner) requeue(j *remoteJob) {
	go func() {
		select {
		case r.queue <- j:
		case <-r.allDown:
			j.done <- remoteOutcome{err: r.downErr()}
		case <-r.ctx.Done():
			j.done <- remoteOutcome{err: errors.New("matchservice: the remote runner is closed")}
		case <-j.ctx.Done():
		}
	}()
}

// matchRows returns the per-step data of resp, a result of the recorded
// match m of spec's game, after checking every length against spec: one
// agent per seat (m's names), one observation slice per tensor, and
// steps × seats rows in each field. The rows alias resp's slices. Errors
// wrap [ErrMatchData].
func matchRows(spec *env.Spec, m league.Match, resp *botarenav1.PlayResponse) (*matchdata.Rows, error) {
	d := resp.GetData()
	if d == nil {
		return nil, fmt.Errorf("%w: the response has none (a server older than recording ignores the request's record flag: update it)", ErrMatchData)
	}
	if d.GetSteps() < 0 {
		return nil, fmt.Errorf("%w: steps: got %d", ErrMatchData, d.GetSteps())
	}
	if len(d.GetAgents()) != spec.Seats {
		return nil, fmt.Errorf("%w: %d agents for the %d seats of %s", ErrMatchData, len(d.GetAgents()), spec.Seats, spec.Game)
	}
	for seat, a := range d.GetAgents() {
		if seat < len(m.Seats) && a != m.Seats[seat].Name {
			return nil, fmt.Errorf("%w: agents[%d] is %q, want %q", ErrMatchData, seat, a, m.Seats[seat].Name)
		}
	}
	steps := int(d.GetSteps())
	rows := steps * spec.Seats
	if len(d.GetObs()) != len(spec.Obs) {
		return nil, fmt.Errorf("%w: %d observation tensors, want the %d of %s", ErrMatchData, len(d.GetObs()), len(spec.Obs), spec.Game)
	}
	for i, t := range spec.Obs {
		if n := len(d.GetObs()[i]); n != rows*t.Bytes() {
			return nil, fmt.Errorf("%w: tensor %q has %d bytes, want %d (%d steps × %d seats × %d bytes)", ErrMatchData, t.Name, n, rows*t.Bytes(), steps, spec.Seats, t.Bytes())
		}
	}
	if n := len(d.GetMask()); n != rows*spec.Actions {
		return nil, fmt.Errorf("%w: mask has %d bytes, want %d (%d steps × %d seats × %d actions)", ErrMatchData, n, rows*spec.Actions, steps, spec.Seats, spec.Actions)
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"action", len(d.GetAction())}, {"reward", len(d.GetReward())}, {"terminated", len(d.GetTerminated())}, {"truncated", len(d.GetTruncated())}} {
		if f.n != rows {
			return nil, fmt.Errorf("%w: %s has %d values, want %d (%d steps × %d seats)", ErrMatchData, f.name, f.n, rows, steps, spec.Seats)
		}
	}
	if n := len(d.GetLabel()); n != 0 && n != rows {
		return nil, fmt.Errorf("%w: label has %d values, want %d (%d steps × %d seats) or none", ErrMatchData, n, rows, steps, spec.Seats)
	}
	return &matchdata.Rows{
		Game:       resp.GetIndex(),
		Seed:       resp.GetSeed(),
		Agents:     d.GetAgents(),
		Steps:      steps,
		Obs:        d.GetObs(),
		Mask:       d.GetMask(),
		Action:     d.GetAction(),
		Label:      d.GetLabel(), // nil from a server from before labels: the actions
		Reward:     d.GetReward(),
		Terminated: d.GetTerminated(),
		Truncated:  d.GetTruncated(),
	}, nil
}

// downErr describes why every server is down.
func (r *RemoteRunner) downErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	why := make([]string, len(r.servers))
	for i, srv := range r.servers {
		why[i] = fmt.Sprintf("%s: %v", srv.addr, srv.err)
	}
	return fmt.Errorf("matchservice: %w (%d servers: %s); a league run stores every finished game, so start the servers and run it again to finish it",
		ErrAllServersDown, len(r.servers), strings.Join(why, "; "))
}
