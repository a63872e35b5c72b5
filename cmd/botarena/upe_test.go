package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/match"
)

// upeClient is the sample UPE client (agents/examples/upe-python).
var upeClient = filepath.Join("..", "..", "agents", "examples", "upe-python", "client.py")

// clientSummary is the client's last line.
type clientSummary struct {
	GameID        string `json:"gameID"`
	PlayerIndex   int    `json:"playerIndex"`
	State         string `json:"state"`
	Moves         int    `json:"moves"`
	MoveNumber    int    `json:"moveNumber"`
	Alive         bool   `json:"alive"`
	OpponentAlive bool   `json:"opponentAlive"`
}

func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	return py
}

// runClient runs the Python client to its end and returns its summary.
func runClient(t *testing.T, ctx context.Context, args ...string) (clientSummary, error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, needPython(t), append([]string{upeClient}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var s clientSummary
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &s); jerr != nil && err == nil {
		t.Errorf("client output %q (stderr %s): %v", out.String(), errb.String(), jerr)
	}
	return s, err
}

var upeListeningRE = regexp.MustCompile(`UPE clients: listening on (\S+)\n`)

// startPlayListen runs `botarena play portalbomber --listen 127.0.0.1:0`
// in-process and returns the UPE address and a wait function for its exit
// status and stdout.
func startPlayListen(t *testing.T, args ...string) (addr string, wait func() (int, string, string)) {
	t.Helper()
	stdout, stderr := &testutil.SyncBuffer{}, &testutil.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runContext(t.Context(), append([]string{"play", "portalbomber", "--listen", "127.0.0.1:0", "--json"}, args...),
			strings.NewReader(""), stdout, stderr)
	}()
	addr = awaitAddress(t, "play", upeListeningRE, stderr, done, func() {})
	return addr, func() (int, string, string) {
		select {
		case code := <-done:
			return code, stdout.String(), stderr.String()
		case <-time.After(60 * time.Second):
			t.Fatalf("play did not end: %s", stderr.String())
			return 0, "", ""
		}
	}
}

// A UPE game: the Python client plays seat 0 over HTTP against greedy in a
// match that `botarena play --listen` runs.
func TestUPEPlayListen(t *testing.T) {
	needPython(t)
	addr, wait := startPlayListen(t, "--agents", "listen,greedy", "--seed", "7")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	s, err := runClient(t, ctx, "--url", "http://"+addr, "--seed", "1")
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	code, out, errs := wait()
	if code != 0 {
		t.Fatalf("play: %d %s", code, errs)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("play output %q: %v", out, err)
	}
	if s.State != "complete" || s.PlayerIndex != 0 || s.Moves == 0 {
		t.Fatalf("client summary %+v", s)
	}
	if res.Rounds != s.MoveNumber/2 || res.Leaderboard[0].Agent == "" {
		t.Fatalf("result %+v, client %+v", res, s)
	}
	switch {
	case s.Alive && !s.OpponentAlive:
		if res.Winner != 0 {
			t.Fatalf("client won, result %+v", res)
		}
	case !s.Alive && s.OpponentAlive:
		if res.Winner != 1 {
			t.Fatalf("client lost, result %+v", res)
		}
	}
	if !strings.Contains(errs, "upe: client seated") {
		t.Errorf("no log line for the seated client: %s", errs)
	}
}

// A client that stops responding after 3 moves loses by the original's
// timeout, both players alive, and play ends on time.
func TestUPEPlayListenTimeout(t *testing.T) {
	needPython(t)
	addr, wait := startPlayListen(t, "--agents", "listen,greedy", "--seed", "7", "--listen-timeout", "1500ms")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		runClient(t, ctx, "--url", "http://"+addr, "--strategy", "garbage", "--stop-after", "3", "--http-timeout", "20")
	}()
	code, out, errs := wait()
	cancel()
	<-clientDone
	var res match.Result
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("play: %d %s %s", code, out, errs)
	}
	if res.Winner != 1 || !res.Leaderboard[0].Alive || !res.Leaderboard[1].Alive {
		t.Fatalf("want greedy to win by timeout, both alive: %s", out)
	}
	for _, want := range []string{"upe: timeout: no move in time", "upe: invalid move"} {
		if !strings.Contains(errs, want) {
			t.Errorf("no log line %q: %s", want, errs)
		}
	}
}

// A practice game on `botarena serve`'s port: the Python client plays the
// Go sample's suicide bot against the practice bot and dies in round 5
// (spec S1), while the Connect service shares the port.
func TestUPEServePractice(t *testing.T) {
	needPython(t)
	addr, _, stop := startServe(t, "--upe-practice-delay", "0")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	s, err := runClient(t, ctx, "--url", "http://"+addr, "--mode", "practice", "--strategy", "suicide")
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	if s.State != "complete" || s.Alive || !s.OpponentAlive || s.MoveNumber != 10 {
		t.Fatalf("client summary %+v", s)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}
}

func TestUPEPlayErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "portalbomber", "--agents", "listen,greedy"}, "need --listen"},
		{[]string{"play", "bomberman", "--listen", "127.0.0.1:0", "--agents", "listen"}, "UPE clients play portalbomber"},
		{[]string{"play", "portalbomber", "--listen", "127.0.0.1:0", "--agents", "greedy"}, `name the seats UPE clients play "listen"`},
		{[]string{"play", "portalbomber", "--listen", "127.0.0.1:0", "--agents", "listen", "--listen-timeout", "0s"}, "--listen-timeout"},
	} {
		_, errs, code := runCLI(t, "", c.args...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: got %d %q, want %q", c.args, code, errs, c.want)
		}
	}
}
