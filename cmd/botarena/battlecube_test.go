package main

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestBattlecubePlay(t *testing.T) {
	args := []string{"play", "battlecube", "--players", "4", "--edge", "8", "--max-ticks", "1000", "--agents", "teebot,dumb,random,idle", "--seed", "3", "--json"}
	a := runTwice(t, args...)
	testutil.WantContains(t, "result", a, `"game":"battlecube"`, `"seed":3`, `"agent":"teebot"`, `"name":"Teebot"`, `"cause":`)
}

func TestBattlecubeEvents(t *testing.T) {
	out := runOK(t, "play", "battlecube", "--players", "2", "--edge", "4", "--max-ticks", "5", "--agents", "idle", "--seed", "1", "--events")
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], `{"event":"GAME_STARTED","data":{"id":"botarena"}}`) {
		t.Errorf("first line %q", lines[0])
	}
	if strings.Count(out, `"event":"NEXT_TICK"`) == 0 || !strings.Contains(out, `"event":"GAME_ENDED"`) {
		t.Errorf("events:\n%s", out)
	}
}

func TestBattlecubeBatchAndRules(t *testing.T) {
	out, stderr, code := runCLI(t, "", "play", "battlecube", "--games", "3", "--agents", "teebot,dumb,dumb,dumb", "--seed", "1", "--json")
	if code != 0 || !strings.Contains(out, `"summary":true`) {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	out, _, code = runCLI(t, "", "rules", "battlecube")
	if code != 0 || !strings.Contains(out, "Battle³") {
		t.Errorf("rules: %d %q", code, out)
	}
}
