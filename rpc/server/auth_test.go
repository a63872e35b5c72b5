package server_test

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

const testToken = "s3cret-token-0123456789"

// newGuardedServer serves a host's handler behind RequireToken(token) in
// memory; t.Cleanup stops it.
func newGuardedServer(t testing.TB, token string) *rpctest.Server {
	t.Helper()
	return rpctest.New(t, rpctest.Wrap(func(h http.Handler) http.Handler { return server.RequireToken(h, token) }))
}

// metadata is a client interceptor that sets one request header (gRPC
// metadata) as a grpcio client's metadata argument does.
type metadata struct{ key, value string }

func (m metadata) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		req.Header().Set(m.key, m.value)
		return next(ctx, req)
	}
}

func (m metadata) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		conn.RequestHeader().Set(m.key, m.value)
		return conn
	}
}

func (m metadata) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

func TestRequireToken(t *testing.T) {
	t.Parallel()
	ts := newGuardedServer(t, testToken)
	for _, tc := range []struct {
		name string
		opts []client.Option
		code connect.Code // 0: accepted
	}{
		{"grpc_with_token", []client.Option{client.WithToken(testToken)}, 0},
		{"grpc_metadata", []client.Option{client.WithConnectOptions(connect.WithInterceptors(metadata{"authorization", "Bearer " + testToken}))}, 0},
		{"grpc_metadata_lower_case_scheme", []client.Option{client.WithConnectOptions(connect.WithInterceptors(metadata{"authorization", "bearer " + testToken}))}, 0},
		{"connect_with_token", []client.Option{client.WithProtocol(client.Connect), client.WithToken(testToken)}, 0},
		{"grpc_web_with_token", []client.Option{client.WithProtocol(client.GRPCWeb), client.WithToken(testToken)}, 0},
		{"grpc_without_token", nil, connect.CodeUnauthenticated},
		{"connect_without_token", []client.Option{client.WithProtocol(client.Connect)}, connect.CodeUnauthenticated},
		{"grpc_web_without_token", []client.Option{client.WithProtocol(client.GRPCWeb)}, connect.CodeUnauthenticated},
		{"wrong_token", []client.Option{client.WithToken(testToken + "x")}, connect.CodeUnauthenticated},
		{"token_prefix", []client.Option{client.WithToken(testToken[:5])}, connect.CodeUnauthenticated},
		{"basic_scheme", []client.Option{client.WithConnectOptions(connect.WithInterceptors(metadata{"authorization", "Basic " + testToken}))}, connect.CodeUnauthenticated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := ts.Client(t, tc.opts...)
			ctx := t.Context()
			games, err := c.ListGames(ctx)
			if tc.code != 0 {
				rpctest.WantCode(t, err, tc.code, "bearer token")
				// A stream is refused the same way.
				st, err := c.Raw().StepStream(ctx)
				if err != nil {
					t.Fatal(err)
				}
				st.Send(&botarenav1.StepStreamRequest{PoolId: "p-1", Reset_: true})
				_, err = st.Receive()
				rpctest.WantCode(t, err, tc.code)
				st.CloseRequest()
				st.CloseResponse()
				return
			}
			if err != nil || len(games) == 0 {
				t.Fatalf("ListGames: %d games, %v", len(games), err)
			}
			// Streams carry the token too.
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: rpctest.Seed(1)})
			if tc.name == "connect_with_token" || tc.name == "grpc_web_with_token" || tc.name == "grpc_with_token" {
				st := rpctest.ResetStream(t, ctx, p)
				if _, err := st.Step(make([]int32, p.Rows())); err != nil {
					t.Fatalf("stream Step: %v", err)
				}
			}
		})
	}
}

