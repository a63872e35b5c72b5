package rpc_test

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

	"connectrpc.com/connect"

	"github.com/botarena/botarena/rpc"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// huge is a 1 MiB client-supplied string.
var huge = strings.Repeat("x", 1<<20)

// wantBounded fails t unless err is a Connect error with code whose message
// does not echo huge: at most a few KiB, with the quoted input clipped.
func wantBounded(t *testing.T, err error, code connect.Code) {
	t.Helper()
	wantCode(t, err, code)
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return
	}
	if msg := ce.Message(); len(msg) > 4096 || strings.Contains(msg, strings.Repeat("x", 100)) || !strings.Contains(msg, "x…") {
		t.Errorf("message of %d bytes does not bound the input: %.300s", len(msg), msg)
	}
}

// TestErrorsDoNotEchoInput: every error that quotes a client's string (a
// pool id, a game, an agent spec, a format, a name) clips it, whichever
// package made the error.
func TestErrorsDoNotEchoInput(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	c := ts.client(t)
	raw := c.Raw()
	ctx := t.Context()
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: seed(1), LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "idle"}})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		code connect.Code
	}{
		{"reset_pool_id", func() error {
			_, err := raw.Reset(ctx, &botarenav1.ResetRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"step_pool_id", func() error {
			_, err := raw.Step(ctx, &botarenav1.StepRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"render_pool_id", func() error {
			_, err := raw.Render(ctx, &botarenav1.RenderRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"stats_pool_id", func() error {
			_, err := raw.Stats(ctx, &botarenav1.StatsRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"close_pool_id", func() error {
			_, err := raw.ClosePool(ctx, &botarenav1.ClosePoolRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"set_opponents_pool_id", func() error {
			_, err := raw.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: huge})
			return err
		}, connect.CodeNotFound},
		{"stream_first_pool_id", func() error {
			st, err := raw.StepStream(ctx)
			if err != nil {
				return err
			}
			defer st.CloseResponse()
			st.Send(&botarenav1.StepStreamRequest{PoolId: huge, Reset_: true})
			_, err = st.Receive()
			return err
		}, connect.CodeNotFound},
		{"stream_other_pool_id", func() error {
			st, err := raw.StepStream(ctx)
			if err != nil {
				return err
			}
			defer st.CloseResponse()
			st.Send(&botarenav1.StepStreamRequest{PoolId: p.ID(), Reset_: true})
			if _, err := st.Receive(); err != nil {
				return err
			}
			st.Send(&botarenav1.StepStreamRequest{PoolId: huge, Reset_: true})
			_, err = st.Receive()
			return err
		}, connect.CodeInvalidArgument},
		{"create_pool_game", func() error {
			_, err := raw.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: huge, NumEnvs: 1})
			return err
		}, connect.CodeNotFound},
		{"create_pool_opponent", func() error {
			_, err := raw.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: huge}})
			return err
		}, connect.CodeNotFound},
		{"create_pool_config_field", func() error {
			_, err := raw.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, ConfigJson: `{"` + huge + `": 1}`})
			return err
		}, connect.CodeInvalidArgument},
		{"render_format", func() error {
			_, err := raw.Render(ctx, &botarenav1.RenderRequest{PoolId: p.ID(), Format: huge})
			return err
		}, connect.CodeInvalidArgument},
		{"set_opponents_name", func() error {
			mix := &botarenav1.OpponentMix{Choices: []*botarenav1.OpponentChoice{{Name: huge, Spec: "idle", Weight: 1}, {Name: huge, Spec: "random", Weight: 1}}}
			_, err := raw.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: p.ID(), Opponents: map[int32]*botarenav1.OpponentMix{1: mix}})
			return err
		}, connect.CodeInvalidArgument},
		{"set_opponents_spec", func() error {
			mix := &botarenav1.OpponentMix{Choices: []*botarenav1.OpponentChoice{{Spec: huge, Weight: 1}}}
			_, err := raw.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: p.ID(), Opponents: map[int32]*botarenav1.OpponentMix{1: mix}})
			return err
		}, connect.CodeNotFound},
		{"play_game", func() error {
			_, err := ts.matchClient(t).Play(ctx, &botarenav1.PlayRequest{Game: huge, Seats: seats("nop", "nop")})
			return err
		}, connect.CodeNotFound},
		{"play_agent", func() error {
			_, err := ts.matchClient(t).Play(ctx, &botarenav1.PlayRequest{Game: "battlebots", Seats: seats(huge, "nop")})
			return err
		}, connect.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantBounded(t, tc.call(), tc.code)
		})
	}

	t.Run("play_batch_outcome", func(t *testing.T) {
		resp, err := ts.matchClient(t).PlayBatch(ctx, &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
			{Game: "battlebots", Seats: seats(huge, "nop")},
		}})
		if err != nil {
			t.Fatal(err)
		}
		e := resp.GetOutcomes()[0].GetError()
		if msg := e.GetMessage(); e.GetCode() != "not_found" || len(msg) > 4096 || !strings.Contains(msg, "x…") {
			t.Errorf("outcome %s, %d bytes: %.200s", e.GetCode(), len(msg), msg)
		}
	})
}

