package httpbot

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlecube"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// newCube makes a battlecube game from a JSON config and resets it.
func newCube(t *testing.T, cfg string) *battlecube.Game {
	t.Helper()
	c := battlecube.DefaultConfig()
	if err := json.Unmarshal([]byte(cfg), c); err != nil {
		t.Fatal(err)
	}
	g, err := battlecube.New(c)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	return g
}

// stepCube steps g with acts and returns the events of the tick.
func stepCube(g *battlecube.Game, acts []int32) string {
	n := g.Players()
	g.Step(acts, make([]float32, n), make([]bool, n), make([]bool, n))
	return string(g.AppendEvents(nil))
}

// recorder is a bot server that records the requests and answers with
// reply(request number).
type recorder struct {
	mu      sync.Mutex
	headers []http.Header
	bodies  [][]byte
	methods []string
	reply   func(i int, w http.ResponseWriter)
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	i := len(r.bodies)
	r.headers = append(r.headers, req.Header.Clone())
	r.bodies = append(r.bodies, body)
	r.methods = append(r.methods, req.Method)
	r.mu.Unlock()
	r.reply(i, w)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.bodies)
}

func botAt(t *testing.T, spec string) *Bot {
	t.Helper()
	a, err := agents.New("battlecube", spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := a.(*Bot)
	t.Cleanup(func() { b.Close() })
	return b
}

// duelAt starts a two-player cube (players at opposite corners) with the
// bot of spec in seat 0, logging to the buffer it returns.
func duelAt(t *testing.T, spec string) (*battlecube.Game, *Bot, *bytes.Buffer) {
	t.Helper()
	g := newCube(t, `{"players":2,"start_positions":[[1,1,1],[5,5,5]]}`)
	b := botAt(t, spec)
	log := &bytes.Buffer{}
	b.Log = log
	b.Reset(g, 0, 0)
	return g, b, log
}

func TestHTTPBotSendsTheOriginalRequest(t *testing.T) {
	rec := &recorder{reply: func(i int, w http.ResponseWriter) {
		w.WriteHeader(http.StatusTeapot) // the status is ignored
		io.WriteString(w, `[{"task":"MOVE","direction":"+X"}]`)
	}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	url := srv.URL + "/bot"
	g := newCube(t, `{"players":2,"edge":8,"start_positions":[[1,1,1],[5,5,5]],"urls":["`+url+`",""]}`)
	b := botAt(t, url)
	var log bytes.Buffer
	b.Log = &log
	b.Reset(g, 0, 1)
	want, _ := g.AppendNative(nil, battlecube.FormatRequest, 0)
	if a := b.Act(g, 0); a != int32(battlecube.MovePlusX) {
		t.Fatalf("action %d, want +X", a)
	}
	if rec.count() != 1 {
		t.Fatalf("%d requests, want 1", rec.count())
	}
	if rec.methods[0] != http.MethodPost {
		t.Errorf("method %s", rec.methods[0])
	}
	if !bytes.Equal(rec.bodies[0], want) {
		t.Errorf("body\n%s\nwant\n%s", rec.bodies[0], want)
	}
	if !strings.HasPrefix(string(want), `{"currentPlayer":{"name":"Player 1","url":"`+url+`"},"gameInfo":{"id":"botarena","edgeLength":8,`) {
		t.Errorf("request %s", want)
	}
	h := rec.headers[0]
	for k, v := range map[string]string{
		"Accept":          "*/*",
		"Accept-Encoding": "gzip,deflate",
		"Connection":      "close",
		"User-Agent":      NodeFetchUserAgent,
		"Content-Type":    "",
	} {
		if got := h.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
	if log.Len() != 0 {
		t.Errorf("log: %s", log.String())
	}
}

func TestHTTPBotAsksOncePerCycle(t *testing.T) {
	// Spec §9 g8 over HTTP: J at (6,6,0) replies [+X, +Y] each cycle, P at
	// (0,0,0) [NOOP, NOOP]; J walks out of the cube at tick 2.
	reply := func(body string) *recorder {
		return &recorder{reply: func(i int, w http.ResponseWriter) { io.WriteString(w, body) }}
	}
	j := reply(`[{"task":"MOVE","direction":"+X"},{"task":"MOVE","direction":"+Y"}]`)
	p := reply(`[{"task":"NOOP"},{"task":"NOOP"}]`)
	sj, sp := httptest.NewServer(j), httptest.NewServer(p)
	defer sj.Close()
	defer sp.Close()
	g := newCube(t, `{"players":2,"edge":8,"tasks_per_tick":2,"max_ticks":100,"names":["John","Paul"],"start_positions":[[6,6,0],[0,0,0]]}`)
	bots := []*Bot{botAt(t, sj.URL), botAt(t, sp.URL)}
	for s, b := range bots {
		b.Reset(g, s, 0)
	}
	var events []string
	for !g.Done() {
		acts := make([]int32, 2)
		for s, b := range bots {
			acts[s] = b.Act(g, s)
		}
		events = append(events, stepCube(g, acts))
	}
	all := strings.Join(events, "")
	if j.count() != 2 || p.count() != 2 {
		t.Errorf("requests %d and %d, want 2 each (ticks 0 and 2)", j.count(), p.count())
	}
	for _, want := range []string{
		`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":7,"y":6,"z":0}}`,
		`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":7,"y":7,"z":0}}`,
		`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":8,"y":7,"z":0}}`,
		`{"event":"PLAYER_LOST","data":{"cause":"Player moved out of bounds","name":"John"}}`,
		`"winner":{"name":"Paul","highScore":3}`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("events lack %s:\n%s", want, all)
		}
	}
	var req struct {
		GameInfo struct{ CurrentTick int } `json:"gameInfo"`
	}
	if err := json.Unmarshal(j.bodies[1], &req); err != nil || req.GameInfo.CurrentTick != 2 {
		t.Errorf("second request %s (%v)", j.bodies[1], err)
	}
}

// lossCase is a bot server misbehaving in one way, and the cause the
// original gives its loss.
type lossCase struct {
	name    string
	handler http.HandlerFunc // nil: the server is down
	cause   string
	log     string
}

func lossCases() []lossCase {
	return []lossCase{
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body) // so that the server notices the client leave
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second): // far past the time-out
			}
		}, `{}`, "no response within 200ms"},
		{"stalled_body", func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body)
			io.WriteString(w, `[{"task":`)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second): // far past the time-out
			}
		}, `{}`, "no complete reply body within 200ms"},
		{"wrong_count", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `[{"task":"NOOP"},{"task":"NOOP"}]`)
		}, `{"error":"VALIDATION_ERROR","details":"Invalid amount of directions sent"}`, "does not hold 1 tasks"},
		{"bad_schema", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `[{"task":"BOMB","x":-1,"y":0,"z":0}]`)
		}, `{"error":"VALIDATION_ERROR","details":[`, "fails the task schema"},
		{"not_json", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "404 page not found", http.StatusNotFound)
		}, `{}`, "not JSON"},
		{"down", nil, `{}`, "request failed"},
		{"redirect_without_location", func(w http.ResponseWriter, r *http.Request) {
			// node-fetch 1.x rejects it; Go's client would hand back the body.
			w.WriteHeader(http.StatusFound)
			io.WriteString(w, `[{"task":"NOOP"}]`)
		}, `{}`, "redirect location header missing"},
	}
}

