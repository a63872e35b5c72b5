// Package rpctest holds what the tests of the rpc packages share: a host
// serving an EnvService and a MatchService in memory, as `botarena serve`
// composes them, clients of it, and assertions about Connect errors,
// metrics, the memory budget and batches.
package rpctest

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"

	_ "github.com/botarena/botarena/agents/all" // registers the agent schemes (policy:PATH, cmd:, dir:, http://), as botarena serve has them
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots"   // registers the games the tests play
	_ "github.com/botarena/botarena/env/battlecube"   // registers battlecube
	_ "github.com/botarena/botarena/env/battleships"  // registers battleships
	_ "github.com/botarena/botarena/env/bomberman"    // registers bomberman
	_ "github.com/botarena/botarena/env/portalbomber" // registers portalbomber
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

// Wrap is an option of [Compose] and [New] that wraps the host's handler
// (with server.RequireToken, a handler that fails on demand, ...).
type Wrap func(http.Handler) http.Handler

// Stack is a host with an EnvService and a MatchService on one handler.
type Stack struct {
	*server.Host
	Env     *envservice.Server
	Match   *matchservice.Server
	Handler http.Handler
}

// Compose makes a host with an EnvService and a MatchService, as `botarena
// serve` does, from opts: [server.Option], [envservice.Option],
// [matchservice.Option] and [Wrap] values, in any order. t.Cleanup closes
// the host.
func Compose(t testing.TB, opts ...any) *Stack {
	t.Helper()
	var (
		hostOpts  []server.Option
		envOpts   []envservice.Option
		matchOpts []matchservice.Option
		wraps     []Wrap
	)
	for _, o := range opts {
		switch o := o.(type) {
		case server.Option:
			hostOpts = append(hostOpts, o)
		case envservice.Option:
			envOpts = append(envOpts, o)
		case matchservice.Option:
			matchOpts = append(matchOpts, o)
		case Wrap:
			wraps = append(wraps, o)
		default:
			t.Fatalf("rpctest: option of type %T", o)
		}
	}
	h := server.New(hostOpts...)
	s := &Stack{Host: h, Env: envservice.New(h, envOpts...), Match: matchservice.New(h, matchOpts...)}
	s.Handler = h.Handler(s.Env, s.Match)
	for _, w := range wraps {
		s.Handler = w(s.Handler)
	}
	t.Cleanup(func() { h.Close() })
	return s
}

