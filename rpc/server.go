package rpc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"sync"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

// Defaults of the [Server] limits.
const (
	DefaultMaxEnvsPerPool  = 65536
	DefaultMaxPools        = 64
	DefaultMaxTotalEnvs    = 262144
	DefaultIdleTimeout     = 10 * time.Minute
	DefaultMaxMessageBytes = 256 << 20
)

// An Option configures a [Server].
type Option func(*options)

type options struct {
	maxEnvsPerPool  int
	maxPools        int
	maxTotalEnvs    int
	idleTimeout     time.Duration
	maxMessageBytes int
	maxWorkers      int
	log             *slog.Logger
	reg             *env.Registry
	externalAgents  bool
	maxMatches      int
}

// WithMaxEnvsPerPool sets the most envs one pool may have; CreatePool with
// more is ResourceExhausted. The default is [DefaultMaxEnvsPerPool] (65536).
func WithMaxEnvsPerPool(n int) Option { return func(o *options) { o.maxEnvsPerPool = n } }

// WithMaxPools sets the most pools open at once; CreatePool beyond it is
// ResourceExhausted. The default is [DefaultMaxPools] (64).
func WithMaxPools(n int) Option { return func(o *options) { o.maxPools = n } }

// WithMaxTotalEnvs sets the most envs of all open pools together; CreatePool
// beyond it is ResourceExhausted. The default is [DefaultMaxTotalEnvs]
// (262144).
func WithMaxTotalEnvs(n int) Option { return func(o *options) { o.maxTotalEnvs = n } }

// WithIdleTimeout sets how long a pool may go without a call before the
// server closes it; a later call on it is NotFound, saying that it was closed
// after being idle. Zero or less disables the idle timeout. The default is
// [DefaultIdleTimeout] (10 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(o *options) { o.idleTimeout = d } }

// WithMaxMessageBytes sets the largest message, request or response, the
// handlers of [Server.Handler] read or send (connect.WithReadMaxBytes and
// WithSendMaxBytes). A batch larger than this fails with ResourceExhausted.
// The default is [DefaultMaxMessageBytes] (256 MiB; a batch of 4096 4-player
// Bomberman envs is about 88 MB).
func WithMaxMessageBytes(n int) Option { return func(o *options) { o.maxMessageBytes = n } }

// WithMaxWorkers sets the most worker goroutines one pool gets; a request
// for more (or for 0, the default) gets this many. The default is
// runtime.GOMAXPROCS(0) at NewServer.
func WithMaxWorkers(n int) Option { return func(o *options) { o.maxWorkers = n } }

// WithLogger sets the logger of pool events (created, closed, closed when
// idle) and of internal errors. The default discards everything.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithExternalAgents lets CreatePool name external bots as opponents
// ("dir:PATH", "cmd:...", "http://...") and policy files ("policy:PATH"):
// the server then runs local processes, makes outbound requests and reads
// files for its clients, so enable it only for trusted clients. The default
// is false: only built-in agents, and other specs are PermissionDenied.
func WithExternalAgents(allow bool) Option { return func(o *options) { o.externalAgents = allow } }

// WithRegistry sets the registry games are looked up in. The default is
// [env.Default].
func WithRegistry(r *env.Registry) Option { return func(o *options) { o.reg = r } }

// Server implements botarena.v1.EnvService
// ([botarenav1connect.EnvServiceHandler]), a registry of pools of envs keyed
// by random ids, and botarena.v1.MatchService
// ([botarenav1connect.MatchServiceHandler]), whole games played for a league
// coordinator (see match.go and [RemoteRunner]).
//
// A Server is safe for concurrent use. Calls on one pool run one at a time,
// in the order they take the pool's lock; calls on different pools run in
// parallel. Serve it with [Server.Handler]; stop it with [Server.Close].
type Server struct {
	opts   options
	log    *slog.Logger
	health *grpchealth.StaticChecker

	mu         sync.Mutex
	pools      map[string]*servedPool
	gone       map[string]string // closed pool id → why, for NotFound messages
	goneOrder  []string          // ids of gone in closing order, to bound it
	totalEnvs  int               // envs of open pools and pools being made
	poolsSlots int               // open pools and pools being made
	closed     bool

	stop        chan struct{}
	janitorDone chan struct{}

	matchSlots chan struct{} // MatchService: one token per game being played
	// matchCancels cancels the MatchService calls in progress (by a
	// number from matchCalls); guarded by mu.
	matchCancels map[uint64]context.CancelFunc
	matchCalls   uint64
}

// maxGone bounds how many closed pool ids the server remembers, to tell
// "closed after being idle" apart from "never existed".
const maxGone = 4096

var _ botarenav1connect.EnvServiceHandler = (*Server)(nil)

