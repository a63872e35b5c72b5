package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

func TestNewHTTPServerLimits(t *testing.T) {
	t.Parallel()
	hs := server.NewHTTPServer(":0", http.NotFoundHandler())
	if hs.ReadHeaderTimeout != server.DefaultReadHeaderTimeout || hs.IdleTimeout != server.DefaultConnIdleTimeout ||
		hs.MaxHeaderBytes != server.DefaultMaxHeaderBytes || hs.HTTP2 == nil || hs.HTTP2.MaxConcurrentStreams != server.DefaultMaxConcurrentStreams {
		t.Errorf("limits: ReadHeaderTimeout %v, IdleTimeout %v, MaxHeaderBytes %d, HTTP2 %+v",
			hs.ReadHeaderTimeout, hs.IdleTimeout, hs.MaxHeaderBytes, hs.HTTP2)
	}
}

// newLimitedServer serves a server over loopback TCP with at most max
// connections; setup (if not nil) changes the http.Server first, opts are
// rpctest.Compose's (a Wrap for the token or the guard, host options).
func newLimitedServer(t *testing.T, max int, setup func(*http.Server), opts ...any) (*rpctest.Stack, string) {
	t.Helper()
	s := rpctest.Compose(t, opts...)
	return s, s.ServeTCP(t, setup, max)
}

// health checks the server at addr over a new HTTP/1.1 connection.
func health(addr string) error {
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	resp, err := hc.Post("http://"+addr+"/grpc.health.v1.Health/Check", "application/json", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `_SERVING"`) || strings.Contains(string(b), "NOT_SERVING") {
		return errors.New("health: " + resp.Status + " " + string(b))
	}
	return nil
}