// ServeTCP serves s over loopback TCP (HTTP/1.1 and h2c, as `botarena
// serve` does) and returns its address. setup, if not nil, changes the
// http.Server first; maxConns > 0 caps its connections with the host's
// [server.Host.LimitListener]. t.Cleanup stops it.
func (s *Stack) ServeTCP(t testing.TB, setup func(*http.Server), maxConns int) string {
	t.Helper()
	hs := server.NewHTTPServer("", s.Handler)
	if setup != nil {
		setup(hs)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if maxConns > 0 {
		ln = s.LimitListener(ln, hs, maxConns)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return addr
}

// Server is a [Stack] served in memory over HTTP/1.1 and h2c.
type Server struct {
	*Stack
	HTTP *http.Server
	ln   *memListener
}

// New serves [Compose] of opts in memory; t.Cleanup stops it.
func New(t testing.TB, opts ...any) *Server {
	t.Helper()
	s := Compose(t, opts...)
	ln := newMemListener()
	hs := server.NewHTTPServer("", s.Handler)
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return &Server{Stack: s, HTTP: hs, ln: ln}
}

// HTTPClient returns an HTTP client of the in-memory server: h2c, or
// HTTP/1.1 when http1 is set.
func (ts *Server) HTTPClient(t testing.TB, http1 bool) *http.Client {
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

// Client returns a Go client of the in-memory server over h2c (the
// client's default protocol, Connect, unless opts say otherwise).
func (ts *Server) Client(t testing.TB, opts ...client.Option) *client.Client {
	t.Helper()
	opts = append([]client.Option{client.WithHTTPClient(ts.HTTPClient(t, false))}, opts...)
	return Dial(t, "http://memory", opts...)
}

// Dial dials a client of the server at addr ([client.Dial]) and
// registers its closing with t.Cleanup.
func Dial(t testing.TB, addr string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.Dial(addr, opts...)
	return testutil.Closing(t, c, err)
}

// MatchClient returns a MatchService client of the in-memory server (gRPC
// over h2c).
func (ts *Server) MatchClient(t testing.TB) botarenav1connect.MatchServiceClient {
	return botarenav1connect.NewMatchServiceClient(ts.HTTPClient(t, false), "http://memory", connect.WithGRPC())
}

// addrConn is the server's end of an in-memory connection, coming from
// addr.
type addrConn struct {
	net.Conn
	addr net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.addr }

// ClientFrom returns a Go client of the in-memory server whose connections
// come from ip (the server's client key), over h2c.
func (ts *Server) ClientFrom(t testing.TB, ip string) *client.Client {
	t.Helper()
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	addr := &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}
	tr := &http.Transport{Protocols: &p, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		server, client := net.Pipe()
		select {
		case ts.ln.conns <- addrConn{Conn: server, addr: addr}:
			return client, nil
		case <-ts.ln.done:
			return nil, net.ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := client.Dial("http://memory", client.WithHTTPClient(&http.Client{Transport: tr}))
	return testutil.Closing(t, c, err)
}

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

// PolicyFixture returns the absolute path of the policy file of game in
// agents/policy/testdata ("battlebots", "battlecube").
func PolicyFixture(t testing.TB, game string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("rpctest: no caller information")
	}
	path, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", "..", "agents", "policy", "testdata", game+".policy.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// BotsDir makes a bots folder (for agents.Capabilities.BotDirs) holding a
// copy of the battlebots policy (bb.safetensors), a link to the original,
// outside the folder (outside.safetensors), and a link (shadow) to secret,
// a file beside the folder that no agent may read. It skips the test where
// symbolic links cannot be made.
func BotsDir(t testing.TB) (dir, secret string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "bots")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(PolicyFixture(t, "battlebots"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bb.safetensors"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	secret = filepath.Join(root, "shadow")
	if err := os.WriteFile(secret, []byte("root:$6$s3cr3tSALT$hash:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(dir, "outside.safetensors"): PolicyFixture(t, "battlebots"),
		filepath.Join(dir, "shadow"):              secret,
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	return dir, secret
}

// Seed returns a pointer to s, for CreatePoolRequest.Seed.
func Seed(s uint64) *uint64 { return &s }

// Seats returns match seats playing the agent specs, named after them.
func Seats(specs ...string) []*botarenav1.MatchSeat {
	var out []*botarenav1.MatchSeat
	for _, s := range specs {
		out = append(out, &botarenav1.MatchSeat{Name: s, Spec: s})
	}
	return out
}

// ListGames returns the games c's server lists, failing t on an error.
func ListGames(t testing.TB, c *client.Client) []*botarenav1.GameInfo {
	t.Helper()
	games, err := c.ListGames(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// CreatePool creates a pool and registers its closing with t.Cleanup.
func CreatePool(t testing.TB, c *client.Client, req *botarenav1.CreatePoolRequest) *client.Pool {
	t.Helper()
	p, err := c.CreatePool(t.Context(), req)
	if err != nil {
		t.Fatalf("CreatePool: %v", err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// CreateRawPool creates the pool req asks for through the raw service
// client (the generated one: the response as the server sent it) and
// registers its closing with t.Cleanup.
func CreateRawPool(t testing.TB, raw botarenav1connect.EnvServiceClient, req *botarenav1.CreatePoolRequest) *botarenav1.CreatePoolResponse {
	t.Helper()
	created, err := raw.CreatePool(t.Context(), req)
	if err != nil {
		t.Fatalf("CreatePool: %v", err)
	}
	t.Cleanup(func() { raw.ClosePool(context.Background(), &botarenav1.ClosePoolRequest{PoolId: created.GetPoolId()}) })
	return created
}

// ServedAndLocal serves a new in-memory server, creates the pool req asks
// for there through the raw client ([CreateRawPool]), and makes the local
// pool it must match ([LocalPool], with opps): a served pool's test
// against its reference.
func ServedAndLocal(t testing.TB, req *botarenav1.CreatePoolRequest, opps map[int]env.AgentFactory) (botarenav1connect.EnvServiceClient, *botarenav1.CreatePoolResponse, *vecenv.Pool) {
	t.Helper()
	raw := New(t).Client(t).Raw()
	return raw, CreateRawPool(t, raw, req), LocalPool(t, req, opps)
}

// OpenStream opens a StepStream of p, closed when the test ends.
func OpenStream(t testing.TB, ctx context.Context, p *client.Pool) *client.Stream {
	t.Helper()
	st, err := p.Stream(ctx)
	return testutil.Closing(t, st, err)
}

// ResetStream opens a StepStream on p under ctx, registers its closing
// with t.Cleanup, and resets the pool through it.
func ResetStream(t testing.TB, ctx context.Context, p *client.Pool) *client.Stream {
	t.Helper()
	st := OpenStream(t, ctx, p)
	if _, err := st.Reset(); err != nil {
		t.Fatalf("stream Reset: %v", err)
	}
	return st
}

// LocalPool makes the vecenv pool a server pool of req must match.
func LocalPool(t testing.TB, req *botarenav1.CreatePoolRequest, opps map[int]env.AgentFactory) *vecenv.Pool {
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
	return testutil.NewPool(t, vecenv.Config{
		Game: req.GetGame(), GameConfig: []byte(req.GetConfigJson()), NumEnvs: int(req.GetNumEnvs()),
		Seed: req.GetSeed(), Workers: 1, LearnerSeats: seats, Opponents: opps, OpponentNames: names, AutoReset: mode,
	})
}

// RandomActions fills actions with random in-range actions.
func RandomActions(rng *rand.Rand, actions []int32, n int) {
	for i := range actions {
		actions[i] = int32(rng.IntN(n))
	}
}

// EqualBuffers reports the first difference between two buffers, or "".
func EqualBuffers(got, want *env.Buffers) string {
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

// WantCode fails t unless err is a Connect error with code and a message
// containing every one of substrings.
func WantCode(t testing.TB, err error, code connect.Code, substrings ...string) {
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

// Call returns a function that makes the unary call rpc(ctx, req) and
// returns its error, for tables of calls that must fail: Call(ctx,
// raw.Step, &botarenav1.StepRequest{...}).
func Call[Req, Resp any](ctx context.Context, rpc func(context.Context, *Req) (*Resp, error), req *Req) func() error {
	return func() error {
		_, err := rpc(ctx, req)
		return err
	}
}

// Huge is a 1 MiB client-supplied string.
var Huge = strings.Repeat("x", 1<<20)

// WantBounded fails t unless err is a Connect error with code whose message
// does not echo [Huge]: at most a few KiB, with the quoted input clipped.
func WantBounded(t testing.TB, err error, code connect.Code) {
	t.Helper()
	WantCode(t, err, code)
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return
	}
	if msg := ce.Message(); len(msg) > 4096 || strings.Contains(msg, strings.Repeat("x", 100)) || !strings.Contains(msg, "x…") {
		t.Errorf("message of %d bytes does not bound the input: %.300s", len(msg), msg)
	}
}

// WantInUse fails t unless h's memory budget has want bytes in use.
func WantInUse(t testing.TB, h *server.Host, want int64) {
	t.Helper()
	if used, _ := h.MemoryInUse(); used != want {
		t.Errorf("%d bytes in use, want %d", used, want)
	}
}

// StillServes fails t unless the server answers a call.
func StillServes(t testing.TB, c *client.Client) {
	t.Helper()
	if _, err := c.ListGames(t.Context()); err != nil {
		t.Fatalf("the server no longer answers: %v", err)
	}
}

// MetricValue returns the value of the metric name (a counter, gauge or
// untyped; a histogram's sample count) with labels among its labels,
// summed over the matching series; 0 when there is none.
func MetricValue(t testing.TB, g prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.GetCounter() != nil:
				sum += m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				sum += m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				sum += float64(m.GetHistogram().GetSampleCount())
			case m.GetUntyped() != nil:
				sum += m.GetUntyped().GetValue()
			}
		}
	}
	return sum
}