// NewServer returns a server with the given options; see each option for
// its default. It starts the idle-pool janitor when the idle timeout is
// positive: call [Server.Close] to stop it.
func NewServer(opts ...Option) *Server {
	o := options{
		maxEnvsPerPool:  DefaultMaxEnvsPerPool,
		maxPools:        DefaultMaxPools,
		maxTotalEnvs:    DefaultMaxTotalEnvs,
		idleTimeout:     DefaultIdleTimeout,
		maxMessageBytes: DefaultMaxMessageBytes,
		maxWorkers:      runtime.GOMAXPROCS(0),
		maxMatches:      runtime.GOMAXPROCS(0),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.reg == nil {
		o.reg = env.Default
	}
	if o.maxWorkers < 1 {
		o.maxWorkers = 1
	}
	if o.maxMatches < 1 {
		o.maxMatches = 1
	}
	s := &Server{
		opts:        o,
		log:         o.log,
		health:      grpchealth.NewStaticChecker(botarenav1connect.EnvServiceName, botarenav1connect.MatchServiceName),
		pools:       map[string]*servedPool{},
		gone:        map[string]string{},
		stop:        make(chan struct{}),
		janitorDone: make(chan struct{}),
		matchSlots:  make(chan struct{}, o.maxMatches),

		matchCancels: map[uint64]context.CancelFunc{},
	}
	if o.idleTimeout > 0 {
		go s.janitor()
	} else {
		close(s.janitorDone)
	}
	return s
}

// Handler returns an HTTP handler serving, on one path tree: EnvService and
// MatchService (Connect, gRPC and gRPC-Web, with the message size limit of
// [WithMaxMessageBytes]), the gRPC health service (grpc.health.v1.Health:
// SERVING for "", "botarena.v1.EnvService" and "botarena.v1.MatchService"
// until Close) and gRPC server reflection (v1 and v1alpha) so that grpcurl
// can list and describe the services. EnvService responses are never compressed by the transport (use
// COMPRESSION_ZSTD, Arrow's body compression, for remote links). Serve it over HTTP/1.1 and h2c (see [NewHTTPServer]); gRPC needs
// HTTP/2.
//
// The handler recycles each pool's batch buffers once a unary response has
// been written; mounting the result of
// botarenav1connect.NewEnvServiceHandler(s) directly works too, but then
// every response gets a fresh buffer.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	limits := connect.WithHandlerOptions(
		connect.WithReadMaxBytes(s.opts.maxMessageBytes),
		connect.WithSendMaxBytes(s.opts.maxMessageBytes),
		// Responses are never compressed by the transport, even for clients
		// that accept gzip (connect-go clients do by default): batches are
		// compressed at one layer only, Arrow's (COMPRESSION_ZSTD). Gzipped
		// requests are still read.
		connect.WithCompressMinBytes(math.MaxInt),
		connect.WithRecover(s.recoverHandler),
	)
	path, h := botarenav1connect.NewEnvServiceHandler(s, limits)
	mux.Handle(path, recycling(h))
	mux.Handle(botarenav1connect.NewMatchServiceHandler(s, limits))
	mux.Handle(grpchealth.NewHandler(s.health))
	reflector := grpcreflect.NewStaticReflector(botarenav1connect.EnvServiceName, botarenav1connect.MatchServiceName, grpchealth.HealthV1ServiceName)
	mux.Handle(grpcreflect.NewHandlerV1(reflector))
	mux.Handle(grpcreflect.NewHandlerV1Alpha(reflector))
	return mux
}

// recoverHandler turns a panic in a handler into an Internal error and logs
// it. Panics of a pool's envs are caught earlier, in servedPool.guard, which
// also closes the pool.
func (s *Server) recoverHandler(_ context.Context, spec connect.Spec, _ http.Header, p any) error {
	s.log.Error("panic in handler", "procedure", spec.Procedure, "panic", p)
	return connectError(s.log, spec.Procedure, fmt.Errorf("panic: %v", p))
}

// NewHTTPServer returns an http.Server for h on addr that speaks HTTP/1.1
// and HTTP/2 without TLS (h2c, with prior knowledge, as gRPC clients use
// it), with receive windows sized for batches of megabytes and a
// ReadHeaderTimeout against slow clients. Set TLS up on the result for
// HTTP/2 over TLS.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		Protocols:         &p,
		ReadHeaderTimeout: 10 * time.Second,
		HTTP2: &http.HTTP2Config{
			MaxReceiveBufferPerConnection: 64 << 20,
			MaxReceiveBufferPerStream:     16 << 20,
		},
	}
}

