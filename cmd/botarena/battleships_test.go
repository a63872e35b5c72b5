package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestBattleshipsPlay(t *testing.T) {
	args := []string{"play", "battleships", "--size", "small", "--seed", "3", "--agents", "reference,random", "--games", "3", "--json"}
	a := runTwice(t, args...)
	testutil.WantContains(t, "output", a, `"game":"battleships"`, `"agent":"reference"`, `"key":"A"`, `"shots_fired":`, `"summary":true`)
}

func TestBattleshipsReplays(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "", "play", "battleships", "--size", "small", "--seed", "2", "--agents", "reference", "--replays", dir)
	if code != 0 {
		t.Fatal(stderr)
	}
	for _, f := range []string{"Phase 2 - Round 1/state.json", "Phase 2 - Round 1/A - map.txt", "Phase 2 - Round 1/B/state.json", "Phase 2 - Round 5/A/map.txt",
		"Phase 2 - Round 1/roundInfo.json", "Phase 2 - Round 1/roundCommand.json", "Phase 2 - Round 5/roundCommand.json"} {
		if _, err := os.Stat(filepath.Join(dir, "2", f)); err != nil {
			t.Error(err)
		}
	}
	// Round 1's roundCommand.json describes round 0: both placed.
	b, err := os.ReadFile(filepath.Join(dir, "2", "Phase 2 - Round 1", "roundCommand.json"))
	if err != nil || !strings.HasPrefix(string(b), `{"Player1Move":{"SuccessfulMove":true,"CommandIssued":"PlaceShip",`) {
		t.Errorf("roundCommand.json: %s %v", b, err)
	}
	b, err = os.ReadFile(filepath.Join(dir, "2", "Phase 2 - Round 1", "roundInfo.json"))
	if err != nil || !strings.HasPrefix(string(b), `{"MapSize":7,"Round":1,"Winner":{"Author":`) {
		t.Errorf("roundInfo.json: %s %v", b, err)
	}
}

func TestBattleshipsScenarioAndRules(t *testing.T) {
	path, _ := filepath.Abs("../../env/battleships/testdata/scenario_cross_shot_kill.json")
	out, stderr, code := runCLI(t, "", "scenario", path)
	if code != 0 || strings.Count(out, "\n") != 2 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	out, _, code = runCLI(t, "", "rules", "battleships")
	if code != 0 || !strings.Contains(out, "Battleships") {
		t.Errorf("rules: %d %s", code, out)
	}
	if _, _, code := runCLI(t, "", "play", "battleships", "--size", "huge"); code == 0 {
		t.Error("--size huge accepted")
	}
}