// TestRequireTokenRoutes: every route needs the token but the gRPC health
// service, which Kubernetes probes call without one; plain HTTP routes
// answer 401 with a Bearer challenge.
func TestRequireTokenRoutes(t *testing.T) {
	t.Parallel()
	ts := newGuardedServer(t, testToken)
	hc := ts.HTTPClient(t, true)
	do := func(method, path, token, body string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, "http://memory"+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" { // the Connect protocol with JSON, as curl users send it
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Connect-Protocol-Version", "1")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	if code, _, body := do("POST", "/grpc.health.v1.Health/Check", "", `{}`); code != 200 || !strings.Contains(body, `_SERVING"`) || strings.Contains(body, "NOT_SERVING") {
		t.Errorf("health without a token: %d %s", code, body)
	}
	if code, _, body := do("POST", "/botarena.v1.EnvService/ListGames", "", `{}`); code != 401 || !strings.Contains(body, `"unauthenticated"`) {
		t.Errorf("ListGames without a token: %d %s", code, body)
	}
	if code, _, body := do("POST", "/botarena.v1.EnvService/ListGames", testToken, `{}`); code != 200 || !strings.Contains(body, `"bomberman"`) {
		t.Errorf("ListGames with the token: %d %.100s", code, body)
	}
	if code, h, body := do("GET", "/metrics", "", ""); code != 401 || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") || strings.Contains(body, "botarena_") {
		t.Errorf("/metrics without a token: %d %v %.100s", code, h, body)
	}
	if code, _, body := do("GET", "/metrics", testToken, ""); code != 200 || !strings.Contains(body, "botarena_pools_open") {
		t.Errorf("/metrics with the token: %d %.100s", code, body)
	}
	if code, _, _ := do("GET", "/elsewhere", "", ""); code != 401 {
		t.Errorf("an unknown path without a token: %d, want 401", code)
	}
	if code, _, _ := do("POST", "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", "", `{}`); code == 200 {
		t.Errorf("reflection without a token: %d, want it refused", code)
	}
}

func TestRequireTokenPanicsOnEmptyToken(t *testing.T) {
	t.Parallel()
	testutil.WantPanic(t, "RequireToken with an empty token", "", func() { server.RequireToken(http.NotFoundHandler(), "") })
}

func TestIsLoopback(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr net.Addr
		want bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, true},
		{&net.TCPAddr{IP: net.IPv4(127, 1, 2, 3), Port: 1}, true},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 1}, true},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 1}, false},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 1}, false},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 11), Port: 1}, false},
		{&net.TCPAddr{Port: 1}, false}, // no IP: every interface
		{&net.UnixAddr{Name: "/run/botarena.sock", Net: "unix"}, false},
	} {
		if got := server.IsLoopback(tc.addr); got != tc.want {
			t.Errorf("IsLoopback(%v) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

// TestTLS: the HTTP server of NewHTTPServer serves HTTP/2 over TLS (ALPN
// h2: streams work) and HTTP/1.1 over TLS, and the Go client reaches it
// with WithTLSConfig and a host:port address, with the token.
func TestTLS(t *testing.T) {
	t.Parallel()
	cert, roots := testutil.SelfSignedCert(t)
	s := rpctest.Compose(t)
	hs := server.NewHTTPServer("", server.RequireToken(s.Handler, testToken))
	hs.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	hs.ErrorLog = log.New(io.Discard, "", 0) // the handshake the untrusted client aborts
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.ServeTLS(s.LimitListener(ln, hs, 8), "", "")
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	addr := ln.Addr().String()

	c := rpctest.Dial(t, addr, client.WithTLSConfig(&tls.Config{RootCAs: roots}), client.WithToken(testToken))
	ctx := t.Context()
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: rpctest.Seed(3)})
	rpctest.ResetStream(t, ctx, p) // over TLS

	// ALPN: h2 for HTTP/2 clients, http/1.1 for the others.
	for _, proto := range []string{"h2", "http/1.1"} {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, NextProtos: []string{proto}})
		if err != nil {
			t.Fatal(err)
		}
		if got := conn.ConnectionState().NegotiatedProtocol; got != proto {
			t.Errorf("ALPN offered %s, negotiated %q", proto, got)
		}
		conn.Close()
	}

	// Without the CA the client refuses the server; without the token the
	// server refuses the client.
	untrusted := rpctest.Dial(t, addr, client.WithTLSConfig(&tls.Config{}), client.WithToken(testToken))
	if _, err := untrusted.ListGames(ctx); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("ListGames with an untrusted certificate: %v, want a certificate error", err)
	}
	anonymous := rpctest.Dial(t, "https://"+addr, client.WithTLSConfig(&tls.Config{RootCAs: roots}))
	_, err = anonymous.ListGames(ctx)
	rpctest.WantCode(t, err, connect.CodeUnauthenticated)
}

// TestRequireTokenBrowserCookie checks the browser path: GET ?token=TOKEN
// sets the HttpOnly, SameSite=Strict cookie and redirects to the URL
// without the token; the cookie then admits requests, a wrong one does not.
func TestRequireTokenBrowserCookie(t *testing.T) {
	h := server.RequireToken(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), "s3cret")
	srv := httptest.NewServer(h)
	defer srv.Close()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	resp, err := noFollow.Get(srv.URL + "/?game=battlebots&token=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?game=battlebots" {
		t.Fatalf("GET ?token=: %d, Location %q; want 303 to /?game=battlebots", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == server.TokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v; want HttpOnly, SameSite=Strict", cookie)
	}
	for _, tc := range []struct {
		name  string
		value string
		want  int
	}{
		{"right_cookie", "s3cret", http.StatusOK},
		{"wrong_cookie", "guess", http.StatusUnauthorized},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/catalog", nil)
		req.AddCookie(&http.Cookie{Name: server.TokenCookie, Value: tc.value})
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	resp, err = noFollow.Get(srv.URL + "/?token=guess")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Errorf("GET ?token=wrong: %d with %d cookies; want 401 and none", resp.StatusCode, len(resp.Cookies()))
	}
}