// downURL returns the URL of a port nobody listens on.
func downURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

func TestHTTPBotLosesAsTheOriginal(t *testing.T) {
	for _, tc := range lossCases() {
		t.Run(tc.name, func(t *testing.T) {
			url := downURL(t)
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				url = srv.URL
			}
			g := newCube(t, `{"players":2,"start_positions":[[1,1,1],[5,5,5]]}`)
			// Only the cases that test the time-out meet it: a loaded
			// machine cannot time out the others.
			timeout := "10m"
			if strings.Contains(tc.log, "within 200ms") {
				timeout = "200ms"
			}
			b := botAt(t, url+"#timeout="+timeout)
			var log bytes.Buffer
			b.Log = &log
			b.Reset(g, 0, 0)
			a := b.Act(g, 0)
			if a >= 0 {
				t.Fatalf("action %d, want a rejection", a)
			}
			ev := stepCube(g, []int32{a, int32(battlecube.Noop)})
			want := `{"event":"PLAYER_LOST","data":{"cause":` + tc.cause
			if !strings.Contains(ev, want) || !strings.Contains(ev, `,"name":"Player 1"}}`) {
				t.Errorf("events lack %s:\n%s", want, ev)
			}
			if !strings.Contains(log.String(), tc.log) || strings.Count(log.String(), "\n") != 1 {
				t.Errorf("log %q, want one line with %q", log.String(), tc.log)
			}
			if !g.Done() || g.Player(0).InPlay || b.Act(g, 0) != int32(battlecube.Noop) {
				t.Errorf("the bot should be out and the game over")
			}
			// One fault, of the case's kind: a time-out, a failed request
			// (crashed) or a rejected reply (invalid).
			var kinds agents.Faults
			switch {
			case strings.Contains(tc.log, "within 200ms"):
				kinds.TimedOut = 1
			case tc.name == "down" || tc.name == "redirect_without_location":
				kinds.Crashed = 1
			default:
				kinds.Invalid = 1
			}
			if b.Faults() != kinds {
				t.Errorf("faults %+v, want %+v", b.Faults(), kinds)
			}
		})
	}
}