// Close closes every pool, stops the idle janitor, marks the health service
// NOT_SERVING and makes every later call Unavailable. Calls running on a
// pool finish first (Close waits for each pool's lock); MatchService games
// in progress are cancelled before Close returns and stop at their next
// round with Unavailable. Closing twice is fine. It always returns nil.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.janitorDone
		return nil
	}
	s.closed = true
	pools := make([]*servedPool, 0, len(s.pools))
	for id, p := range s.pools {
		pools = append(pools, p)
		delete(s.pools, id)
	}
	for _, cancel := range s.matchCancels {
		cancel() // running games stop at their next round
	}
	s.mu.Unlock()
	s.health.SetStatus("", grpchealth.StatusNotServing)
	s.health.SetStatus(botarenav1connect.EnvServiceName, grpchealth.StatusNotServing)
	s.health.SetStatus(botarenav1connect.MatchServiceName, grpchealth.StatusNotServing)
	close(s.stop)
	<-s.janitorDone
	for _, p := range pools {
		p.close("the server shut down")
		s.release(p.numEnvs)
		s.log.Info("pool closed", "pool", p.id, "game", p.game, "envs", p.numEnvs, "why", "shutdown")
	}
	return nil
}

// newID returns a random pool id: "p-" and 24 hex digits.
func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return "p-" + hex.EncodeToString(b[:])
}

// reserve books a pool of n envs against the limits. It fails with errLimit
// or errShuttingDown; on success the caller must add the pool with add or
// give the reservation back with release.
func (s *Server) reserve(n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return markf(errShuttingDown, "the server is shutting down")
	case n > s.opts.maxEnvsPerPool:
		return markf(errLimit, "num_envs: got %d, the server allows at most %d envs per pool", n, s.opts.maxEnvsPerPool)
	case s.poolsSlots >= s.opts.maxPools:
		return markf(errLimit, "the server has %d pools open, its limit; close one (ClosePool) or wait for an idle one to time out", s.poolsSlots)
	case s.totalEnvs+n > s.opts.maxTotalEnvs:
		return markf(errLimit, "num_envs: got %d, but the server has %d of its %d envs in use", n, s.totalEnvs, s.opts.maxTotalEnvs)
	}
	s.poolsSlots++
	s.totalEnvs += n
	return nil
}

// release gives back the reservation of a pool of n envs.
func (s *Server) release(n int) {
	s.mu.Lock()
	s.poolsSlots--
	s.totalEnvs -= n
	s.mu.Unlock()
}

// add registers a pool made under a reservation. It fails, releasing
// nothing, when the server closed meanwhile.
func (s *Server) add(p *servedPool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return markf(errShuttingDown, "the server is shutting down")
	}
	s.pools[p.id] = p
	return nil
}

// lookup returns the open pool with id, or an error: NotFound naming why a
// pool the server remembers is gone, Unavailable when the server is closed.
func (s *Server) lookup(id string) (*servedPool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, markf(errShuttingDown, "the server is shutting down")
	}
	if p, ok := s.pools[id]; ok {
		return p, nil
	}
	if id == "" {
		return nil, invalidf("pool_id: required")
	}
	if why, ok := s.gone[id]; ok {
		return nil, markf(errUnknownPool, "pool %q: %s", id, why)
	}
	return nil, markf(errUnknownPool, "pool %q: no such pool", id)
}

// remove takes pool id out of the registry, remembering why, and reports
// whether it was there.
func (s *Server) remove(id, why string) (*servedPool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pools[id]
	if !ok {
		return nil, false
	}
	delete(s.pools, id)
	s.gone[id] = why
	s.goneOrder = append(s.goneOrder, id)
	if len(s.goneOrder) > maxGone {
		delete(s.gone, s.goneOrder[0])
		s.goneOrder = s.goneOrder[1:]
	}
	return p, true
}

// closePool removes, closes and releases pool id.
func (s *Server) closePool(id, why, event string) bool {
	p, ok := s.remove(id, why)
	if !ok {
		return false
	}
	p.close(why)
	s.release(p.numEnvs)
	s.log.Info(event, "pool", id, "game", p.game, "envs", p.numEnvs)
	return true
}

// janitor closes pools that have been idle for the idle timeout, checking a
// few times per timeout.
func (s *Server) janitor() {
	defer close(s.janitorDone)
	timeout := s.opts.idleTimeout
	every := min(max(timeout/4, time.Millisecond), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.mu.Lock()
			var idle []string
			for id, p := range s.pools {
				if p.idleSince(now) >= timeout {
					idle = append(idle, id)
				}
			}
			s.mu.Unlock()
			for _, id := range idle {
				why := fmt.Sprintf("closed after being idle for %v (the server's idle timeout)", timeout)
				s.closeIdle(id, why, now, timeout)
			}
		}
	}
}

// closeIdle closes pool id if it is still idle: a call that started since
// the scan, or is running, keeps it open.
func (s *Server) closeIdle(id, why string, now time.Time, timeout time.Duration) {
	s.mu.Lock()
	p, ok := s.pools[id]
	s.mu.Unlock()
	if !ok || !p.mu.TryLock() {
		return // gone, or a call is running
	}
	if p.idleSince(now) < timeout {
		p.mu.Unlock()
		return
	}
	if _, ok := s.remove(id, why); ok {
		p.closeLocked(why)
		s.release(p.numEnvs)
		s.log.Info("pool closed when idle", "pool", id, "game", p.game, "envs", p.numEnvs, "idle_timeout", timeout)
	}
	p.mu.Unlock()
}
