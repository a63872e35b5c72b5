package main

import (
	"encoding/json"
	"github.com/botarena/botarena/internal/testutil"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// startNodeCubeBot starts the sample node Battle³ bot and returns its URL;
// it skips the test when node is missing.
func startNodeCubeBot(t *testing.T) string {
	t.Helper()
	return testutil.StartNodeBot(t, filepath.Join("..", "..", "agents", "examples", "battlecube-node", "bot.js"))
}

// eventLines parses the --events output.
func eventLines(t *testing.T, out string) []struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
} {
	t.Helper()
	var evs []struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, `{"event":`) {
			continue // the result
		}
		var ev struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("event line %q: %v", l, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func TestBattlecubeTwoHTTPBots(t *testing.T) {
	nodeURL := startNodeCubeBot(t)
	// A Go bot: moves back and forth along Y, as in the original's tests.
	var asked atomic.Int32
	var badHeaders atomic.Int32
	goBot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			CurrentPlayer struct{ Name, URL string } `json:"currentPlayer"`
			GameInfo      struct {
				CurrentTick int `json:"currentTick"`
			} `json:"gameInfo"`
		}
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("User-Agent") != "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)" ||
			r.Header.Get("Content-Type") != "" || json.Unmarshal(body, &req) != nil || !strings.HasPrefix(req.CurrentPlayer.URL, "http://127.0.0.1:") {
			badHeaders.Add(1)
		}
		asked.Add(1)
		dir := "+Y"
		if req.GameInfo.CurrentTick%2 == 1 {
			dir = "-Y"
		}
		io.WriteString(w, `[{"task":"MOVE","direction":"`+dir+`"}]`)
	}))
	defer goBot.Close()
	out, stderr, code := runCLI(t, "", "play", "battlecube", "--agents", nodeURL+","+goBot.URL+",teebot,dumb",
		"--edge", "6", "--max-ticks", "40", "--seed", "7", "--events")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	evs := eventLines(t, out)
	if evs[0].Event != "GAME_STARTED" || evs[len(evs)-1].Event != "GAME_ENDED" {
		t.Errorf("first %s, last %s", evs[0].Event, evs[len(evs)-1].Event)
	}
	nodeName, goName := "Http://127.0.0.1:", "Http://127.0.0.1:"
	acted := map[string]int{}
	for _, ev := range evs {
		var d struct {
			Name  string          `json:"name"`
			Cause json.RawMessage `json:"cause"`
		}
		json.Unmarshal(ev.Data, &d)
		switch ev.Event {
		case "PLAYER_MOVE_ATTEMPT", "PLAYER_PLACED_BOMB", "PLAYER_DID_NOTHING":
			acted[d.Name]++
		case "PLAYER_LOST":
			if strings.HasPrefix(d.Name, "Http") && (string(d.Cause) == "{}" || strings.Contains(string(d.Cause), "VALIDATION_ERROR")) {
				t.Errorf("an HTTP bot's reply was rejected: %s", ev.Data)
			}
		}
	}
	httpActs := 0
	for n, k := range acted {
		if strings.HasPrefix(n, nodeName) || strings.HasPrefix(n, goName) {
			httpActs += k
		}
	}
	if httpActs < 2 || asked.Load() == 0 {
		t.Errorf("HTTP bots acted %d times, the Go bot was asked %d times:\n%s", httpActs, asked.Load(), out)
	}
	if badHeaders.Load() != 0 {
		t.Errorf("%d requests without the original's method, headers or body", badHeaders.Load())
	}
	if !strings.Contains(out, `"url":"`+goBot.URL+`"`) {
		t.Errorf("the scores lack the bots' urls")
	}
}

func TestBattlecubeHTTPBotLosses(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String() + "/"
	l.Close()
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc // nil: down
		cause   string
	}{
		{"timeout", slow, `{}`},
		{"wrong_count", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `[]`) },
			`{"error":"VALIDATION_ERROR","details":"Invalid amount of directions sent"}`},
		{"bad_schema", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `[{"task":"MOVE","direction":7}]`) },
			`{"error":"VALIDATION_ERROR","details":[`},
		{"down", nil, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := down
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				url = srv.URL + "/"
			}
			limit := "1m" // only the timeout case tests the limit; the others answer at once, however loaded the machine
			if tc.name == "timeout" {
				limit = "1s"
			}
			spec := url + "#timeout=" + limit
			out, stderr := runOKIn(t, "", "play", "battlecube", "--agents", spec+",teebot,dumb,dumb", "--max-ticks", "20", "--seed", "3", "--events", "--json")
			// The original's playerLost writes {cause, name}, in that order.
			want := `{"event":"PLAYER_LOST","data":{"cause":` + tc.cause
			name := `,"name":"Http://` + strings.TrimPrefix(spec, "http://") + `"}}`
			if !strings.Contains(out, want) || !strings.Contains(out, name) {
				t.Errorf("events lack %s...%s:\n%s", want, name, out)
			}
			if !strings.Contains(stderr, "battlecube: "+url+" (seat 0, ") || !strings.Contains(stderr, "lost (") {
				t.Errorf("no log line: %q", stderr)
			}
			// Lost in the ask phase of tick 0, with highScore 0.
			if !strings.Contains(out, `"highScore":0`) || !strings.Contains(out, `"event":"GAME_ENDED"`) {
				t.Errorf("no loss at tick 0 or no end:\n%s", out)
			}
		})
	}
}