// newShutdownServer serves a server in memory and returns it with its
// http.Server, for tests of the shutdown sequence of botarena serve.
func newShutdownServer(t *testing.T, opts ...rpc.Option) (*testServer, *http.Server) {
	t.Helper()
	s := rpc.NewServer(opts...)
	ln := newMemListener()
	hs := rpc.NewHTTPServer("", s.Handler())
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return &testServer{Server: s, ln: ln}, hs
}

// TestCloseEndsStepStreams: Close ends an open StepStream with Unavailable
// at once, so that an http.Server's Shutdown, which waits for it, returns
// well before its timeout, as botarena serve shuts down on SIGTERM.
func TestCloseEndsStepStreams(t *testing.T) {
	t.Parallel()
	for _, proto := range []rpc.Protocol{rpc.GRPC, rpc.Connect} {
		t.Run(map[rpc.Protocol]string{rpc.GRPC: "grpc", rpc.Connect: "connect"}[proto], func(t *testing.T) {
			t.Parallel()
			ts, hs := newShutdownServer(t)
			c := ts.client(t, rpc.WithProtocol(proto))
			ctx := t.Context()
			p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: seed(4)})
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
			actions := make([]int32, p.Rows())
			if _, err := st.Step(actions); err != nil {
				t.Fatal(err)
			}

			// The stream waits for its client's next request.
			sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			shut := make(chan error, 1)
			go func() { shut <- hs.Shutdown(sctx) }()
			ts.Close()
			if err := <-shut; err != nil {
				t.Fatalf("Shutdown: %v; the stream kept its connection busy", err)
			}
			_, err = st.Step(actions)
			wantCode(t, err, connect.CodeUnavailable, "shutting down")
		})
	}
}

// TestStreamAfterClose: a stream opened on a closed server is Unavailable.
func TestStreamAfterClose(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	c := ts.client(t)
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: seed(2)})
	ts.Close()
	st, err := p.Stream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.Reset()
	wantCode(t, err, connect.CodeUnavailable, "shutting down")
}

func TestNewHTTPServerLimits(t *testing.T) {
	t.Parallel()
	hs := rpc.NewHTTPServer(":0", http.NotFoundHandler())
	if hs.ReadHeaderTimeout != rpc.DefaultReadHeaderTimeout || hs.IdleTimeout != rpc.DefaultConnIdleTimeout ||
		hs.MaxHeaderBytes != rpc.DefaultMaxHeaderBytes || hs.HTTP2 == nil || hs.HTTP2.MaxConcurrentStreams != rpc.DefaultMaxConcurrentStreams {
		t.Errorf("limits: ReadHeaderTimeout %v, IdleTimeout %v, MaxHeaderBytes %d, HTTP2 %+v",
			hs.ReadHeaderTimeout, hs.IdleTimeout, hs.MaxHeaderBytes, hs.HTTP2)
	}
}

// newLimitedServer serves a server over loopback TCP with at most max
// connections; setup changes the http.Server first.
func newLimitedServer(t *testing.T, max int, setup func(*http.Server)) (*rpc.Server, string) {
	t.Helper()
	s := rpc.NewServer()
	hs := rpc.NewHTTPServer("", s.Handler())
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
	if got, want := metricValue(t, s, "botarena_http_connections_evicted_total", nil), float64(idle+1-max); got != want {
		t.Errorf("evicted %v connections, want %v", got, want)
	}
	if got := metricValue(t, s, "botarena_http_connections_open", nil); got > max {
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
	var streams []*rpc.Stream
	for i := range max {
		c, err := rpc.Dial(addr) // a client, so a connection, of its own
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: seed(uint64(i))})
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
	if got := metricValue(t, s, "botarena_http_connections_refused_total", nil); got < 1 {
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
	client, err := rpc.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if _, err := client.ListGames(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for metricValue(t, s, "botarena_http_connections_open", nil) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("an idle HTTP/2 connection stayed open past IdleTimeout")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
