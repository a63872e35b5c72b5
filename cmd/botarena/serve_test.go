package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

var listeningRE = regexp.MustCompile(`botarena serve: listening on (\S+)\n`)

// dialServe dials the server at addr with opts; the client is closed when
// the test ends.
func dialServe(t *testing.T, addr string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.Dial(addr, opts...)
	return testutil.Closing(t, c, err)
}

// createPool creates the pool req asks c for, failing t on an error.
func createPool(t *testing.T, c *client.Client, req *botarenav1.CreatePoolRequest) *client.Pool {
	t.Helper()
	p, err := c.CreatePool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// resetStream opens a StepStream on p, closed when the test ends, and
// resets the pool through it.
func resetStream(t *testing.T, p *client.Pool) *client.Stream {
	t.Helper()
	st, err := p.Stream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Reset(); err != nil {
		t.Fatalf("stream Reset: %v", err)
	}
	return st
}

// startServe runs `botarena serve` in-process on a free port and returns its
// address, its stderr, and a stop function that cancels it and returns the
// exit status.
func startServe(t *testing.T, args ...string) (addr string, stderr *testutil.SyncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stderr = &testutil.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runContext(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), io.Discard, stderr)
	}()
	addr = awaitAddress(t, "serve", listeningRE, stderr, done, cancel)
	stopped := false
	var code int
	stop = func() int {
		if !stopped {
			stopped = true
			cancel()
			code = <-done
		}
		return code
	}
	t.Cleanup(func() { stop() })
	return addr, stderr, stop
}

// awaitAddress waits until stderr, the log of the in-process command
// what, shows the address re captures, and returns it. It fails t, after
// calling cancel, if the command exits (its status on done) or shows none
// within 10 seconds.
func awaitAddress(t *testing.T, what string, re *regexp.Regexp, stderr *testutil.SyncBuffer, done <-chan int, cancel func()) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("%s exited with %d: %s", what, code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%s did not print its address: %s", what, stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestServe(t *testing.T) {
	addr, stderr, stop := startServe(t, "--log-format", "json", "--max-pools", "2")
	if strings.HasSuffix(addr, ":0") {
		t.Fatalf("printed address %s, want the port picked", addr)
	}
	c := dialServe(t, addr)
	ctx := t.Context()
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "testgame", NumEnvs: 3})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := p.Step(ctx, make([]int32, p.Rows()))
	if err != nil {
		t.Fatal(err)
	}
	if res.Buffers.Rows != 6 {
		t.Errorf("rows %d, want 6", res.Buffers.Rows)
	}

	// The Connect protocol with JSON over HTTP/1.1 reaches the same server:
	// the gRPC health service, then EnvService.
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post("http://"+addr+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("/grpc.health.v1.Health/Check", `{}`); code != 200 || !strings.HasSuffix(strings.TrimSpace(body), `_SERVING"}`) || strings.Contains(body, "NOT_SERVING") {
		t.Errorf("health: %d %s", code, body)
	}
	if code, body := post("/grpc.health.v1.Health/Check", `{"service":"botarena.v1.EnvService"}`); code != 200 || !strings.HasSuffix(strings.TrimSpace(body), `_SERVING"}`) || strings.Contains(body, "NOT_SERVING") {
		t.Errorf("health of EnvService: %d %s", code, body)
	}
	if code, body := post("/botarena.v1.EnvService/ListGames", `{}`); code != 200 || !strings.Contains(body, `"testgame"`) {
		t.Errorf("ListGames over HTTP/1.1: %d %s", code, body)
	}
	if code, body := post("/botarena.v1.EnvService/Step", `{"poolId":"p-nope"}`); code != 404 || !strings.Contains(body, `"not_found"`) {
		t.Errorf("Step of an unknown pool over HTTP/1.1: %d %s", code, body)
	}

	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var events []string
	for line := range strings.Lines(stderr.String()) {
		if strings.HasPrefix(line, "botarena serve: listening on ") {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		events = append(events, rec["msg"].(string))
		if rec["msg"] == "pool created" && (rec["game"] != "testgame" || rec["envs"] != 3.0 || rec["pool"] != p.ID()) {
			t.Errorf("pool created: %v", rec)
		}
	}
	want := []string{"serving", "pool created", "shutting down", "pool closed", "stopped"}
	if strings.Join(events, ",") != strings.Join(want, ",") {
		t.Errorf("log events %v, want %v", events, want)
	}
}

func TestServeErrors(t *testing.T) {
	wantServeRefuses(t, []serveRefusal{
		{"log_format", []string{"--log-format", "xml"}, `--log-format: want text or json, got "xml"`},
		{"log_level", []string{"--log-level", "loud"}, `--log-level: want debug, info, warn or error, got "loud"`},
		{"max_pools", []string{"--max-pools", "0"}, "--max-pools: want at least 1, got 0"},
		{"idle_timeout", []string{"--idle-timeout", "-1s"}, "--idle-timeout: want 0 (never) or more"},
		{"addr", []string{"--addr", "127.0.0.1:notaport"}, "--addr: listen tcp"},
		{"args", []string{"extra"}, `unknown command "extra"`},
	})
}

// serveRefusal is a serve command line (after `serve --addr 127.0.0.1:0`)
// that must fail with an error containing want.
type serveRefusal struct {
	name string
	args []string
	want string
}

// wantServeRefuses checks that serve exits non-zero on each of cases,
// printing its error after "botarena: ".
func wantServeRefuses(t *testing.T, cases []serveRefusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
			if code == 0 || !strings.HasPrefix(stderr, "botarena: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want non-zero and %q", code, stderr, tc.want)
			}
		})
	}
}