// waitClosed fails t unless the server closes c (a read returns an error)
// within a minute.
func waitClosed(t *testing.T, c net.Conn, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	var b [1]byte
	if _, err := c.Read(b[:]); err == nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		t.Errorf("%s: read %v, want the connection closed by the server", what, err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestIdleConnectionsCannotLockOut: connections that send nothing, beyond
// the cap, do not keep a health check out: each new connection takes the
// place of the one idle longest.
func TestIdleConnectionsCannotLockOut(t *testing.T) {
	t.Parallel()
	const max, idle = 4, 12
	s, addr := newLimitedServer(t, max, nil)
	var conns []net.Conn
	for range idle {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	if err := health(addr); err != nil {
		t.Fatalf("health check with %d idle connections open and a cap of %d: %v", idle, max, err)
	}
	// The oldest were closed to make room.
	for i, c := range conns[:idle+1-max] {
		waitClosed(t, c, fmt.Sprintf("idle connection %d", i))
	}
	if got, want := rpctest.MetricValue(t, s.Metrics(), "botarena_http_connections_evicted_total", nil), float64(idle+1-max); got != want {
		t.Errorf("evicted %v connections, want %v", got, want)
	}
	if got := rpctest.MetricValue(t, s.Metrics(), "botarena_http_connections_open", nil); got > max {
		t.Errorf("%v connections open, over the cap of %d", got, max)
	}
}

// TestBusyConnectionsRefuseNewOnes: when every connection has a call in
// progress (here a StepStream), a new connection is closed at once, and
// admitted again once a connection goes idle.
func TestBusyConnectionsRefuseNewOnes(t *testing.T) {
	t.Parallel()
	const max = 2
	s, addr := newLimitedServer(t, max, nil)
	var streams []*client.Stream
	for i := range max {
		streams = append(streams, streamOfItsOwn(t, addr, uint64(i))) // a client, so a connection, of its own
	}
	if err := health(addr); err == nil {
		t.Fatalf("health check with %d streams open and a cap of %d: answered, want the connection refused", max, max)
	}
	if got := rpctest.MetricValue(t, s.Metrics(), "botarena_http_connections_refused_total", nil); got < 1 {
		t.Errorf("refused %v connections, want at least 1", got)
	}
	// Once a stream ends its connection is idle, and a new one takes its
	// place.
	streams[0].Close()
	deadline := time.Now().Add(time.Minute)
	for {
		err := health(addr)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health check after a stream ended: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSilentConnectionsAreClosed: a connection that sends no request is
// closed after ReadHeaderTimeout, and an HTTP/2 connection without calls
// after IdleTimeout.
func TestSilentConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	s, addr := newLimitedServer(t, 16, func(hs *http.Server) {
		hs.ReadHeaderTimeout = 50 * time.Millisecond
		hs.IdleTimeout = 50 * time.Millisecond
	})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitClosed(t, c, "a connection that sent nothing")

	// An HTTP/2 client's connection, idle after one call.
	client := rpctest.Dial(t, addr)
	if _, err := client.ListGames(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for rpctest.MetricValue(t, s.Metrics(), "botarena_http_connections_open", nil) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("an idle HTTP/2 connection stayed open past IdleTimeout")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countingDialer dials TCP and counts the connections it made.
type countingDialer struct {
	n atomic.Int32
	d net.Dialer
}

func (d *countingDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.n.Add(1)
	return d.d.DialContext(ctx, network, addr)
}

// waitMetric waits until the metric name of s reaches at least want.
func waitMetric(t *testing.T, s *rpctest.Stack, name string, want float64) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for rpctest.MetricValue(t, s.Metrics(), name, nil) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v, want at least %v", name, rpctest.MetricValue(t, s.Metrics(), name, nil), want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestConnectionOpenersCannotEvictClients: at the connection cap, new
// connections take the places of connections that never proved a client
// (no request with the token; without a token, none the guard admitted)
// before that of a client at work, however long it has been idle: a
// process that only opens connections does not close a trainer's.
func TestConnectionOpenersCannotEvictClients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		wrap  rpctest.Wrap
		token string
	}{
		{"token", func(h http.Handler) http.Handler {
			return server.Guard(server.RequireToken(h, testToken), server.GuardOptions{Token: true})
		}, testToken},
		{"no_token", func(h http.Handler) http.Handler { return server.Guard(h, server.GuardOptions{}) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const max, openers = 4, 12
			s, addr := newLimitedServer(t, max, nil, tc.wrap)
			d := &countingDialer{}
			var p http.Protocols
			p.SetUnencryptedHTTP2(true)
			tr := &http.Transport{Protocols: &p, DialContext: d.DialContext}
			defer tr.CloseIdleConnections()
			opts := []client.Option{client.WithHTTPClient(&http.Client{Transport: tr})}
			if tc.token != "" {
				opts = append(opts, client.WithToken(tc.token))
			}
			trainer := rpctest.Dial(t, "http://"+addr, opts...)
			if _, err := trainer.ListGames(t.Context()); err != nil {
				t.Fatal(err)
			}
			for range openers {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
			}
			// 1+openers connections for max places: every further one
			// closed one.
			waitMetric(t, s, "botarena_http_connections_evicted_total", 1+openers-max)
			if _, err := trainer.ListGames(t.Context()); err != nil {
				t.Fatalf("the trainer's call after %d connections were opened: %v", openers, err)
			}
			if n := d.n.Load(); n != 1 {
				t.Errorf("the trainer dialed %d connections, want 1: its connection was closed", n)
			}
		})
	}
}

// streamOfItsOwn dials addr as a new client (so on a connection of its
// own), creates a one-env pool there with seed and returns a reset
// StepStream on it, all closed when the test ends.
func streamOfItsOwn(t *testing.T, addr string, seed uint64) *client.Stream {
	t.Helper()
	c := rpctest.Dial(t, addr)
	p, err := c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: rpctest.Seed(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return rpctest.ResetStream(t, t.Context(), p)
}

// healthFrom checks the server at addr over a new HTTP/1.1 connection from
// the loopback address ip.
func healthFrom(addr, ip string) error {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DisableKeepAlives: true, DialContext: d.DialContext}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	resp, err := hc.Post("http://"+addr+"/grpc.health.v1.Health/Check", "application/json", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return errors.New("health: " + resp.Status)
	}
	return nil
}

// TestClientConnectionCap: a client (IP address) may hold at most
// WithMaxClientConnections connections, far below the server's cap: with
// every one of them in use, its next connection is closed at once while
// another client's is served.
func TestClientConnectionCap(t *testing.T) {
	t.Parallel()
	const perClient = 2
	s, addr := newLimitedServer(t, 64, nil, server.WithMaxClientConnections(perClient))
	for i := range perClient {
		streamOfItsOwn(t, addr, uint64(i)) // a connection of its own, from 127.0.0.1
	}
	if err := healthFrom(addr, "127.0.0.1"); err == nil {
		t.Errorf("a third connection of a client with %d streams open and a cap of %d: answered, want it refused", perClient, perClient)
	}
	if err := healthFrom(addr, "127.0.0.2"); err != nil {
		t.Errorf("another client's connection: %v", err)
	}
	if got := rpctest.MetricValue(t, s.Metrics(), "botarena_http_connections_refused_total", nil); got < 1 {
		t.Errorf("refused %v connections, want at least 1", got)
	}
}

// TestRequestBodiesMustArrive: a request whose body does not arrive
// within IdleTimeout fails, over HTTP/1.1 and HTTP/2, instead of holding
// its handler and its connection.
func TestRequestBodiesMustArrive(t *testing.T) {
	t.Parallel()
	for _, http1 := range []bool{true, false} {
		name := map[bool]string{true: "http1", false: "h2c"}[http1]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, addr := newLimitedServer(t, 16, func(hs *http.Server) { hs.IdleTimeout = 20 * time.Millisecond })
			var p http.Protocols
			if http1 {
				p.SetHTTP1(true)
			} else {
				p.SetUnencryptedHTTP2(true)
			}
			tr := &http.Transport{Protocols: &p}
			defer tr.CloseIdleConnections()
			body, w := io.Pipe()
			defer w.Close()
			go w.Write([]byte(`{`)) // the start of a body whose end never comes
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			// HTTP/2's transport watches ctx only once the body has ended.
			defer context.AfterFunc(ctx, func() { w.CloseWithError(ctx.Err()) })()
			req, err := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/botarena.v1.EnvService/ListGames", body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Connect-Protocol-Version", "1")
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					t.Fatalf("a request without its body's end: %s %s", resp.Status, b)
				}
				return // answered with an error
			}
			if ctx.Err() != nil {
				t.Fatalf("a request without its body's end was still open a minute later: %v", err)
			}
		})
	}
}

// TestBodyDeadlineLiftedOnceRead: over HTTP/1.1 the body's deadline ends
// with the body: a handler that works longer than IdleTimeout after
// reading it is not cancelled.
func TestBodyDeadlineLiftedOnceRead(t *testing.T) {
	t.Parallel()
	const deadline = 20 * time.Millisecond
	hs := server.NewHTTPServer("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		time.Sleep(10 * deadline) // a slower machine only waits longer
		if err := r.Context().Err(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}))
	hs.IdleTimeout = deadline
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	resp, err := http.Post("http://"+ln.Addr().String()+"/", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "ok" {
		t.Errorf("%s %s; want 200 ok", resp.Status, b)
	}
}
