package web

import (
	"net/http"
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
	resp, err := http.Get(ts.URL + "/api/matches/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, rounds, raw := readRecording(t, resp.Body)
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
