package rpc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/league"
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

// ErrRemoteRecord is returned by [RemoteRunner.Play] for a match that asks
// for per-step data (league.Match.Record, league run --data): MatchService
// returns results only.
var ErrRemoteRecord = errors.New("rpc: match data (--data) cannot be recorded by remote servers; run the league without --servers to record it")

// A RemoteOption configures [NewRemoteRunner].
type RemoteOption func(*remoteOptions)

type remoteOptions struct {
	window int
	batch  int
	client []ClientOption
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
// (protocol, HTTP client, message limit), as for [Dial].
func WithRemoteClientOptions(opts ...ClientOption) RemoteOption {
	return func(o *remoteOptions) { o.client = append(o.client, opts...) }
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
// A RemoteRunner is safe for concurrent use. Close it to stop its
// goroutines.
type RemoteRunner struct {
	opts    remoteOptions
	servers []*remoteServer
	queue   chan *remoteJob
	ctx     context.Context // cancelled by Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	https   []*http.Client // the runner's own HTTP clients, closed by Close

	mu      sync.Mutex
	live    int           // servers not marked down
	allDown chan struct{} // closed when live reaches 0
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
}

type remoteOutcome struct {
	res league.Result
	err error
}

// NewRemoteRunner returns a runner that plays games on the MatchService of
// the servers at addrs: "host:port" (h2c) or base URLs, as for [Dial]. It
// does not connect until the first game. It fails for an empty list or a
// malformed address.
func NewRemoteRunner(addrs []string, opts ...RemoteOption) (*RemoteRunner, error) {
	o := remoteOptions{window: DefaultRemoteWindow, batch: DefaultRemoteBatch}
	for _, opt := range opts {
		opt(&o)
	}
	if len(addrs) == 0 {
		return nil, errors.New("rpc: NewRemoteRunner: no server addresses")
	}
	if o.window < 1 || o.batch < 1 {
		return nil, fmt.Errorf("rpc: NewRemoteRunner: window and batch must be at least 1, got %d and %d", o.window, o.batch)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &RemoteRunner{
		opts:    o,
		queue:   make(chan *remoteJob),
		ctx:     ctx,
		cancel:  cancel,
		live:    len(addrs),
		allDown: make(chan struct{}),
	}
	for _, addr := range addrs {
		client, hc, err := newMatchClient(addr, o.client)
		if err != nil {
			cancel()
			r.closeClients()
			return nil, err
		}
		if hc != nil {
			r.https = append(r.https, hc)
		}
		r.servers = append(r.servers, &remoteServer{addr: addr, client: client, down: make(chan struct{})})
	}
	for _, srv := range r.servers {
		for range o.window {
			r.wg.Go(func() { r.send(srv) })
		}
	}
	return r, nil
}

// newMatchClient returns a MatchService client of addr with the options of
// Dial, and the HTTP client it made (nil when the options gave one).
func newMatchClient(addr string, opts []ClientOption) (botarenav1connect.MatchServiceClient, *http.Client, error) {
	cn, err := newConnection("server", addr, opts)
	if err != nil {
		return nil, nil, err
	}
	var owned *http.Client
	if cn.owned {
		owned = cn.http
	}
	return botarenav1connect.NewMatchServiceClient(cn.http, cn.base, cn.opts...), owned, nil
}

// Play queues m for the servers and waits for its outcome or ctx. It
// returns ctx's error when ctx is cancelled first (the server's game is
// then cancelled too, once no other game of its call is wanted), an error
// wrapping [ErrAllServersDown] when no server is left, [ErrRemoteRecord]
// when m.Record is set, and a game's own error (*connect.Error) as its
// server sent it.
func (r *RemoteRunner) Play(ctx context.Context, m league.Match) (league.Result, error) {
	if m.Record {
		return league.Result{}, ErrRemoteRecord
	}
	j := &remoteJob{ctx: ctx, m: m, req: playRequest(m), done: make(chan remoteOutcome, 1)}
	select {
	case r.queue <- j:
	case <-r.allDown:
		return league.Result{}, r.downErr()
	case <-r.ctx.Done():
		return league.Result{}, errors.New("rpc: the remote runner is closed")
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

// send is one sender of srv: it takes the queued games, up to a batch, and
// plays them on srv until srv is marked down or the runner is closed.
func (r *RemoteRunner) send(srv *remoteServer) {
	for {
		var first *remoteJob
		select {
		case first = <-r.queue:
		case <-srv.down:
			return
		case <-r.ctx.Done():
			return
		}
		batch := []*remoteJob{first}
	fill:
		for len(batch) < r.opts.batch {
			select {
			case j := <-r.queue:
				batch = append(batch, j)
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
			j.done <- remoteOutcome{err: fmt.Errorf("rpc: server %s: %w", srv.addr, err)}
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
			srv.games.Add(1)
			j.done <- remoteOutcome{res: leagueResult(o.GetResult())}
		case o.GetError() != nil:
			err := matchError(o.GetError())
			if serverGone(err) {
				// The server shut down during the game: play it elsewhere.
				again, gone = append(again, j), err
				continue
			}
			j.done <- remoteOutcome{err: fmt.Errorf("rpc: server %s: %w", srv.addr, err)}
		default:
			j.done <- remoteOutcome{err: fmt.Errorf("rpc: server %s: game %d: empty outcome", srv.addr, j.m.Index)}
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
		go func() {
			select {
			case r.queue <- j:
			case <-r.allDown:
				j.done <- remoteOutcome{err: r.downErr()}
			case <-r.ctx.Done():
				j.done <- remoteOutcome{err: errors.New("rpc: the remote runner is closed")}
			case <-j.ctx.Done():
			}
		}()
	}
	return err
}

// downErr describes why every server is down.
func (r *RemoteRunner) downErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	why := make([]string, len(r.servers))
	for i, srv := range r.servers {
		why[i] = fmt.Sprintf("%s: %v", srv.addr, srv.err)
	}
	return fmt.Errorf("rpc: %w (%d servers: %s); a league run stores every finished game, so start the servers and run it again to finish it",
		ErrAllServersDown, len(r.servers), strings.Join(why, "; "))
}
