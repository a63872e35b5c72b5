package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestBattlebotsPlay(t *testing.T) {
	args := []string{"play", "battlebots", "--agents", "sniper,huggy", "--seed", "3", "--json"}
	out := runOK(t, args...)
	testutil.WantContains(t, "result", out, `"game":"battlebots"`, `"winner":0`, `"agent":"sniper"`, `"hp":`, `"x":`)
	out = runOK(t, "play", "battlebots", "--agents", "huggy,nop", "--seed", "3", "--pretty", "--delay", "0")
	if !strings.Contains(out, "round 16") || !strings.Contains(out, "R round=16") {
		t.Errorf("pretty output lacks the last round:\n%.400s", out[max(0, len(out)-400):])
	}
}

func TestBattlebotsRulesAndScenario(t *testing.T) {
	out, _, code := runCLI(t, "", "rules", "battlebots")
	if code != 0 || !strings.Contains(out, "9×9") || !strings.Contains(out, "splashes twice") {
		t.Errorf("rules:\n%s", out)
	}
	file := filepath.Join("..", "..", "env", "battlebots", "testdata", "placed_mine_and_emp.json")
	out = runOK(t, "scenario", file)
	golden, _ := os.ReadFile(strings.TrimSuffix(file, ".json") + ".golden")
	if out != string(golden) {
		t.Errorf("scenario output:\n%s\nwant:\n%s", out, golden)
	}
	var last string
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || !strings.HasSuffix(last, "Y hp=7\nX hp=8\n") {
		t.Errorf("last state %q (%v)", last, err)
	}
}
