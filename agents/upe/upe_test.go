package upe

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/portalbomber"
)

// Timing in these tests: a client's move clock must outlast a loaded
// machine's latency (the race detector, other packages' tests), or a player
// that answers at once still times out; and searchers that must arrive in
// order are spaced well apart.
const (
	testClock = 1500 * time.Millisecond
	searchGap = 200 * time.Millisecond
)

// state is the part of the original's state JSON the tests read.
type state struct {
	GameID      string `json:"gameID"`
	PlayerID    string `json:"playerID"`
	State       string `json:"state"`
	BoardSize   int    `json:"boardSize"`
	PlayerIndex int    `json:"playerIndex"`
	MoveNumber  int    `json:"moveNumber"`
	Player      struct {
		Alive bool `json:"alive"`
	} `json:"player"`
	Opponent struct {
		Alive bool `json:"alive"`
	} `json:"opponent"`
}

// reply is a status and body.
type reply struct {
	status int
	body   []byte
}

// post sends a JSON body and returns the status and body.
func post(t *testing.T, ctx context.Context, url string, body any) reply {
	t.Helper()
	return postVia(t, ctx, http.DefaultClient, url, body)
}

// postVia sends a JSON body with client and returns the status and body:
// a zero reply, and a test error unless ctx is done, when the request
// fails.
func postVia(t *testing.T, ctx context.Context, client *http.Client, url string, body any) reply {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			t.Errorf("POST %s: %v", url, err)
		}
		return reply{}
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, out}
}

// decode reads a state (a zero state and a test error if r is none).
func decode(t *testing.T, r reply) state {
	t.Helper()
	var s state
	if r.status != http.StatusOK || json.Unmarshal(r.body, &s) != nil || s.GameID == "" {
		t.Errorf("want a state, got %d %s", r.status, r.body)
	}
	return s
}

func newHosted(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	s, err := NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/games/", s)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts.URL
}

func submit(t *testing.T, base string, s state, devkey string, move any) reply {
	t.Helper()
	body := map[string]any{"devkey": devkey, "playerID": s.PlayerID}
	if move != nil {
		body["move"] = move
	}
	return post(t, t.Context(), base+"/api/games/submit/"+s.GameID, body)
}

const key = "581cef76756322705301183e"

// A practice game: the client bombs its start cell and waits (the Go
// sample's suicide bot, spec S1); the practice bot never bombs, so the
// client dies at the end of round 5 and the final state says so.
func TestPracticeSuicide(t *testing.T) {
	_, base := newHosted(t, Options{Timeout: 5 * time.Second})
	s := decode(t, post(t, t.Context(), base+"/api/games/practice", map[string]string{"devkey": key, "username": "me"}))
	if s.PlayerIndex != 0 || s.MoveNumber != 0 || s.BoardSize != 11 || s.State != "in progress" {
		t.Fatalf("first state: %+v", s)
	}
	move := "b"
	for n := 0; s.State == "in progress"; n++ {
		if n > 600 {
			t.Fatal("the game did not end")
		}
		s = decode(t, submit(t, base, s, key, move))
		move = ""
	}
	if s.State != "complete" || s.Player.Alive || !s.Opponent.Alive || s.MoveNumber != 10 {
		t.Fatalf("final state: %+v", s)
	}
	// The game is forgotten.
	if r := submit(t, base, s, key, ""); r.status != http.StatusOK || string(r.body) != `"`+GameUndefined+`"` {
		t.Fatalf("submit after the end: %d %s", r.status, r.body)
	}
}

