package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestPortalBomberPlay(t *testing.T) {
	args := []string{"play", "portalbomber", "--agents", "greedy,practice", "--seed", "3", "--games", "4", "--json"}
	a := runTwice(t, args...)
	lines := strings.Split(strings.TrimSpace(a), "\n")
	if len(lines) != 5 || !strings.Contains(lines[4], `"summary":true`) {
		t.Fatalf("want 4 games and a summary:\n%s", a)
	}
	var res struct {
		Game   string `json:"game"`
		Rounds int    `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &res); err != nil || res.Game != "portalbomber" || res.Rounds <= 0 || res.Rounds > 300 {
		t.Errorf("first game %+v, err %v:\n%s", res, err, lines[0])
	}
	testutil.WantContains(t, "result", lines[0], `"agent":"greedy"`, `"agent":"practice"`, `"coins":`, `"bomb_pierce":`)
}

func TestPortalBomberCommands(t *testing.T) {
	stdout, _, code := runCLI(t, "", "rules", "portalbomber")
	if code != 0 || !strings.Contains(stdout, "portal") || !strings.Contains(stdout, "buy_block") {
		t.Errorf("rules: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "", "rules", "portalbomber/variant")
	if code != 0 || !strings.Contains(stdout, "buy 00") {
		t.Errorf("rules variant: exit %d\n%s", code, stdout)
	}
	stdout, stderr, code := runCLI(t, "", "play", "portalbomber", "--seed", "1", "--max-rounds", "3", "--pretty", "--delay", "0")
	if code != 0 || strings.Count(stdout, "\x1b[H\x1b[2J") != 4 || !strings.Contains(stdout, "#") {
		t.Errorf("pretty: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	stdout, stderr, code = runCLI(t, "", "play", "portalbomber/variant", "--agents", "greedy,random", "--seed", "2", "--json")
	if code != 0 || !strings.Contains(stdout, `"game":"portalbomber/variant"`) {
		t.Errorf("variant: exit %d %s\n%s", code, stderr, stdout)
	}
}

func TestPortalBomberScenario(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.json")
	os.WriteFile(f, []byte(`{"game":"portalbomber","config":{"soft_density":0},"rounds":[["b",""],["",""],["",""]]}`), 0o644)
	stdout, stderr, code := runCLI(t, "", "scenario", f)
	if code != 0 || strings.Count(stdout, "\n") != 3 || !strings.Contains(stdout, `"bombMap":{"1,1":{"owner":0,"tick":4}}`) {
		t.Errorf("exit %d %s\n%s", code, stderr, stdout)
	}
}
