package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the HTTP server of [NewHTTPServer] and of the connection cap
// of [Host.LimitListener].
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
	// DefaultMaxConnections is the most connections [Host.LimitListener]
	// keeps open (serve --max-connections).
	DefaultMaxConnections = 256
	// DefaultMaxClientConnections is the least of the default per-client
	// cap of [Host.LimitListener] ([WithMaxClientConnections]): a quarter
	// of its cap, at least this many (or the whole cap when smaller).
	DefaultMaxClientConnections = 64
	// evictGrace is how long a connection that proved a client must have
	// been idle before [Host.LimitListener] closes it for a new one: a
	// request its client has just sent may not have been read yet.
	evictGrace = time.Second
)

// NewHTTPServer returns an http.Server for h on addr that speaks HTTP/1.1
// and HTTP/2 without TLS (h2c, with prior knowledge, as gRPC clients use
// it), with receive windows sized for batches of megabytes, and limits
// against clients that hold resources: [DefaultReadHeaderTimeout],
// [DefaultConnIdleTimeout] (IdleTimeout, also HTTP/2's),
// [DefaultMaxHeaderBytes] and [DefaultMaxConcurrentStreams] per HTTP/2
// connection; change the fields of the result to change them. Cap the
// number of connections with [Host.LimitListener].
//
// Its Handler is h behind a wrapper that gives each request's body
// IdleTimeout, read when the request arrives, to arrive whole: a client
// that sends headers and then holds its body back has its request fail
// (HTTP/2: the stream's body ends with a deadline error; HTTP/1.1: the
// connection's read deadline) instead of holding a handler and its
// connection forever. A stream that reads its body for as long as it lives
// lifts the deadline with [LiftBodyDeadline] and bounds its waits itself
// (envservice's StepStream: its idle timeout). Its ConnContext lets
// [Guard], [RequireToken] and [Host.OpenStream] keep track of each
// connection.
//
// For HTTP/2 over TLS, serve it with ServeTLS (or set TLSConfig and wrap
// the listener with tls.NewListener): it offers h2 and http/1.1 by ALPN,
// and h2c stays available on plaintext listeners.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	hs := &http.Server{
		Addr:              addr,
		Protocols:         &p,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       DefaultConnIdleTimeout,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		ConnContext:       withConnState,
		HTTP2: &http.HTTP2Config{
			MaxConcurrentStreams:          DefaultMaxConcurrentStreams,
			MaxReceiveBufferPerConnection: 64 << 20,
			MaxReceiveBufferPerStream:     16 << 20,
		},
	}
	hs.Handler = &bodyDeadline{next: h, hs: hs}
	return hs
}

// bodyDeadline is the handler of [NewHTTPServer]: it sets a deadline on
// each request's body.
type bodyDeadline struct {
	next http.Handler
	hs   *http.Server
}

func (d *bodyDeadline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if t := d.hs.IdleTimeout; t > 0 && r.Body != nil && r.Body != http.NoBody {
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(t)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, http1: r.ProtoMajor == 1}
		}
	}
	d.next.ServeHTTP(w, r)
}

// deadlineBody is a request body with a read deadline. An HTTP/1.1
// connection's deadline is lifted once the body has been read (the server
// then watches the connection for the client going away, and a deadline
// would cancel the request's context); an HTTP/2 stream's stays, harmless
// once the body has ended.
type deadlineBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	http1  bool
	lifted bool // the handler's goroutine only
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && b.http1 && !b.lifted {
		b.lift()
	}
	return n, err
}

func (b *deadlineBody) lift() {
	b.lifted = true
	b.rc.SetReadDeadline(time.Time{})
}

// LiftBodyDeadline lifts the deadline [NewHTTPServer] gives r's body, for
// a handler that reads it for as long as a stream lives and bounds its
// waits itself. It does nothing when r's body has no such deadline. Call
// it from the handler's goroutine before reading the body.
func LiftBodyDeadline(r *http.Request) {
	if b, ok := r.Body.(*deadlineBody); ok && !b.lifted {
		b.lift()
	}
}

