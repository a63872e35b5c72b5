package rpc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/league"
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
	agentCaps       agentCapabilities // WithAgentCapabilities (capabilities.go)
	maxMatches      int
	leagues         *league.Leagues // WithLeagues (leagues.go)
	version         string          // WithVersion: ListGames, botarena_build_info
	// The memory budget (budget.go); ledger is made on first use.
	maxMemory, maxClientMemory int64
	maxClientPools             int
	ledger                     *ledger
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
// idle) and of internal errors, of connections refused at the cap (Warn;
// see [Server.LimitListener]) and of clients' failed calls (Debug, with
// the procedure and the code). The default discards everything.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithRegistry sets the registry games are looked up in. The default is
// [env.Default].
func WithRegistry(r *env.Registry) Option { return func(o *options) { o.reg = r } }

// WithVersion sets the version the server reports: ListGames'
// server_version and the version label of botarena_build_info (see
// metrics.go). `botarena serve` sets what `botarena version` prints. The
// default is "".
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

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
	opts    options
	log     *slog.Logger
	health  *grpchealth.StaticChecker
	metrics *metrics

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

	// streams are the request bodies of the open StepStreams, which Close
	// closes so that each stream ends at once; guarded by mu.
	streams map[*streamBody]struct{}
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
		streams:      map[*streamBody]struct{}{},
	}
	s.metrics = newMetrics(s)
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
// until Close), gRPC server reflection (v1 and v1alpha) so that grpcurl
// can list and describe the services, and the Prometheus metrics of
// metrics.go at /metrics. EnvService responses are never compressed by the transport (use
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
		connect.WithInterceptors(observer{s}),
	)
	path, h := botarenav1connect.NewEnvServiceHandler(s, limits)
	mux.Handle(path, s.stoppable(recycling(h)))
	mux.Handle(botarenav1connect.NewMatchServiceHandler(s, limits))
	mux.Handle(grpchealth.NewHandler(s.health))
	reflector := grpcreflect.NewStaticReflector(botarenav1connect.EnvServiceName, botarenav1connect.MatchServiceName, grpchealth.HealthV1ServiceName)
	mux.Handle(grpcreflect.NewHandlerV1(reflector))
	mux.Handle(grpcreflect.NewHandlerV1Alpha(reflector))
	mux.Handle("/metrics", s.metrics.handler())
	return mux
}

// recoverHandler turns a panic in a handler into an Internal error and logs
// it. Panics of a pool's envs are caught earlier, in servedPool.guard, which
// also closes the pool.
func (s *Server) recoverHandler(_ context.Context, spec connect.Spec, _ http.Header, p any) error {
	s.log.Error("panic in handler", "procedure", spec.Procedure, "panic", p)
	return connectError(s.log, spec.Procedure, fmt.Errorf("panic: %v", p))
}

// Defaults of the HTTP server of [NewHTTPServer] and of the connection cap
// of [Server.LimitListener].
const (
	// DefaultReadHeaderTimeout bounds how long a client may take to send a
	// request's headers (a connection that sends nothing is closed then).
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultConnIdleTimeout is how long a connection may stay open
	// without a request or stream (HTTP/1.1 keep-alive and HTTP/2).
	DefaultConnIdleTimeout = 2 * time.Minute
	// DefaultMaxHeaderBytes bounds a request's headers.
	DefaultMaxHeaderBytes = 64 << 10
	// DefaultMaxConcurrentStreams is the most calls and streams one
	// HTTP/2 connection may have open at once.
	DefaultMaxConcurrentStreams = 256
	// DefaultMaxConnections is the most connections [Server.LimitListener]
	// keeps open (serve --max-connections).
	DefaultMaxConnections = 256
)

// NewHTTPServer returns an http.Server for h on addr that speaks HTTP/1.1
// and HTTP/2 without TLS (h2c, with prior knowledge, as gRPC clients use
// it), with receive windows sized for batches of megabytes, and limits
// against clients that hold resources: [DefaultReadHeaderTimeout],
// [DefaultConnIdleTimeout] (IdleTimeout, also HTTP/2's),
// [DefaultMaxHeaderBytes] and [DefaultMaxConcurrentStreams] per HTTP/2
// connection; change the fields of the result to change them. Cap the
// number of connections with [Server.LimitListener].
//
// For HTTP/2 over TLS, serve it with ServeTLS (or set TLSConfig and wrap
// the listener with tls.NewListener): it offers h2 and http/1.1 by ALPN,
// and h2c stays available on plaintext listeners.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		Protocols:         &p,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       DefaultConnIdleTimeout,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		HTTP2: &http.HTTP2Config{
			MaxConcurrentStreams:          DefaultMaxConcurrentStreams,
			MaxReceiveBufferPerConnection: 64 << 20,
			MaxReceiveBufferPerStream:     16 << 20,
		},
	}
}

// stoppable lets [Server.Close] end open StepStreams: it keeps each
// stream's request body, which Close closes, so that the stream's waiting
// Receive fails at once and the stream ends (with Unavailable: see
// [observer]). Other requests pass through.
func (s *Server) stoppable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != botarenav1connect.EnvServiceStepStreamProcedure {
			h.ServeHTTP(w, r)
			return
		}
		b := &streamBody{ReadCloser: r.Body}
		s.mu.Lock()
		closed := s.closed
		if !closed {
			s.streams[b] = struct{}{}
		}
		s.mu.Unlock()
		if closed {
			b.stop()
		}
		defer func() {
			s.mu.Lock()
			delete(s.streams, b)
			s.mu.Unlock()
		}()
		r = r.WithContext(context.WithValue(r.Context(), streamBodyKey{}, b))
		r.Body = b
		h.ServeHTTP(w, r)
	})
}

