package matchservice

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"sync"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
)

// An Option configures a [Server].
type Option func(*options)

type options struct {
	maxMatches int
	leagues    *league.Leagues // WithLeagues (leagues.go)
}

// WithMaxMatches sets the most goroutines MatchService plays games on at
// once, over all its calls: a Play call takes one for its game, a
// PlayBatch call one per worker of its pool (each playing several games);
// further calls wait for a slot (a cancelled call stops waiting). The
// default is runtime.GOMAXPROCS(0) at New: a game of built-in agents
// is CPU-bound.
func WithMaxMatches(n int) Option { return func(o *options) { o.maxMatches = n } }

// Server implements botarena.v1.MatchService
// ([botarenav1connect.MatchServiceHandler]): whole games played for a
// league coordinator (see match.go and [RemoteRunner]) and, with
// [WithLeagues], the leagues it keeps (leagues.go), on a
// [server.Host] whose registry, logger, message limit, memory budget,
// agent capabilities and metrics it uses.
//
// A Server is safe for concurrent use. Serve it with the host's Handler;
// stop it with [Server.Close] (the host's Close calls it).
type Server struct {
	opts    options
	host    *server.Host
	log     *slog.Logger
	metrics *metrics

	matchSlots chan struct{} // one token per game being played

	mu     sync.Mutex
	closed bool
	// matchCancels cancels the calls in progress (by a number from
	// matchCalls); guarded by mu.
	matchCancels map[uint64]context.CancelFunc
	matchCalls   uint64
}

var (
	_ botarenav1connect.MatchServiceHandler = (*Server)(nil)
	_ server.Service                        = (*Server)(nil)
)

// New returns a MatchService of host h with the given options; see each
// option for its default. It registers its metrics in h's registry (one
// MatchService per host).
func New(h *server.Host, opts ...Option) *Server {
	o := options{maxMatches: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxMatches < 1 {
		o.maxMatches = 1
	}
	s := &Server{
		opts:         o,
		host:         h,
		log:          h.Log(),
		matchSlots:   make(chan struct{}, o.maxMatches),
		matchCancels: map[uint64]context.CancelFunc{},
	}
	s.metrics = newMetrics(s)
	return s
}

// ServiceName returns "botarena.v1.MatchService".
func (s *Server) ServiceName() string { return botarenav1connect.MatchServiceName }

// Handler returns the path and HTTP handler of the service, made with opts
// (the host's; see [server.Host.Handler]).
func (s *Server) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return botarenav1connect.NewMatchServiceHandler(s, opts...)
}

// Close makes every later call Unavailable and cancels the calls in
// progress before it returns: their games stop at their next round, with
// Unavailable. Closing twice is fine. It always returns nil.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, cancel := range s.matchCancels {
		cancel() // running games stop at their next round
	}
	return nil
}

// connectError maps err to its Connect error with the host's table,
// league's errors marked first with their kinds ([leagueErrorKind]): a
// game's league.ErrBadMatch (a config, seat count or agent the game cannot
// take) is InvalidArgument, a league RPC's league.ErrNoLeague NotFound,
// league.ErrExists AlreadyExists, league.ErrRunning FailedPrecondition ...
func (s *Server) connectError(procedure string, err error) error {
	err = s.host.HidePaths(err) // files named as the client named them
	if kind := leagueErrorKind(err); kind != nil {
		err = server.Mark(kind, err)
	}
	return server.ConnectError(s.log, procedure, err)
}

// takeSlots waits for one of the server's match slots and takes up to
// want-1 more that are free, returning how many it holds; the caller gives
// them back. Taking the others without waiting keeps concurrent calls from
// deadlocking on each other's partial holdings.
func (s *Server) takeSlots(ctx context.Context, want int) (int, error) {
	select {
	case s.matchSlots <- struct{}{}:
	case <-ctx.Done():
		return 0, s.matchCtxErr(ctx)
	}
	n := 1
	for n < want {
		select {
		case s.matchSlots <- struct{}{}:
			n++
		default:
			return n, nil
		}
	}
	return n, nil
}

// matchContext returns ctx, also cancelled by Close before it returns, so
// that every game running then sees the shutdown at its next round; it is
// cancelled at once when the server is closed already. The caller calls
// the returned function when its call ends.
func (s *Server) matchContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		cancel()
		return ctx, cancel
	}
	s.matchCalls++
	id := s.matchCalls
	s.matchCancels[id] = cancel
	return ctx, func() {
		s.mu.Lock()
		delete(s.matchCancels, id)
		s.mu.Unlock()
		cancel()
	}
}

// matchCtxErr is the error of a game stopped by its cancelled context:
// Unavailable when the server is closing (another server may play it),
// else ctx's error.
func (s *Server) matchCtxErr(ctx context.Context) error {
	if s.isClosed() {
		return server.Markf(server.ErrShuttingDown, "the server is shutting down")
	}
	return ctx.Err()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
