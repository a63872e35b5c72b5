package server

import (
	"net"
	"net/http"
	"sync"
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
func (h *Host) LimitListener(ln net.Listener, hs *http.Server, n int) net.Listener {
	if n < 1 {
		n = DefaultMaxConnections
	}
	l := &limitListener{Listener: ln, max: n, h: h, conns: map[*limitConn]struct{}{}}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		l.setState(c, st)
		if prev != nil {
			prev(c, st)
		}
	}
	return l
}

// limitListener is the listener of [Host.LimitListener].
type limitListener struct {
	net.Listener
	max int
	h   *Host

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
			l.h.metrics.connsOpen.Dec()
		}
		l.conns[lc] = struct{}{}
		l.h.metrics.connsOpen.Inc()
		l.mu.Unlock()
		if victim != nil {
			l.h.metrics.connsEvicted.Inc()
			l.h.log.Debug("closed an idle connection to admit a new one", "max_connections", l.max, "idle_peer", victim.RemoteAddr().String(), "idle", time.Since(victim.idleSince))
			victim.Close()
		}
		return lc, nil
	}
}

// refusedLocked counts a refused connection and logs refusals at most once
// every 10 seconds; the caller holds l.mu.
func (l *limitListener) refusedLocked() {
	l.h.metrics.connsRefused.Inc()
	l.refused++
	if now := time.Now(); now.Sub(l.lastWarn) >= 10*time.Second {
		l.h.log.Warn("connection refused: every connection has a call in progress", "max_connections", l.max, "refused", l.refused)
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
			l.h.metrics.connsOpen.Dec()
		}
		l.mu.Unlock()
	})
	return err
}
