package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games" // every game
	"github.com/botarena/botarena/match"
)

var baseGames = []string{"bomberman", "battleships", "battlecube", "battlebots", "portalbomber"}

func newTestServer(t *testing.T, opt Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := NewServer(opt)
	if err != nil {
		t.Fatal(err)
	}
	notFound := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "next", http.StatusTeapot) })
	ts := httptest.NewServer(s.Handler(notFound))
	t.Cleanup(ts.Close)
	t.Cleanup(s.Close)
	return s, ts
}

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
	}
	return resp.StatusCode
}

func createMatch(t *testing.T, base string, req createRequest) (id string, code int, msg string) {
	t.Helper()
	body, _ := json.Marshal(req)
	resp, err := http.Post(base+"/api/matches", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		ID    string `json:"id"`
		Error string `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.ID, resp.StatusCode, out.Error
}

// readFrames reads up to n frames of an event stream.
func readFrames(t *testing.T, url string, n int) (frames []Frame, events []string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %s %s: %s", url, resp.Status, resp.Header.Get("Content-Type"), b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	event := ""
	for sc.Scan() && len(frames) < n {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := strings.TrimPrefix(line, "data: ")
			if event != "" {
				events = append(events, event)
				if event == "end" {
					return frames, events
				}
				event = ""
				continue
			}
			var f Frame
			if err := json.Unmarshal([]byte(data), &f); err != nil {
				t.Fatalf("frame %d: %v", len(frames), err)
			}
			frames = append(frames, f)
		}
	}
	return frames, events
}

func TestWebCatalog(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	var cat struct {
		Games []GameInfo `json:"games"`
	}
	if code := getJSON(t, ts.URL+"/api/catalog", &cat); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	got := map[string]GameInfo{}
	for _, g := range cat.Games {
		got[g.Name] = g
	}
	for _, name := range baseGames {
		g, ok := got[name]
		if !ok {
			t.Fatalf("catalog lacks %s: %+v", name, cat.Games)
		}
		if g.Seats < 2 || len(g.Agents) == 0 || g.Default == "" || len(g.Formats) == 0 {
			t.Errorf("%s: %+v", name, g)
		}
		for _, a := range g.Agents {
			if a == "console" {
				t.Errorf("%s offers the console agent", name)
			}
		}
	}
}

func TestWebPageAndPassThrough(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for _, path := range []string{"/", "/viewer/app.js", "/viewer/style.css"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(b) == 0 {
			t.Errorf("GET %s: %s, %d bytes", path, resp.Status, len(b))
		}
	}
	resp, err := http.Get(ts.URL + "/api/games/search")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot {
		t.Errorf("GET /api/games/search: %s, want the next handler's 418", resp.Status)
	}
}

func TestWebMatchEachGame(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for _, game := range baseGames {
		t.Run(game, func(t *testing.T) {
			id, code, msg := createMatch(t, ts.URL, createRequest{Game: game, Seed: 7})
			if code != http.StatusCreated {
				t.Fatalf("create: %d %s", code, msg)
			}
			frames, _ := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0&seat=0", 4)
			if len(frames) != 4 {
				t.Fatalf("got %d frames", len(frames))
			}
			for i, f := range frames {
				if f.Round != i || f.Game != game || len(f.State) == 0 || len(f.View) == 0 || f.Seat != 0 || len(f.Result.Leaderboard) != f.Seats {
					t.Fatalf("frame %d: round %d game %s seat %d, %d state bytes, %d view bytes, %d standings", i, f.Round, f.Game, f.Seat, len(f.State), len(f.View), len(f.Result.Leaderboard))
				}
				if f.State[0] != '{' && f.State[0] != '"' {
					t.Fatalf("state is neither JSON object nor string: %.40s", f.State)
				}
			}
			// A frame fetched alone, and a stream from round 2, play the same match.
			var f Frame
			if code := getJSON(t, ts.URL+"/api/matches/"+id+"/frame?round=3&seat=0", &f); code != http.StatusOK {
				t.Fatalf("frame: %d", code)
			}
			if !bytes.Equal(f.State, frames[3].State) || !bytes.Equal(f.View, frames[3].View) {
				t.Errorf("frame?round=3 differs from the stream's round 3")
			}
			later, _ := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0&from=2", 1)
			if len(later) != 1 || later[0].Round != 2 || !bytes.Equal(later[0].State, frames[2].State) || later[0].View != nil {
				t.Errorf("stream from 2 differs from the stream's round 2")
			}
			// The record is a recording of the rounds played so far.
			h, rounds, result := getRecording(t, ts.URL, id)
			if h.Game != game || h.Seed != 7 || len(h.Agents) != frames[0].Seats {
				t.Errorf("recording header %+v", h)
			}
			if len(rounds) < 4 || rounds[0].Actions == nil || result == nil {
				t.Errorf("recording of %d rounds, result %s; want at least 4 and a result", len(rounds), result)
			}
			for i, r := range rounds {
				if r.Round != i {
					t.Fatalf("recording line %d is round %d", i+1, r.Round)
				}
			}
		})
	}
}

// getRecording downloads the recording of match id from the server at url.
func getRecording(t *testing.T, url, id string) (match.RecordingHeader, []match.RecordedRound, json.RawMessage) {
	t.Helper()
	resp, err := http.Get(url + "/api/matches/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rec, err := match.ReadRecording(resp.Body, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Header, rec.Rounds, rec.Result
}

func TestWebMatchPlaysToTheEnd(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxRounds: 30})
	id, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots", Agents: []string{"random", "random"}, Seed: 1})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, msg)
	}
	frames, events := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0", 1000)
	if len(frames) == 0 || !frames[len(frames)-1].Done || len(frames) > 31 {
		t.Fatalf("%d frames, last done=%v", len(frames), len(frames) > 0 && frames[len(frames)-1].Done)
	}
	if len(events) != 1 || events[0] != "end" {
		t.Errorf("events %v, want [end]", events)
	}
}

func TestWebLimits(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxMatches: 2})
	for i := range 2 {
		if _, code, msg := createMatch(t, ts.URL, createRequest{Game: "bomberman", Seed: Seed(i)}); code != http.StatusCreated {
			t.Fatalf("match %d: %d %s", i, code, msg)
		}
	}
	_, code, msg := createMatch(t, ts.URL, createRequest{Game: "bomberman"})
	if code != http.StatusTooManyRequests || !strings.Contains(msg, "at most 2") {
		t.Errorf("third match: %d %q, want 429 naming the limit", code, msg)
	}
	for _, c := range []struct {
		req  createRequest
		code int
	}{
		{createRequest{Game: "nope"}, http.StatusNotFound},
		{createRequest{Game: "battlebots", Agents: []string{"console"}}, http.StatusBadRequest},
		{createRequest{Game: "battlebots", Agents: []string{"a", "b", "c"}}, http.StatusBadRequest},
	} {
		if _, code, msg := createMatch(t, ts.URL, c.req); code != c.code {
			t.Errorf("%+v: %d %s, want %d", c.req, code, msg, c.code)
		}
	}
	if code := getJSON(t, ts.URL+"/api/matches/999/frame", nil); code != http.StatusNotFound {
		t.Errorf("unknown match: %d", code)
	}
}

func TestWebLimitsFreeIdleMatches(t *testing.T) {
	s, ts := newTestServer(t, Options{MaxMatches: 1})
	if _, code, _ := createMatch(t, ts.URL, createRequest{Game: "battlebots"}); code != http.StatusCreated {
		t.Fatal(code)
	}
	s.opt.IdleTimeout = 1 // every match without a stream is idle now
	if _, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots"}); code != http.StatusCreated {
		t.Fatalf("after the idle timeout: %d %s", code, msg)
	}
}

func TestWebAllGamesAndPresets(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxMatches: 100})
	for _, game := range env.Default.Names() {
		id, code, msg := createMatch(t, ts.URL, createRequest{Game: game})
		if code != http.StatusCreated {
			t.Fatalf("%s: %d %s", game, code, msg)
		}
		var f Frame
		if code := getJSON(t, ts.URL+"/api/matches/"+id+"/frame?round=1", &f); code != http.StatusOK || f.Round != 1 {
			t.Errorf("%s: %d round %d", game, code, f.Round)
		}
		if code := getJSON(t, ts.URL+"/api/matches/"+id+fmt.Sprintf("/frame?seat=%d", f.Seats), nil); code != http.StatusBadRequest {
			t.Errorf("%s: seat out of range: %d", game, code)
		}
	}
}