// dropUnreadBody is for a handler that answers r without reading its
// body: an HTTP/1.x request whose body has no declared length (chunked: a
// stream's, which its client may keep open) has its connection's read
// deadline set in the past, so that net/http writes the answer at once and
// closes the connection after it, instead of first reading the rest of the
// body (until the client ends it, or the body deadline of
// [NewHTTPServer]). Other requests are left as they are.
func dropUnreadBody(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 1 && r.ContentLength < 0 {
		http.NewResponseController(w).SetReadDeadline(time.Unix(1, 0))
	}
}

// connState is what a connection's requests tell about it: whether one of
// them proved a client ([Guard] without a token, [RequireToken] with one),
// and the streams open on it ([Host.OpenStream]).
type connState struct {
	proven  atomic.Bool
	streams atomic.Int32
}

// connStateKey is the context key of a request's *connState.
type connStateKey struct{}

// withConnState is the ConnContext of [NewHTTPServer]: it gives c's
// requests c's state (a [Host.LimitListener] connection's own).
func withConnState(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = tc.NetConn()
	}
	st := new(connState)
	if lc, ok := c.(*limitConn); ok {
		st = &lc.state
	}
	return context.WithValue(ctx, connStateKey{}, st)
}

// connOf returns the state of the connection of a request's ctx, nil
// when its server did not record one.
func connOf(ctx context.Context) *connState {
	st, _ := ctx.Value(connStateKey{}).(*connState)
	return st
}

// markProven records that the connection of a request's ctx carried a
// request of a client: one with the token, or any [Guard] admits on a
// server without one.
func markProven(ctx context.Context) {
	if st := connOf(ctx); st != nil && !st.proven.Load() {
		st.proven.Store(true)
	}
}

// LimitListener returns a listener that keeps at most n connections of hs
// (which must serve from it) open, and at most [WithMaxClientConnections]
// of one client (the peer's IP address), so that clients that open
// connections and leave them idle cannot use up the process's file
// descriptors and lock everyone out, nor close the connections of clients
// at work.
//
// At a cap (the client's first, then the server's), a new connection
// takes the place of one that is idle (no request, call or stream in
// progress), which is closed, as IdleTimeout would have closed it:
//
//  1. one that has not proved a client, the one idle longest: no request
//     with the token (with [RequireToken]), or none [Guard] admitted
//     (without a token), has come on it; a connection that only opened,
//     or only sent refused requests, goes first;
//  2. else one that proved a client and has been idle for at least a
//     second, the one idle longest.
//
// A connection with a request in progress is never closed. When none
// qualifies, the new connection is closed at once (the client sees the
// connection closed or reset, and should retry later). At the client's
// cap only that client's connections are closed. It sets hs.ConnState to
// learn which connections are idle, calling the previous hook too, and
// hs.ConnContext (after the previous one) to learn which proved a client.
// n < 1 means [DefaultMaxConnections].
//
// The counts are metrics (botarena_http_connections_open, _refused_total,
// _evicted_total); refusals are logged at Warn, at most once every 10
// seconds. Serve TLS on the result (hs.ServeTLS or tls.NewListener): the
// cap counts connections before their handshake.
func (h *Host) LimitListener(ln net.Listener, hs *http.Server, n int) net.Listener {
	if n < 1 {
		n = DefaultMaxConnections
	}
	l := &limitListener{Listener: ln, max: n, maxClient: h.MaxClientConnections(n), h: h, now: time.Now,
		conns: map[*limitConn]struct{}{}, clients: map[string]int{}}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		l.setState(c, st)
		if prev != nil {
			prev(c, st)
		}
	}
	prevCtx := hs.ConnContext
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prevCtx != nil {
			ctx = prevCtx(ctx, c)
		}
		return withConnState(ctx, c)
	}
	return l
}

// MaxClientConnections returns the per-client cap of a listener of
// [Host.LimitListener] with a cap of n connections: [WithMaxClientConnections],
// or by default a quarter of n, at least [DefaultMaxClientConnections]
// (n when smaller).
func (h *Host) MaxClientConnections(n int) int {
	if n < 1 {
		n = DefaultMaxConnections
	}
	if h.opts.maxClientConns >= 1 {
		return h.opts.maxClientConns
	}
	return max(n/4, min(n, DefaultMaxClientConnections))
}

