package envservice

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
)

// Defaults of the [Server] limits.
const (
	DefaultMaxEnvsPerPool = 65536
	DefaultMaxPools       = 64
	DefaultMaxTotalEnvs   = 262144
	DefaultIdleTimeout    = 10 * time.Minute
	// DefaultStreamIdleTimeout is the default of [WithStreamIdleTimeout],
	// the connection idle timeout of server.NewHTTPServer.
	DefaultStreamIdleTimeout = server.DefaultConnIdleTimeout
)

// An Option configures a [Server].
type Option func(*options)

type options struct {
	maxEnvsPerPool int
	maxPools       int
	maxTotalEnvs   int
	idleTimeout    time.Duration
	maxWorkers     int
	streamIdle     time.Duration
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

// WithStreamIdleTimeout sets how long a StepStream may wait for its
// client: for its next request (its first, from when it opens) or for it
// to take a response. A stream that waits longer ends with
// DeadlineExceeded, naming the timeout; a client that takes no response
// has its stream reset once it has waited twice as long. Zero or less
// means the default, [DefaultStreamIdleTimeout] (2 minutes). Streams are
// timed only when served by [Server.Handler].
func WithStreamIdleTimeout(d time.Duration) Option { return func(o *options) { o.streamIdle = d } }

// WithMaxWorkers sets the most worker goroutines one pool gets; a request
// for more (or for 0, the default) gets this many. The default is
// runtime.GOMAXPROCS(0) at New.
func WithMaxWorkers(n int) Option { return func(o *options) { o.maxWorkers = n } }

// Server implements botarena.v1.EnvService
// ([botarenav1connect.EnvServiceHandler]): a registry of pools of envs
// keyed by random ids, on a [server.Host] whose registry, logger, message
// limit, memory budget, agent capabilities and metrics it uses.
//
// A Server is safe for concurrent use. Calls on one pool run one at a time,
// in the order they take the pool's lock; calls on different pools run in
// parallel. Serve it with the host's Handler; stop it with [Server.Close]
// (the host's Close calls it).
type Server struct {
	opts    options
	host    *server.Host
	log     *slog.Logger
	metrics *metrics
	codec   *responseCodec

	mu         sync.Mutex
	pools      map[string]*servedPool
	gone       map[string]string // closed pool id → why, for NotFound messages
	goneOrder  []string          // ids of gone in closing order, to bound it
	totalEnvs  int               // envs of open pools and pools being made
	poolsSlots int               // open pools and pools being made
	closed     bool

	stop        chan struct{}
	janitorDone chan struct{}

	// streams are the request bodies of the open StepStreams, which Close
	// closes so that each stream ends at once; guarded by mu.
	streams map[*streamBody]struct{}
	// newIdleTimer starts a stream's idle timer: time.AfterFunc, or a
	// test's.
	newIdleTimer func(d time.Duration, f func()) idleTimer
}

// idleTimer is a StepStream's idle timer (see [streamBody]).
type idleTimer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// afterFunc is the default newIdleTimer.
func afterFunc(d time.Duration, f func()) idleTimer { return time.AfterFunc(d, f) }

// maxGone bounds how many closed pool ids the server remembers, to tell
// "closed after being idle" apart from "never existed".
const maxGone = 4096

var (
	_ botarenav1connect.EnvServiceHandler = (*Server)(nil)
	_ server.Service                      = (*Server)(nil)
)

// New returns an EnvService of host h with the given options; see each
// option for its default. It registers its metrics in h's registry (one
// EnvService per host) and starts the idle-pool janitor when the idle
// timeout is positive: call [Server.Close], or h's Close, to stop it.
func New(h *server.Host, opts ...Option) *Server {
	o := options{
		maxEnvsPerPool: DefaultMaxEnvsPerPool,
		maxPools:       DefaultMaxPools,
		maxTotalEnvs:   DefaultMaxTotalEnvs,
		idleTimeout:    DefaultIdleTimeout,
		maxWorkers:     runtime.GOMAXPROCS(0),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxWorkers < 1 {
		o.maxWorkers = 1
	}
	if o.streamIdle <= 0 {
		o.streamIdle = DefaultStreamIdleTimeout
	}
	s := &Server{
		opts:         o,
		host:         h,
		log:          h.Log(),
		pools:        map[string]*servedPool{},
		gone:         map[string]string{},
		stop:         make(chan struct{}),
		janitorDone:  make(chan struct{}),
		streams:      map[*streamBody]struct{}{},
		codec:        newResponseCodec(),
		newIdleTimer: afterFunc,
	}
	s.metrics = newMetrics(s)
	if o.idleTimeout > 0 {
		go s.janitor()
	} else {
		close(s.janitorDone)
	}
	return s
}

// ServiceName returns "botarena.v1.EnvService".
func (s *Server) ServiceName() string { return botarenav1connect.EnvServiceName }

// Handler returns the path and HTTP handler of the service, made with opts
// (the host's; see [server.Host.Handler]), the service's metrics
// interceptor and its protobuf codec, which sends each batch response as
// the pool's buffer holds it, without marshalling a copy (codec.go). The
// handler recycles each pool's batch buffers once a unary response has
// been written; mounting botarenav1connect.NewEnvServiceHandler(s)
// directly works too, but then every response gets a fresh buffer and is
// marshalled into another, Close does not end open streams, and StepStream
// is not served over HTTP/1.1. (The handler serves StepStream's Connect
// protocol over HTTP/1.1, full duplex, where connect-go alone answers 505;
// see the package documentation.)
func (s *Server) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	path, h := botarenav1connect.NewEnvServiceHandler(s, connect.WithHandlerOptions(opts...), connect.WithCodec(s.codec), connect.WithInterceptors(counter{s}))
	return path, s.stoppable(recycling(h))
}

// stoppable lets [Server.Close] end open StepStreams and times streams
// that wait for their clients: it keeps each stream's request body, which
// Close (or the stream's idle timer) interrupts, so that the stream's
// waiting Receive fails at once and the stream ends (with Unavailable: see
// [counter]; DeadlineExceeded: see [Server.StepStream]), and it lifts the
// deadline server.NewHTTPServer gives request bodies, which the idle timer
// replaces. It also serves StepStream's Connect protocol over HTTP/1.1
// (see [fullDuplex]). Other requests pass through.
func (s *Server) stoppable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != botarenav1connect.EnvServiceStepStreamProcedure {
			h.ServeHTTP(w, r)
			return
		}
		server.LiftBodyDeadline(r)
		b := &streamBody{ReadCloser: r.Body, w: w, http1: r.ProtoMajor < 2, idle: s.opts.streamIdle, newTimer: s.newIdleTimer}
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
			b.finish()
			s.mu.Lock()
			delete(s.streams, b)
			s.mu.Unlock()
		}()
		r = r.WithContext(context.WithValue(r.Context(), streamBodyKey{}, b))
		r.Body = b
		h.ServeHTTP(w, fullDuplex(w, r))
	})
}

