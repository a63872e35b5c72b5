package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGameFlagsSetTheirGamesConfig(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "play", "testgame", "--seats", "3", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Leaderboard []json.RawMessage `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Leaderboard) != 3 {
		t.Errorf("--seats 3 gave %d seats (%v): %s", len(res.Leaderboard), err, stdout)
	}
	needBomberman(t)
	_, stderr, code = runCLI(t, "", "play", "bomberman", "--seats", "3")
	if code == 0 || !strings.Contains(stderr, "--seats applies to ") || !strings.Contains(stderr, "testgame, not bomberman") {
		t.Errorf("a flag of another game: exit %d, %q", code, stderr)
	}
}

func TestGamesBatchPrintsEachResultAndASummary(t *testing.T) {
	needBomberman(t)
	stdout, stderr, code := runCLI(t, "", "play", "bomberman/2p", "--agents", "reference,random", "--games", "3", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 results and a summary, got %d lines:\n%s", len(lines), stdout)
	}
	for i, line := range lines[:3] {
		var r struct{ Seed uint64 }
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Seed != uint64(5+i) {
			t.Errorf("game %d: seed %d (%v), want %d", i, r.Seed, err, 5+i)
		}
	}
	var sum struct {
		Summary bool           `json:"summary"`
		Games   int            `json:"games"`
		Wins    map[string]int `json:"wins"`
		Draws   int            `json:"draws"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &sum); err != nil || !sum.Summary || sum.Games != 3 {
		t.Fatalf("summary %q: %v", lines[3], err)
	}
	if total := sum.Wins["reference"] + sum.Wins["random"] + sum.Draws; total != 3 {
		t.Errorf("wins and draws add up to %d, want 3: %+v", total, sum)
	}
	if !strings.Contains(lines[3], `"champion":"`) || !strings.Contains(lines[3], `"scores":{`) {
		t.Errorf("summary lacks champion or scores: %s", lines[3])
	}
	stdout, _, code = runCLI(t, "", "play", "bomberman/2p", "--games", "2", "--seed", "5")
	if code != 0 || !strings.Contains(stdout, "2 games") || !strings.Contains(stdout, "WINS") {
		t.Errorf("text summary: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := runCLI(t, "", "play", "bomberman", "--games", "0"); code == 0 || !strings.Contains(stderr, "--games: want 1 or more") {
		t.Errorf("--games 0: exit %d, %q", code, stderr)
	}
}

func TestEventsNeedAnEventStream(t *testing.T) {
	needBomberman(t)
	_, stderr, code := runCLI(t, "", "play", "bomberman", "--events", "--max-rounds", "1")
	if code == 0 || !strings.Contains(stderr, "--events: bomberman has no event stream") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}
