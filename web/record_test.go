package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// TestDownloadedRecordingEndsWithTheMatchRunnersResult: a live match's
// recording ends with match.Result as play --json prints it, with each
// seat's agent, and its actions by kind (nop does nothing every round;
// huggy walks up to it and fires its EMP).
func TestDownloadedRecordingEndsWithTheMatchRunnersResult(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxRounds: 50})
	id, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots", Agents: []string{"huggy", "nop"}, Seed: 3})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, msg)
	}
	if frames, _ := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0", 1000); len(frames) == 0 || !frames[len(frames)-1].Done {
		t.Fatal("the match did not end")
	}
	_, rounds, raw := getRecording(t, ts.URL, id)
	res, err := match.ParseResult(raw)
	if err != nil {
		t.Fatal(err)
	}
	if res.Game != "battlebots" || res.Seed != 3 || res.Rounds != len(rounds)-1 || res.Winner != 1 || len(res.Leaderboard) != 2 {
		t.Fatalf("result %+v after %d rounds; want nop (seat 1) to win", res, len(rounds)-1)
	}
	for _, s := range res.Leaderboard {
		want := map[string]float64{"huggy": 0, "nop": float64(res.Rounds)}[s.Agent]
		if s.Actions.Get("nothing") != want || s.Actions.Get("move")+s.Actions.Get("emp")+s.Actions.Get("nothing") != float64(res.Rounds) {
			t.Errorf("seat %d (%s): actions %s, want %v nothing of %d rounds", s.Seat, s.Agent, s.Actions, want, res.Rounds)
		}
	}
}

// TestFramesCarryPlaysResult: a frame's result is match.Result in play
// --json's shape (snake_case, a null winner until someone wins), and the
// page reads it: the scores table and the log name the winner.
func TestFramesCarryPlaysResult(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxRounds: 50})
	id, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots", Agents: []string{"huggy", "nop"}, Seed: 3})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, msg)
	}
	var first, last map[string]any
	getJSON(t, ts.URL+"/api/matches/"+id+"/frame?round=0", &first)
	getJSON(t, ts.URL+"/api/matches/"+id+"/frame?round=16", &last)
	r0, r16 := first["result"].(map[string]any), last["result"].(map[string]any)
	top := r16["leaderboard"].([]any)[0].(map[string]any)
	if r0["winner"] != nil || r16["winner"] != float64(1) || top["agent"] != "nop" || top["rank"] != float64(1) || last["done"] != true {
		t.Errorf("round 0's result %v, round 16's %v (done %v); want no winner, then nop (seat 1)", r0, r16, last["done"])
	}
	bin := chromium()
	if bin == "" {
		t.Skip("no Chromium for the page's part")
	}
	dom := headless(t, bin, ts.URL+"/?game=battlebots&agent0=huggy&agent1=nop&autoplay=1&speed=50&seed=3", "--dump-dom")
	for _, want := range []string{`<td colspan="4">seat 1 wins</td>`, "<td>bot2</td><td>10</td>", `<td class="dead">bot1</td>`, "over: seat 1 wins"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %q: %s", want, statusLine(dom))
		}
	}
}
