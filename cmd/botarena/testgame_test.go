package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/training"
	_ "github.com/botarena/botarena/internal/testgame" // the one line that links a game (docs/add-a-game.md)
)

// The tests of this file prove the path docs/add-a-game.md describes:
// internal/testgame touches nothing outside its folder, and the blank
// import above is all it takes for every command to know its agents,
// console keys, flags, leaderboard fields and training defaults.

func TestAddedGameIsListed(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "games", "testgame", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	info := parseGameInfo(t, stdout)
	if !slices.Equal(info.Agents, []string{"console", "idle", "random", "steady"}) || info.ReferenceAgent != "steady" ||
		!slices.Equal(info.TrainingOpponents, []string{"steady", "random"}) || info.AgentSummaries["steady"] != "always adds two, the most a seat can" {
		t.Errorf("agents: %v", info)
	}
	if tr := info.Training; tr == nil || !slices.Equal(tr.Channels, []int32{8}) || !slices.Equal(tr.Strides, []int32{1}) || tr.Hidden != 32 ||
		tr.ConfigJson != `{"max_rounds":3}` || tr.Gamma != 0.95 || tr.EntCoef != 0.02 {
		t.Errorf("training: %v", info.Training)
	}
	stdout, _, code = runCLI(t, "", "games", "testgame")
	for _, want := range []string{"reference     steady", "steady   always adds two", "training      conv channels [8], strides [1], hidden 32, config {\"max_rounds\":3}, gamma 0.95, ent_coef 0.02"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("games testgame lacks %q:\n%s", want, stdout)
		}
	}
}

func TestAddedGamePlays(t *testing.T) {
	// Its built-in agent, its flag (--seats) and its leaderboard field.
	stdout, stderr, code := runCLI(t, "", "play", "testgame", "--seats", "3", "--agents", "steady,random,idle", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Winner      *int `json:"winner"`
		Leaderboard []struct {
			Seat   int     `json:"seat"`
			Agent  string  `json:"agent"`
			Score  float64 `json:"score"`
			Behind *int    `json:"behind"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Leaderboard) != 3 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if top := res.Leaderboard[0]; res.Winner == nil || *res.Winner != 0 || top.Agent != "steady" || top.Score != 1+2*5 || top.Behind == nil || *top.Behind != 0 {
		t.Errorf("steady should win 11 to at most 11: %s", stdout)
	}
	if last := res.Leaderboard[2]; last.Agent != "idle" || last.Behind == nil || *last.Behind != 10 {
		t.Errorf("idle should be 10 behind: %s", stdout)
	}

	// Its console keys (t, o) and help, beside native commands (2).
	stdout, stderr, code = runCLI(t, "t\no\n2\nT\n0\n", "play", "testgame", "--agents", "console,steady", "--seed", "0", "--json")
	if code != 0 {
		t.Fatalf("console: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "Commands: 0, 1 or 2 (the points to add), o for one, t for two") {
		t.Errorf("console help missing: %s", stderr)
	}
	if !strings.Contains(stdout, `"seat":0,"agent":"console","name":"Console","score":7`) {
		t.Errorf("console seat should score 2+1+2+2+0: %s", stdout)
	}
}

func TestAddedGameKitIsOnItsEntry(t *testing.T) {
	e, err := env.Default.Lookup("testgame")
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := e.Kit.(agents.ConsoleKeys).ConsoleKeys()
	if training.Of(e).Reference != "steady" || len(e.Kit.(playFlagger).PlayFlags()) != 1 || keys["t"] != 2 {
		t.Errorf("kit = %#v", e.Kit)
	}
}