// Garbage moves use up the turn; refused requests change nothing.
func TestGarbageAndRefusals(t *testing.T) {
	_, base := newHosted(t, Options{Timeout: 5 * time.Second, PracticeDelay: 300 * time.Millisecond})
	s := decode(t, post(t, t.Context(), base+"/api/games/practice", map[string]string{"devkey": key}))
	for i, m := range []any{"x", nil, 5, " b", []string{"b"}, "buy 00"} {
		before := s.MoveNumber
		s = decode(t, submit(t, base, s, key, m))
		if s.MoveNumber <= before || s.State != "in progress" {
			t.Fatalf("move %d (%v): moveNumber %d → %d", i, m, before, s.MoveNumber)
		}
	}
	// Out of turn: a second submit while the first is held.
	held := make(chan state, 1)
	go func() {
		held <- decode(t, submit(t, base, s, key, ""))
	}()
	time.Sleep(100 * time.Millisecond)
	if r := submit(t, base, s, key, "b"); r.status != http.StatusOK || string(r.body) != `{"err":"Not your turn."}` {
		t.Fatalf("out of turn: %d %s", r.status, r.body)
	}
	s = <-held
	for _, c := range []struct {
		path string
		body map[string]any
		code int
		want string
	}{
		{"/api/games/submit/nonsense", map[string]any{"devkey": key}, 400, "Game is invalid"},
		{"/api/games/submit/0123456789abcdef01234567", map[string]any{"devkey": key, "move": ""}, 200, GameUndefined},
		{"/api/games/submit/" + s.GameID, map[string]any{"devkey": key, "playerID": "0123456789abcdef01234567", "move": ""}, 400, "no player"},
		{"/api/games/submit/" + s.GameID, map[string]any{"devkey": "other", "playerID": s.PlayerID, "move": ""}, 400, "no player"},
		{"/api/games/practice", map[string]any{"username": "me"}, 400, "Account ID is invalid"},
		{"/api/games/nothing", map[string]any{}, 404, "no such route"},
	} {
		r := post(t, t.Context(), base+c.path, c.body)
		if r.status != c.code || !strings.Contains(string(r.body), c.want) {
			t.Errorf("%s: got %d %s, want %d %q", c.path, r.status, r.body, c.code, c.want)
		}
	}
	resp, err := http.Get(base + "/api/games/search")
	if err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET search: %v %v", resp, err)
	}
	// The game still goes on.
	if decode(t, submit(t, base, s, key, "")).State != "in progress" {
		t.Fatal("the game did not go on after the refusals")
	}
}

