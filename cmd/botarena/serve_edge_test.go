package main

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

const edgeToken = "edge-test-token-0123456789abcdef"

// loopbackAddr turns the address serve printed for a wildcard listener
// ([::]:PORT, 0.0.0.0:PORT) into a loopback one.
func loopbackAddr(t *testing.T, addr string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// wantErrCode fails t unless err is a Connect error with code, as its
// text tells ("unauthenticated: ..."): cmd does not import Connect.
func wantErrCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), code+": ") {
		t.Errorf("got %v, want a %s error", err, code)
	}
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	_, stderr, code := runCLI(t, "", "serve", "--addr", "0.0.0.0:0")
	if code == 0 || !strings.Contains(stderr, "refusing to listen beyond loopback without a token") ||
		!strings.Contains(stderr, authTokenEnv) || !strings.Contains(stderr, "--insecure") {
		t.Errorf("exit %d, stderr %q; want a refusal naming %s and --insecure", code, stderr, authTokenEnv)
	}
}

func TestServeInsecure(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	addr, stderr, stop := startServe(t, "--addr", "0.0.0.0:0", "--insecure")
	c := dialServe(t, loopbackAddr(t, addr))
	if _, err := c.ListGames(t.Context()); err != nil {
		t.Fatal(err)
	}
	stop()
	if !strings.Contains(stderr.String(), "without a token (--insecure)") {
		t.Errorf("no warning in the log:\n%s", stderr.String())
	}
}

// TestServeToken: with BOTARENA_AUTH_TOKEN serve listens beyond loopback
// (warning that the token travels in clear text), refuses calls without
// the token and answers the health check without it.
func TestServeToken(t *testing.T) {
	t.Setenv(authTokenEnv, " "+edgeToken+"\n") // as $(cat file) may leave it
	addr, stderr, stop := startServe(t, "--addr", "0.0.0.0:0")
	addr = loopbackAddr(t, addr)
	ctx := t.Context()

	anonymous := dialServe(t, addr)
	_, err := anonymous.ListGames(ctx)
	wantErrCode(t, err, "unauthenticated")

	c := dialServe(t, addr, client.WithToken(edgeToken))
	if _, err := c.ListGames(ctx); err != nil {
		t.Fatalf("ListGames with the token: %v", err)
	}
	resp, err := http.Post("http://"+addr+"/grpc.health.v1.Health/Check", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `_SERVING"`) {
		t.Errorf("health without the token: %d %s", resp.StatusCode, b)
	}
	stop()
	if log := stderr.String(); !strings.Contains(log, "clear text") || !strings.Contains(log, "auth=true") || strings.Contains(log, edgeToken) {
		t.Errorf("log should warn about clear text, say auth=true and never print the token:\n%s", log)
	}
}

// TestServeTLS: --tls-cert/--tls-key serve HTTP/2 over TLS (streams work)
// to a client with WithTLSConfig, and the version in ListGames.
func TestServeTLS(t *testing.T) {
	certFile, keyFile, roots := testutil.WriteSelfSignedCert(t)
	addr, _, _ := startServe(t, "--tls-cert", certFile, "--tls-key", keyFile, "--auth-token", edgeToken)
	c := dialServe(t, addr, client.WithTLSConfig(&tls.Config{RootCAs: roots}), client.WithToken(edgeToken))
	ctx := t.Context()
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "testgame", NumEnvs: 2})
	resetStream(t, p) // a StepStream over TLS
	// Plaintext h2c is not served on a TLS port.
	plain := dialServe(t, addr, client.WithToken(edgeToken))
	if _, err := plain.ListGames(ctx); err == nil {
		t.Error("a plaintext client reached the TLS server")
	}
}

func TestServePprof(t *testing.T) {
	for _, on := range []bool{false, true} {
		args := []string{}
		if on {
			args = append(args, "--pprof")
		}
		addr, _, stop := startServe(t, args...)
		resp, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == 200) != on {
			t.Errorf("--pprof %v: /debug/pprof/cmdline answered %s", on, resp.Status)
		}
		stop()
	}
}

// TestServeShutdownEndsStreams: on SIGTERM (here the context) an open
// StepStream ends at once with Unavailable, and serve stops long before its
// --shutdown-timeout.
func TestServeShutdownEndsStreams(t *testing.T) {
	addr, stderr, stop := startServe(t, "--shutdown-timeout", "5m")
	c := dialServe(t, addr)
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "testgame", NumEnvs: 2})
	st := resetStream(t, p)
	stopped := make(chan int, 1)
	go func() { stopped <- stop() }()
	select {
	case code := <-stopped:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("serve still running a minute after SIGTERM with a stream open (its shutdown timeout is 5m)")
	}
	_, err := st.Step(make([]int32, p.Rows()))
	wantErrCode(t, err, "unavailable")
	if strings.Contains(stderr.String(), "calls still running after the shutdown timeout") {
		t.Errorf("the stream ran to the shutdown timeout:\n%s", stderr.String())
	}
}

func TestServeEdgeFlagErrors(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	wantServeRefuses(t, []serveRefusal{
		{"cert_without_key", []string{"--tls-cert", "cert.pem"}, "--tls-cert and --tls-key: give both or neither"},
		{"missing_cert", []string{"--tls-cert", "nope.pem", "--tls-key", "nope.key"}, "--tls-cert, --tls-key: stat nope.pem"},
		{"max_connections", []string{"--max-connections", "0"}, "--max-connections: want at least 1, got 0"},
		{"conn_idle_timeout", []string{"--conn-idle-timeout", "0s"}, "--conn-idle-timeout: want more than 0"},
		{"token_space", []string{"--auth-token", "two words"}, "may not contain spaces"},
		{"max_client_connections", []string{"--max-client-connections", "-1"}, "--max-client-connections: want at least 0, got -1"},
		{"max_client_streams", []string{"--max-client-streams", "0"}, "--max-client-streams: want at least 1, got 0"},
		{"max_conn_streams", []string{"--max-conn-streams", "0"}, "--max-conn-streams: want at least 1, got 0"},
		{"stream_idle_timeout", []string{"--stream-idle-timeout", "-1s"}, "--stream-idle-timeout: want 0 (--conn-idle-timeout) or more"},
		{"allowed_hosts_url", []string{"--allowed-hosts", "http://arena.lan/"}, "--allowed-hosts: want host names"},
	})
}

// TestLeagueServersSendTheToken: league run --servers sends the token of
// BOTARENA_AUTH_TOKEN to servers that require it, and fails without it.
func TestLeagueServersSendTheToken(t *testing.T) {
	addr, _, _ := startServe(t, "--auth-token", edgeToken)
	for _, token := range []string{"", edgeToken} {
		t.Setenv(authTokenEnv, token)
		dir := filepath.Join(t.TempDir(), "lg")
		for _, args := range [][]string{
			{"league", "init", dir, "--game", "battlebots", "--seed", "3"},
			{"league", "add", dir, "nop", "nop"},
			{"league", "add", dir, "random", "random"},
		} {
			if _, errOut, code := runCLI(t, "", args...); code != 0 {
				t.Fatalf("botarena %v: exit %d: %s", args, code, errOut)
			}
		}
		_, errOut, code := runCLI(t, "", "league", "run", dir, "--games", "4", "--max-rounds", "20", "--png", "", "--servers", addr)
		if token == "" {
			if code == 0 || !strings.Contains(errOut, "unauthenticated") {
				t.Errorf("run without the token: exit %d, %s; want unauthenticated", code, errOut)
			}
			continue
		}
		if code != 0 {
			t.Errorf("run with the token: exit %d: %s", code, errOut)
		}
	}
}
