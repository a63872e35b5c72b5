package rpc_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/bomberman" // registers bomberman
	"github.com/botarena/botarena/rpc"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

// memListener is an in-memory net.Listener: Dial hands the server one end
// of a net.Pipe, so tests need no port.
type memListener struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

func newMemListener() *memListener {
	return &memListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *memListener) Addr() net.Addr { return memAddr{} }

// DialContext connects to the listener.
func (l *memListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return "memory" }

// testServer is a Server served in memory over HTTP/1.1 and h2c.
type testServer struct {
	*rpc.Server
	ln *memListener
}

// newTestServer starts a server with opts in memory; t.Cleanup stops it.
func newTestServer(t testing.TB, opts ...rpc.Option) *testServer {
	t.Helper()
	s := rpc.NewServer(opts...)
	ln := newMemListener()
	hs := rpc.NewHTTPServer("", s.Handler())
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return &testServer{Server: s, ln: ln}
}

// httpClient returns an HTTP client of the in-memory server: h2c, or
// HTTP/1.1 when http1 is set.
func (ts *testServer) httpClient(t testing.TB, http1 bool) *http.Client {
	var p http.Protocols
	if http1 {
		p.SetHTTP1(true)
	} else {
		p.SetUnencryptedHTTP2(true)
	}
	tr := &http.Transport{Protocols: &p, DialContext: ts.ln.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// client returns a Go client of the in-memory server (gRPC protocol unless
// opts say otherwise).
func (ts *testServer) client(t testing.TB, opts ...rpc.ClientOption) *rpc.Client {
	t.Helper()
	opts = append([]rpc.ClientOption{rpc.WithHTTPClient(ts.httpClient(t, false))}, opts...)
	c, err := rpc.Dial("http://memory", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// createPool creates a pool and registers its closing with t.Cleanup.
func createPool(t testing.TB, c *rpc.Client, req *botarenav1.CreatePoolRequest) *rpc.Pool {
	t.Helper()
	p, err := c.CreatePool(t.Context(), req)
	if err != nil {
		t.Fatalf("CreatePool: %v", err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// localPool makes the vecenv pool a server pool of req must match.
func localPool(t testing.TB, req *botarenav1.CreatePoolRequest, opps map[int]env.AgentFactory) *vecenv.Pool {
	t.Helper()
	var seats []int
	for _, s := range req.GetLearnerSeats() {
		seats = append(seats, int(s))
	}
	mode := vecenv.NextStep
	if req.GetAutoReset() == botarenav1.AutoReset_AUTO_RESET_SAME_STEP {
		mode = vecenv.SameStep
	}
	names := map[int]string{}
	for seat, name := range req.GetOpponents() {
		names[int(seat)] = name
	}
	p, err := vecenv.New(vecenv.Config{
		Game: req.GetGame(), GameConfig: []byte(req.GetConfigJson()), NumEnvs: int(req.GetNumEnvs()),
		Seed: req.GetSeed(), Workers: 1, LearnerSeats: seats, Opponents: opps, OpponentNames: names, AutoReset: mode,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// randomActions fills actions with random in-range actions.
func randomActions(rng *rand.Rand, actions []int32, n int) {
	for i := range actions {
		actions[i] = int32(rng.IntN(n))
	}
}

// wantCode fails t unless err is a Connect error with code and a message
// containing every one of substrings.
func wantCode(t testing.TB, err error, code connect.Code, substrings ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", code)
	}
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %T %v, want a *connect.Error", err, err)
	}
	if ce.Code() != code {
		t.Errorf("code = %v (%v), want %v", ce.Code(), ce.Message(), code)
	}
	for _, s := range substrings {
		if !strings.Contains(ce.Message(), s) {
			t.Errorf("message %q does not contain %q", ce.Message(), s)
		}
	}
}

// equalBuffers reports the first difference between two buffers, or "".
func equalBuffers(got, want *env.Buffers) string {
	switch {
	case got.Rows != want.Rows:
		return "rows differ"
	case !slices.Equal(got.Mask, want.Mask):
		return "mask differs"
	case !slices.Equal(got.Rewards, want.Rewards):
		return "rewards differ"
	case !slices.Equal(got.Terminated, want.Terminated):
		return "terminated differs"
	case !slices.Equal(got.Truncated, want.Truncated):
		return "truncated differs"
	case !slices.Equal(got.Env, want.Env), !slices.Equal(got.Seat, want.Seat):
		return "env/seat differ"
	case !slices.Equal(got.Episode, want.Episode):
		return "episode differs"
	}
	for i := range want.Obs {
		if !slices.Equal(got.Obs[i], want.Obs[i]) {
			return "obs " + want.Spec.Obs[i].Name + " differs"
		}
	}
	return ""
}