// fullDuplex returns r, or for a StepStream of the Connect protocol
// (Content-Type application/connect+proto, or +json) over HTTP/1.1 a copy
// of r marked HTTP/2.0 after making w full duplex, so that connect-go
// serves it as it serves the stream over HTTP/2.
//
// connect-go answers a bidirectional stream over HTTP/1.1 with 505, because
// an HTTP/1.1 server usually reads the whole request body before it
// answers, and a client that waits for a response before its next message
// would hang. net/http's HTTP/1.1 server can read the request body while
// the response is written (http.ResponseController.EnableFullDuplex), which
// is what a stream needs: the request body is chunked (Transfer-Encoding:
// chunked), its envelopes read as they arrive, and the response is chunked
// too, each envelope flushed when written, the end-of-stream envelope last,
// exactly as over HTTP/2. Why it is worth having: Go's HTTP/2 server copies
// every DATA frame into its framer's buffer before writing it, while an
// HTTP/1.1 response is written from the pool's buffer as it is; for a
// batch of megabytes that copy made the stream slower than unary Step
// (bench/2026-11-30-stream-http1.txt).
//
// gRPC and gRPC-Web requests are left as they are (gRPC needs HTTP/2's
// trailers; connect-go answers them 505), and so is a request whose writer
// cannot be made full duplex.
func fullDuplex(w http.ResponseWriter, r *http.Request) *http.Request {
	if r.ProtoMajor != 1 || r.Method != http.MethodPost || !connectStreaming(r.Header.Get("Content-Type")) {
		return r
	}
	if err := http.NewResponseController(w).EnableFullDuplex(); err != nil {
		return r
	}
	r2 := *r
	r2.Proto, r2.ProtoMajor, r2.ProtoMinor = "HTTP/2.0", 2, 0
	return &r2
}

