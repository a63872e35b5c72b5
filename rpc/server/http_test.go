package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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
// connections; setup changes the http.Server first.
func newLimitedServer(t *testing.T, max int, setup func(*http.Server)) (*rpctest.Stack, string) {
	t.Helper()
	s := rpctest.Compose(t)
	hs := server.NewHTTPServer("", s.Handler)
	if setup != nil {
		setup(hs)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(s.LimitListener(ln, hs, max))
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return s, ln.Addr().String()
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
	ctx := t.Context()
	var streams []*client.Stream
	for i := range max {
		c, err := client.Dial(addr) // a client, so a connection, of its own
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: rpctest.Seed(uint64(i))})
		if err != nil {
			t.Fatal(err)
		}
		st, err := p.Stream(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := st.Reset(); err != nil {
			t.Fatal(err)
		}
		streams = append(streams, st)
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
	client, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
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