// TestHTTPBotFollowsRedirectsAsNodeFetch: the original server's
// node-fetch 1.x follows a redirect with the first request's headers and
// adds no Referer (Go's client does); 303, and 301 or 302 after a POST,
// continue as a GET without a body, 307 and 308 repeat the POST.
func TestHTTPBotFollowsRedirectsAsNodeFetch(t *testing.T) {
	for _, tc := range []struct {
		code   int
		method string
	}{{301, "GET"}, {302, "GET"}, {303, "GET"}, {307, "POST"}, {308, "POST"}} {
		t.Run(strconv.Itoa(tc.code), func(t *testing.T) {
			rec := &recorder{}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			rec.reply = func(i int, w http.ResponseWriter) {
				if i < 2 { // two hops: an absolute Location, then a relative one
					loc := srv.URL + "/hop1"
					if i == 1 {
						loc = "/bot"
					}
					w.Header().Set("Location", loc)
					w.WriteHeader(tc.code)
					return
				}
				io.WriteString(w, `[{"task":"MOVE","direction":"+Z"}]`)
			}
			g, b, log := duelAt(t, srv.URL+"/start")
			if a := b.Act(g, 0); a != int32(battlecube.MovePlusZ) {
				t.Fatalf("action %d, want +Z (log %q)", a, log.String())
			}
			if rec.count() != 3 {
				t.Fatalf("%d requests, want 3", rec.count())
			}
			want, _ := g.AppendNative(nil, battlecube.FormatRequest, 0)
			for i, h := range rec.headers {
				if h.Get("Referer") != "" {
					t.Errorf("request %d has Referer %q, which node-fetch does not send", i, h.Get("Referer"))
				}
				for k, v := range map[string]string{"Accept": "*/*", "Accept-Encoding": "gzip,deflate", "Connection": "close", "User-Agent": NodeFetchUserAgent} {
					if h.Get(k) != v {
						t.Errorf("request %d: header %s %q, want %q", i, k, h.Get(k), v)
					}
				}
				if i == 0 {
					continue
				}
				method, body := tc.method, want
				if method == "GET" {
					body = nil
				}
				if rec.methods[i] != method || !bytes.Equal(rec.bodies[i], body) {
					t.Errorf("request %d: %s with %d bytes, want %s with %d", i, rec.methods[i], len(rec.bodies[i]), method, len(body))
				}
				if cl := h.Get("Content-Length"); method == "GET" && cl != "" {
					t.Errorf("request %d: a GET with Content-Length %s", i, cl)
				}
			}
		})
	}
}