// streamBodyKey is the context key of a stream's *streamBody.
type streamBodyKey struct{}

// stoppedStream reports whether ctx is a stream's whose body Close closed.
func stoppedStream(ctx context.Context) bool {
	b, ok := ctx.Value(streamBodyKey{}).(*streamBody)
	return ok && b.stopped.Load()
}

// streamBody is a stream's request body that [Server.Close] closes while a
// Receive may be waiting on it: HTTP/2 request bodies allow that, and
// Connect serves bidirectional streams only over HTTP/2.
type streamBody struct {
	io.ReadCloser
	once    sync.Once
	err     error
	stopped atomic.Bool // by Close, not by the stream's end
}

// stop closes the body for Close.
func (b *streamBody) stop() {
	b.stopped.Store(true)
	b.close()
}

func (b *streamBody) close() { b.once.Do(func() { b.err = b.ReadCloser.Close() }) }

func (b *streamBody) Close() error {
	b.close()
	return b.err
}

// Close closes every pool, stops the idle janitor, marks the health service
// NOT_SERVING and makes every later call Unavailable. Calls running on a
// pool finish first (Close waits for each pool's lock); MatchService games
// in progress are cancelled before Close returns and stop at their next
// round with Unavailable; open StepStreams end with Unavailable ("the
// server is shutting down") once their current step is sent, without
// waiting for the client's next request. Closing twice is fine. It always
// returns nil.
//
// To shut down an http.Server serving [Server.Handler] promptly, call Close
// while (or before) its Shutdown waits: Shutdown alone waits for open
// streams, which end only when their clients close them.
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
	streams := make([]*streamBody, 0, len(s.streams))
	for b := range s.streams {
		streams = append(streams, b)
	}
	s.mu.Unlock()
	for _, b := range streams {
		b.stop() // open streams end after their current step
	}
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
	return nil, markf(errUnknownPool, "pool %q: no such pool", clip(id))
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

// LimitListener returns a listener that keeps at most n connections of hs
// (which must serve from it) open, so that idle clients cannot use up the
// process's file descriptors and lock everyone out. At the cap, a new
// connection takes the place of the connection idle longest (one that has
// sent no request yet, or an HTTP/1.1 or HTTP/2 connection with no call in
// progress), which is closed, as IdleTimeout would have closed it; when
// every connection has a call in progress, the new one is closed at once
// (the client sees the connection closed or reset, and should retry later).
// It sets hs.ConnState to learn which connections are idle, calling the
// previous hook too. n < 1 means [DefaultMaxConnections].
//
// The counts are metrics (botarena_http_connections_open, _refused_total,
// _evicted_total); refusals are logged at Warn, at most once every 10
// seconds. Serve TLS on the result (hs.ServeTLS or tls.NewListener): the
// cap counts connections before their handshake.
func (s *Server) LimitListener(ln net.Listener, hs *http.Server, n int) net.Listener {
	if n < 1 {
		n = DefaultMaxConnections
	}
	l := &limitListener{Listener: ln, max: n, s: s, conns: map[*limitConn]struct{}{}}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		l.setState(c, st)
		if prev != nil {
			prev(c, st)
		}
	}
	return l
}

// limitListener is the listener of [Server.LimitListener].
type limitListener struct {
	net.Listener
	max int
	s   *Server

	mu       sync.Mutex
	conns    map[*limitConn]struct{}
	lastWarn time.Time // of the last refusal logged
	refused  int       // refusals since the last one logged
}

// limitConn is a connection of a limitListener.
type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
	// idleSince is when the connection last became idle (accepted, or its
	// last call ended); zero while a call is in progress. Guarded by l.mu.
	idleSince time.Time
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, idleSince: time.Now()}
		l.mu.Lock()
		var victim *limitConn
		if len(l.conns) >= l.max {
			for v := range l.conns {
				if !v.idleSince.IsZero() && (victim == nil || v.idleSince.Before(victim.idleSince)) {
					victim = v
				}
			}
			if victim == nil {
				l.refusedLocked()
				l.mu.Unlock()
				c.Close()
				continue
			}
			delete(l.conns, victim)
			l.s.metrics.connsOpen.Dec()
		}
		l.conns[lc] = struct{}{}
		l.s.metrics.connsOpen.Inc()
		l.mu.Unlock()
		if victim != nil {
			l.s.metrics.connsEvicted.Inc()
			l.s.log.Debug("closed an idle connection to admit a new one", "max_connections", l.max, "idle_peer", victim.RemoteAddr().String(), "idle", time.Since(victim.idleSince))
			victim.Close()
		}
		return lc, nil
	}
}

// refusedLocked counts a refused connection and logs refusals at most once
// every 10 seconds; the caller holds l.mu.
func (l *limitListener) refusedLocked() {
	l.s.metrics.connsRefused.Inc()
	l.refused++
	if now := time.Now(); now.Sub(l.lastWarn) >= 10*time.Second {
		l.s.log.Warn("connection refused: every connection has a call in progress", "max_connections", l.max, "refused", l.refused)
		l.lastWarn, l.refused = now, 0
	}
}

// setState records whether c (a limitConn, or a TLS connection over one)
// is idle.
func (l *limitListener) setState(c net.Conn, st http.ConnState) {
	if tc, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = tc.NetConn()
	}
	lc, ok := c.(*limitConn)
	if !ok || lc.l != l {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateIdle:
		lc.idleSince = time.Now()
	case http.StateActive, http.StateHijacked:
		lc.idleSince = time.Time{}
	}
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		if _, ok := l.conns[c]; ok {
			delete(l.conns, c)
			l.s.metrics.connsOpen.Dec()
		}
		l.mu.Unlock()
	})
	return err
}