// limitListener is the listener of [Host.LimitListener].
type limitListener struct {
	net.Listener
	max, maxClient int
	h              *Host
	now            func() time.Time

	mu       sync.Mutex
	conns    map[*limitConn]struct{}
	clients  map[string]int // connections open per client
	lastWarn time.Time      // of the last refusal logged
	refused  int            // refusals since the last one logged
}

// limitConn is a connection of a limitListener.
type limitConn struct {
	net.Conn
	l      *limitListener
	client string // the peer's IP address
	once   sync.Once
	state  connState
	// idleSince is when the connection last became idle (accepted, or its
	// last call ended); zero while a call is in progress. Guarded by l.mu.
	idleSince time.Time
}

// peerIP returns the IP address of a connection's remote address, or its
// text when it has none.
func peerIP(addr net.Addr) string {
	if a, ok := addr.(*net.TCPAddr); ok {
		return a.IP.String()
	}
	s := addr.String()
	if host, _, err := net.SplitHostPort(s); err == nil {
		return host
	}
	return s
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		now := l.now()
		lc := &limitConn{Conn: c, l: l, client: peerIP(c.RemoteAddr()), idleSince: now}
		l.mu.Lock()
		var victim *limitConn
		full := ""
		switch {
		case l.clients[lc.client] >= l.maxClient:
			full = "client"
			victim = l.victimLocked(lc.client, now)
		case len(l.conns) >= l.max:
			full = "server"
			victim = l.victimLocked("", now)
		}
		if full != "" {
			if victim == nil {
				l.refusedLocked(full, lc.client)
				l.mu.Unlock()
				c.Close()
				continue
			}
			l.removeLocked(victim)
		}
		l.conns[lc] = struct{}{}
		l.clients[lc.client]++
		l.h.metrics.connsOpen.Inc()
		l.mu.Unlock()
		if victim != nil {
			l.h.metrics.connsEvicted.Inc()
			l.h.log.Debug("closed an idle connection to admit a new one", "cap", full, "max_connections", l.max, "max_client_connections", l.maxClient,
				"idle_peer", victim.RemoteAddr().String(), "proven", victim.state.proven.Load(), "idle", now.Sub(victim.idleSince))
			victim.Close()
		}
		return lc, nil
	}
}

// victimLocked returns the connection to close for a new one (see
// [Host.LimitListener]), of client only unless client is "", or nil when
// none may be closed; the caller holds l.mu.
func (l *limitListener) victimLocked(client string, now time.Time) *limitConn {
	var unproven, proven *limitConn
	for c := range l.conns {
		if client != "" && c.client != client || c.idleSince.IsZero() {
			continue
		}
		switch {
		case !c.state.proven.Load():
			if unproven == nil || c.idleSince.Before(unproven.idleSince) {
				unproven = c
			}
		case now.Sub(c.idleSince) >= evictGrace:
			if proven == nil || c.idleSince.Before(proven.idleSince) {
				proven = c
			}
		}
	}
	if unproven != nil {
		return unproven
	}
	return proven
}

// removeLocked forgets c; the caller holds l.mu.
func (l *limitListener) removeLocked(c *limitConn) {
	if _, ok := l.conns[c]; !ok {
		return
	}
	delete(l.conns, c)
	if l.clients[c.client]--; l.clients[c.client] <= 0 {
		delete(l.clients, c.client)
	}
	l.h.metrics.connsOpen.Dec()
}

// refusedLocked counts a refused connection and logs refusals at most once
// every 10 seconds; the caller holds l.mu.
func (l *limitListener) refusedLocked(full, client string) {
	l.h.metrics.connsRefused.Inc()
	l.refused++
	if now := l.now(); now.Sub(l.lastWarn) >= 10*time.Second {
		if full == "client" {
			l.h.log.Warn("connection refused: the client's connections are all in use", "client", client, "max_client_connections", l.maxClient, "refused", l.refused)
		} else {
			l.h.log.Warn("connection refused: every connection is in use", "max_connections", l.max, "refused", l.refused)
		}
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
		lc.idleSince = l.now()
	case http.StateActive, http.StateHijacked:
		lc.idleSince = time.Time{}
	}
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		l.removeLocked(c)
		l.mu.Unlock()
	})
	return err
}