// search pairs two devkeys, the first as player 0; a client that stops
// moving loses once 3 moves were made, and the other's held request gets
// the final state, both alive.
func TestSearchTimeoutLoses(t *testing.T) {
	_, base := newHosted(t, Options{Timeout: testClock})
	a := make(chan state, 1)
	go func() {
		a <- decode(t, post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": "aaaaaaaaaaaaaaaaaaaaaaaa"}))
	}()
	time.Sleep(searchGap)
	b := make(chan state, 1)
	go func() {
		b <- decode(t, post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": "bbbbbbbbbbbbbbbbbbbbbbbb"}))
	}()
	sa := <-a
	if sa.PlayerIndex != 0 {
		t.Fatalf("first searcher: %+v", sa)
	}
	// A moves; B's search is answered only now.
	held := make(chan state, 1)
	go func() {
		held <- decode(t, submit(t, base, sa, "aaaaaaaaaaaaaaaaaaaaaaaa", ""))
	}()
	sb := <-b
	if sb.PlayerIndex != 1 || sb.MoveNumber != 1 || sb.GameID != sa.GameID {
		t.Fatalf("second searcher: %+v", sb)
	}
	sb = decode(t, submit(t, base, sb, "bbbbbbbbbbbbbbbbbbbbbbbb", "")) // B moves twice (round boundary)
	if sb.MoveNumber != 2 {
		t.Fatalf("B's second turn: %+v", sb)
	}
	heldB := make(chan state, 1)
	go func() { heldB <- decode(t, submit(t, base, sb, "bbbbbbbbbbbbbbbbbbbbbbbb", "")) }()
	sa = <-held
	if sa.MoveNumber != 3 {
		t.Fatalf("A's turn: %+v", sa)
	}
	sa = decode(t, submit(t, base, sa, "aaaaaaaaaaaaaaaaaaaaaaaa", ""))
	// A moves twice; then B, told it is its turn, stops: B loses.
	sa = decode(t, submit(t, base, sa, "aaaaaaaaaaaaaaaaaaaaaaaa", ""))
	if sa.State != "complete" || !sa.Player.Alive || !sa.Opponent.Alive || sa.MoveNumber != 5 {
		t.Fatalf("after B's timeout: %+v", sa)
	}
	if sb = <-heldB; sb.State != "in progress" || sb.MoveNumber != 5 {
		t.Fatalf("B's last state: %+v", sb)
	}
}

// A player 0 that never moves aborts the game; player 1's held search gets
// the "aborted" state. A search replaced by the same devkey gets 409, and a
// searcher that goes away is forgotten.
func TestSearchAbortAndReplace(t *testing.T) {
	_, base := newHosted(t, Options{Timeout: testClock})
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan struct{})
	go func() { // goes away
		post(t, ctx, base+"/api/games/search", map[string]string{"devkey": "cccccccccccccccccccccccc"})
		close(gone)
	}()
	time.Sleep(searchGap)
	cancel()
	<-gone
	time.Sleep(searchGap)
	old := make(chan int, 1)
	go func() {
		old <- post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": "aaaaaaaaaaaaaaaaaaaaaaaa"}).status
	}()
	time.Sleep(searchGap)
	a := make(chan state, 1)
	go func() {
		a <- decode(t, post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": "aaaaaaaaaaaaaaaaaaaaaaaa"}))
	}()
	if st := <-old; st != http.StatusConflict {
		t.Fatalf("replaced search: %d", st)
	}
	sb := decode(t, post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": "bbbbbbbbbbbbbbbbbbbbbbbb"}))
	sa := <-a
	if sa.PlayerIndex != 0 || sb.PlayerIndex != 1 || sb.State != "aborted" || sb.MoveNumber != 0 {
		t.Fatalf("a %+v b %+v", sa, sb)
	}
}

// Close answers held requests.
func TestCloseAnswersHeld(t *testing.T) {
	s, base := newHosted(t, Options{})
	got := make(chan int, 1)
	go func() {
		got <- post(t, t.Context(), base+"/api/games/search", map[string]string{"devkey": key}).status
	}()
	time.Sleep(searchGap)
	s.Close()
	if st := <-got; st != http.StatusServiceUnavailable {
		t.Fatalf("held search on close: %d", st)
	}
}

// listenSeat listens on a free loopback port with the time-out and returns
// the server and a portalbomber seat it serves, made as agents.New makes
// it; both are closed when the test ends.
func listenSeat(t *testing.T, timeout time.Duration) (*Server, *Seat) {
	t.Helper()
	srv, err := Listen("127.0.0.1:0", Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	seat, err := agents.New("portalbomber", Scheme+srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { seat.(*Seat).Close() })
	return srv, seat.(*Seat)
}

// A Seat plays a match botarena runs: the client's moves arrive through
// Act, a timeout ends the game, Close answers the held request.
func TestSeatListen(t *testing.T) {
	srv, seat := listenSeat(t, testClock)
	g, _ := portalbomber.New(portalbomber.DefaultConfig())
	g.Reset(3)
	other, _ := agents.New("portalbomber", "greedy", g.Spec())
	players := []env.Agent{seat, other}
	for i, a := range players {
		a.Reset(g, i, 1)
	}
	base := "http://" + srv.Addr()
	final := make(chan state, 1)
	go func() {
		s := decode(t, post(t, t.Context(), base+"/api/games/practice", map[string]string{"devkey": key}))
		if s.GameID != g.GameID() || s.PlayerIndex != 0 {
			t.Errorf("seated: %+v", s)
		}
		for range 3 {
			s = decode(t, submit(t, base, s, key, "tr"))
		}
		final <- s // then stop answering
	}()
	var (
		actions = make([]int32, 2)
		rew     = make([]float32, 2)
		term    = make([]bool, 2)
		trunc   = make([]bool, 2)
	)
	for steps := 0; !g.Done(); steps++ {
		if steps > 100 {
			t.Fatal("no timeout")
		}
		for i, a := range players {
			actions[i] = a.Act(g, i)
		}
		g.Step(actions, rew, term, trunc)
	}
	if w, _ := g.Outcome(); w != 1 || !g.Player(0).Alive {
		t.Fatalf("timeout outcome: winner %d, moveNumber %d", w, g.MoveNumber())
	}
	s := <-final
	if s.State != "in progress" || s.MoveNumber < 3 {
		t.Fatalf("last state: %+v", s)
	}
	seat.Close()
	if r := submit(t, base, s, key, ""); string(r.body) != `"`+GameUndefined+`"` {
		t.Fatalf("after close: %d %s", r.status, r.body)
	}
}