// TestHTTPBotRedirectHopsHaveTheirOwnTimeout: node-fetch 1.x arms its
// timeout for every hop of a redirect, so three hops that together take
// longer than the timeout still get the reply. Each hop leaves 3 s of its
// timeout to a loaded machine.
func TestHTTPBotRedirectHopsHaveTheirOwnTimeout(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		time.Sleep(2 * time.Second)
		if n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/")); n < 2 {
			http.Redirect(w, r, srv.URL+"/"+strconv.Itoa(n+1), http.StatusTemporaryRedirect)
			return
		}
		io.WriteString(w, `[{"task":"MOVE","direction":"-X"}]`)
	}))
	defer srv.Close()
	g, b, log := duelAt(t, srv.URL+"/0#timeout=5s")
	if a := b.Act(g, 0); a != int32(battlecube.MoveMinusX) {
		t.Fatalf("action %d, want -X (log %q)", a, log.String())
	}
}

// TestHTTPBotLogsWhatTheServerDoes: a task the server accepts but no
// action expresses is logged as what the original does with it, and only
// a bomb off the cube is played as NOOP.
func TestHTTPBotLogsWhatTheServerDoes(t *testing.T) {
	for _, tc := range []struct{ name, reply, log string }{
		{"crash_move", `[{"task":"MOVE"}]`, "MOVE without a direction, which crashes the server's move code at the bot's turn: lost (cause {})"},
		{"bomb_nowhere", `[{"task":"BOMB"}]`, "BOMB without coordinates: a bomb on no cell, which never explodes"},
		{"idle", `[{"task":"WAIT"}]`, "no task the server knows: it does nothing (no event)"},
		{"stray_move", `[{"task":"MOVE","direction":"+Q"}]`, `MOVE along "q", no axis: the bot stays, and its position gains a stray "q" property`},
		{"no_axis", `[{"task":"MOVE","direction":"+"}]`, `direction has no axis: the bot stays, and its position gains a stray "undefined" property`},
		{"bomb_off_the_cube", `[{"task":"BOMB","x":99,"y":0,"z":0}]`, "bomb on no cell of the cube, which the action space cannot place: NOOP instead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, tc.reply) }))
			defer srv.Close()
			g, b, log := duelAt(t, srv.URL)
			a := b.Act(g, 0)
			if want, _ := g.ParseCommand(0, []byte(tc.reply)); a != want {
				t.Errorf("action %d, want ParseCommand's %d", a, want)
			}
			if !strings.Contains(log.String(), tc.log) || strings.Count(log.String(), "\n") != 1 {
				t.Errorf("log %q, want one line with %q", log.String(), tc.log)
			}
			if tc.name != "bomb_off_the_cube" && strings.Contains(log.String(), "NOOP") {
				t.Errorf("log %q says NOOP", log.String())
			}
		})
	}
}

// TestHTTPBotLeavesItsLogToTheProgram: a new bot has no log of its own,
// so that it writes to agents.ExternalOptions.Log, the program's choice
// (agents.ExternalLog).
func TestHTTPBotLeavesItsLogToTheProgram(t *testing.T) {
	h, err := New("http://127.0.0.1:1/", 0)
	if err != nil {
		t.Fatal(err)
	}
	if h.Log != nil {
		t.Errorf("New set Log to %v; want nil (the program's log)", h.Log)
	}
}

func TestHTTPBotDecodesAndTolerates(t *testing.T) {
	// A gzip body, and leniencies the server has: lower-case directions.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		z := gzip.NewWriter(w)
		io.WriteString(z, `[{"task":"MOVE","direction":"-y"}]`)
		z.Close()
	}))
	defer srv.Close()
	g, b, _ := duelAt(t, srv.URL)
	if a := b.Act(g, 0); a != int32(battlecube.MoveMinusY) {
		t.Errorf("action %d, want -Y", a)
	}
}