// connectStreaming reports whether a Content-Type is one of the Connect
// protocol's streaming calls (application/connect+CODEC, any parameters
// after a semicolon, the type in any case).
func connectStreaming(contentType string) bool {
	mediaType, _, _ := strings.Cut(contentType, ";")
	const prefix = "application/connect+"
	mediaType = strings.TrimSpace(mediaType)
	return len(mediaType) > len(prefix) && strings.EqualFold(mediaType[:len(prefix)], prefix)
}

// streamBodyKey is the context key of a stream's *streamBody.
type streamBodyKey struct{}

// streamBodyOf returns the *streamBody of a stream's ctx, nil when the
// stream is not served by stoppable.
func streamBodyOf(ctx context.Context) *streamBody {
	b, _ := ctx.Value(streamBodyKey{}).(*streamBody)
	return b
}

// stoppedStream reports whether ctx is a stream's whose body Close closed.
func stoppedStream(ctx context.Context) bool {
	b := streamBodyOf(ctx)
	return b != nil && b.stopped.Load()
}

// streamBody is a stream's request body that [Server.Close], or the
// stream's idle timer, interrupts while a Receive may be waiting on it. An
// HTTP/2 body is closed, which ends a waiting Read. An HTTP/1.1 body cannot
// be closed while a Read waits (both take its lock), so its connection's
// read deadline is set in the past instead, which ends the Read (and, as
// any failed read of an HTTP/1.1 connection does, cancels the request's
// context); the handler's own Close closes the body.
type streamBody struct {
	io.ReadCloser
	once    sync.Once
	err     error
	stopped atomic.Bool // by Close, not by the stream's end
	http1   bool        // the request is HTTP/1.x
	eof     bool        // Read returned io.EOF; the handler's goroutine only

	// The idle timer (see [Server.StepStream]): it runs while the stream
	// waits for its client. Its first firing interrupts the body (a waiting
	// Receive fails) and sets idled; its second, idle later, resets the
	// stream through w, which ends a Send the client does not take.
	w        http.ResponseWriter
	idle     time.Duration
	newTimer func(time.Duration, func()) idleTimer
	timerMu  sync.Mutex // orders onIdle after startIdle, and before stopIdle
	timer    idleTimer  // set by startIdle
	ended    bool       // by stopIdle or finish: w is gone; guarded by timerMu
	idled    atomic.Bool
}

// stop interrupts the body for Close.
func (b *streamBody) stop() {
	b.stopped.Store(true)
	b.timerMu.Lock()
	b.interruptLocked()
	b.timerMu.Unlock()
}

// interruptLocked makes a Read waiting on the body fail (see
// [streamBody]), unless the handler has returned; the caller holds
// timerMu.
func (b *streamBody) interruptLocked() {
	if b.ended {
		return
	}
	if b.http1 {
		// Not after the handler has returned: the connection may serve
		// its next request by then.
		http.NewResponseController(b.w).SetReadDeadline(time.Unix(1, 0))
		return
	}
	b.close()
}

func (b *streamBody) close() { b.once.Do(func() { b.err = b.ReadCloser.Close() }) }

// Read reads the body, noting its end.
func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// Close closes the body. Closing an HTTP/1.1 body that has not ended
// reads the rest, up to 256 KiB, to keep the connection: a stream's client
// may keep its body open for long after the stream ended with an error,
// and the end-of-stream message waits for the Close (connect-go flushes it
// afterwards), so such a body's read deadline is set in the past first,
// and net/http closes the connection once the response is written.
func (b *streamBody) Close() error {
	if b.http1 && !b.eof {
		http.NewResponseController(b.w).SetReadDeadline(time.Unix(1, 0))
	}
	b.close()
	return b.err
}

// finish records that the stream's handler returns; stoppable calls it.
func (b *streamBody) finish() {
	b.timerMu.Lock()
	b.ended = true
	b.timerMu.Unlock()
}

// startIdle starts the idle timer; the stream's handler calls stopIdle
// when it returns. The handler's goroutine only.
func (b *streamBody) startIdle() {
	b.timerMu.Lock()
	b.timer = b.newTimer(b.idle, b.onIdle)
	b.timerMu.Unlock()
}

// onIdle is the idle timer's function.
func (b *streamBody) onIdle() {
	b.timerMu.Lock()
	defer b.timerMu.Unlock()
	if b.ended {
		return // the handler has returned: w is gone
	}
	if b.idled.Swap(true) {
		// The handler is still stuck, in a Send the client does not take.
		http.NewResponseController(b.w).SetWriteDeadline(time.Unix(1, 0))
		return
	}
	b.interruptLocked()
	b.timer.Reset(b.idle)
}

// pauseIdle stops the idle timer while the stream works for its client;
// resumeIdle starts it again. The handler's goroutine only.
func (b *streamBody) pauseIdle()  { b.timer.Stop() }
func (b *streamBody) resumeIdle() { b.timer.Reset(b.idle) }

// stopIdle stops the idle timer for good, before the handler returns.
func (b *streamBody) stopIdle() {
	b.timerMu.Lock()
	defer b.timerMu.Unlock()
	b.ended = true
	b.timer.Stop()
}

// Close closes every pool, stops the idle janitor and makes every later
// call Unavailable. Calls running on a pool finish first (Close waits for
// each pool's lock); open StepStreams end with Unavailable ("the server is
// shutting down") once their current step is sent, without waiting for the
// client's next request. Closing twice is fine. It always returns nil.
//
// To shut down an http.Server serving the service promptly, call Close
// (or the host's) while (or before) its Shutdown waits: Shutdown alone
// waits for open streams, which end only when their clients close them.
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
	streams := make([]*streamBody, 0, len(s.streams))
	for b := range s.streams {
		streams = append(streams, b)
	}
	s.mu.Unlock()
	for _, b := range streams {
		b.stop() // open streams end after their current step
	}
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

// reserve books a pool of n envs against the limits. It fails with
// server.ErrLimit or ErrShuttingDown; on success the caller must add the pool with add or
// give the reservation back with release.
func (s *Server) reserve(n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return server.Markf(server.ErrShuttingDown, "the server is shutting down")
	case n > s.opts.maxEnvsPerPool:
		return server.Markf(server.ErrLimit, "num_envs: got %d, the server allows at most %d envs per pool", n, s.opts.maxEnvsPerPool)
	case s.poolsSlots >= s.opts.maxPools:
		return server.Markf(server.ErrLimit, "the server has %d pools open, its limit; close one (ClosePool) or wait for an idle one to time out", s.poolsSlots)
	case s.totalEnvs+n > s.opts.maxTotalEnvs:
		return server.Markf(server.ErrLimit, "num_envs: got %d, but the server has %d of its %d envs in use", n, s.totalEnvs, s.opts.maxTotalEnvs)
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
		return server.Markf(server.ErrShuttingDown, "the server is shutting down")
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
		return nil, server.Markf(server.ErrShuttingDown, "the server is shutting down")
	}
	if p, ok := s.pools[id]; ok {
		return p, nil
	}
	if id == "" {
		return nil, server.Invalidf("pool_id: required")
	}
	if why, ok := s.gone[id]; ok {
		return nil, server.Markf(server.ErrNotFound, "pool %q: %s", id, why)
	}
	return nil, server.Markf(server.ErrNotFound, "pool %q: no such pool", server.Clip(id))
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