func TestHTTPBotSpecs(t *testing.T) {
	t.Setenv(HTTPTimeoutEnv, "")
	b, err := Parse("http://localhost:4001/x#timeout=250ms")
	if err != nil || b.URL != "http://localhost:4001/x" || b.Timeout != 250*time.Millisecond {
		t.Errorf("%+v %v", b, err)
	}
	if b, err = Parse("https://bots.example/a"); err != nil || b.Timeout != DefaultHTTPTimeout {
		t.Errorf("%+v %v", b, err)
	}
	if b, err = Parse("http://h:1#timeout=0"); err != nil || b.Timeout != 0 {
		t.Errorf("%+v %v", b, err)
	}
	t.Setenv(HTTPTimeoutEnv, "1s")
	if b, err = Parse("http://h:1"); err != nil || b.Timeout != time.Second {
		t.Errorf("%+v %v", b, err)
	}
	for _, bad := range []string{"http://", "http://h#timeout=soon", "http://h#timeout=-1s", "http://h#speed=1", "http://h:bad port/"} {
		if _, err := agents.New("battlecube", bad, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := agents.New("bomberman", "http://h:1", nil); err == nil {
		t.Error("an HTTP bot for bomberman")
	}
	if URL("http://h:1/p#timeout=1s") != "http://h:1/p" || URL("teebot") != "" {
		t.Error("URL")
	}
}

// playBattlecube plays one game of battlecube with cfg between the agents
// New makes from names and returns it with its trace of actions.
func playBattlecube(t *testing.T, cfg string, names ...string) (env.Env, []int32) {
	t.Helper()
	newAgent := func(name string, spec *env.Spec) (env.Agent, error) { return agents.New("battlecube", name, spec) }
	return testutil.PlayNamed(t, "battlecube", cfg, newAgent, names, 5, func(seat int) uint64 { return uint64(100 + seat) })
}

// startNodeBot starts the sample node bot and returns its URL; it skips
// the test when node is missing.
func startNodeBot(t *testing.T) string {
	t.Helper()
	return testutil.StartNodeBot(t, filepath.Join("..", "examples", "battlecube-node", "bot.js"))
}

func TestNodeSampleBotPlays(t *testing.T) {
	url := startNodeBot(t)
	for _, cfg := range []string{`{"players":3,"edge":6,"max_ticks":60}`, `{"players":3,"edge":6,"max_ticks":60,"tasks_per_tick":3}`} {
		e, _ := playBattlecube(t, cfg, url, "teebot", "dumb")
		g := e.(*battlecube.Game)
		if g.Invalid(0) != 0 {
			t.Errorf("%s: the node bot sent %d rejected replies", cfg, g.Invalid(0))
		}
		if p := g.Player(0); p.Lost && p.Cause == battlecube.CauseConnection {
			t.Errorf("%s: the node bot lost by connection error", cfg)
		}
	}
}

func TestHTTPBotInAPoolOverlapsWithMoreWorkers(t *testing.T) {
	// Every reply takes 200 ms. With one worker per env the waits of the
	// 8 envs overlap: the bot server sees several requests at once. (It
	// counts them rather than timing the step, so a loaded machine cannot
	// fail the test.)
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		io.ReadAll(r.Body)
		time.Sleep(200 * time.Millisecond)
		io.WriteString(w, `[{"task":"NOOP"}]`)
	}))
	defer srv.Close()
	const envs = 8
	p, err := vecenv.New(vecenv.Config{
		Game:         "battlecube",
		GameConfig:   []byte(`{"players":2,"max_ticks":50}`),
		NumEnvs:      envs,
		Workers:      envs,
		Seed:         1,
		LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{
			1: func(spec *env.Spec) (env.Agent, error) { return agents.New(spec.Game, srv.URL, spec) },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := p.Step(make([]int32, p.Rows())); err != nil {
		t.Fatal(err)
	}
	if got := most.Load(); got < 2 {
		t.Errorf("at most %d request in flight at once: the bots' waits did not overlap", got)
	}
}
