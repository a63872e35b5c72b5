package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

func needBomberman(t *testing.T) {
	t.Helper()
	if _, err := env.Default.Lookup("bomberman"); err != nil {
		t.Skip("bomberman is not registered in this build")
	}
}

func TestBombermanPlay(t *testing.T) {
	needBomberman(t)
	args := []string{"play", "bomberman", "--seed", "5", "--agents", "reference,random,reference,idle", "--json"}
	a := runTwice(t, args...)
	testutil.WantContains(t, "result", a, `"game":"bomberman"`, `"seed":5`, `"agent":"reference"`, `"name":"Reference 1"`, `"key":"A"`, `"points":`, `"name":"Idle"`)
}

// TestBombermanPlaySaysHowEachPlayerDied: play's result says how each
// seat ended, in its JSON ("death" after "alive") and in text.
func TestBombermanPlaySaysHowEachPlayerDied(t *testing.T) {
	needBomberman(t)
	out := runOK(t, "play", "bomberman/2p", "--seed", "5", "--agents", "hunter,reference", "--json")
	testutil.WantContains(t, "result", out, `"alive":true,"death":"alive"`, `"alive":false,"death":"opponent's bomb"`)
	out = runOK(t, "play", "bomberman/2p", "--seed", "5", "--agents", "hunter,reference")
	testutil.WantContains(t, "text", out, "seat 1 (reference) died: opponent's bomb\n")
}

func TestBombermanReplays(t *testing.T) {
	needBomberman(t)
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "", "play", "bomberman", "--players", "2", "--seed", "2", "--max-rounds", "2", "--replays", dir)
	if code != 0 {
		t.Fatal(stderr)
	}
	var want []string
	for _, r := range []string{"0", "1", "2"} {
		for _, f := range []string{"map.txt", "roundInfo.json", "state.json"} {
			want = append(want, "2/"+r+"/"+f)
		}
	}
	if got := listReplay(t, dir); !slices.Equal(got, want) {
		t.Errorf("replay files = %v, want %v", got, want)
	}
	m, _ := os.ReadFile(filepath.Join(dir, "2/0/map.txt"))
	if !strings.Contains(string(m), "Reference") {
		t.Errorf("2/0/map.txt does not name the players:\n%s", m)
	}
}

func TestBombermanCommands(t *testing.T) {
	needBomberman(t)
	stdout, _, code := runCLI(t, "", "games")
	if code != 0 || !strings.Contains(stdout, "bomberman") || !strings.Contains(stdout, "planes uint8[") {
		t.Errorf("games:\n%s", stdout)
	}
	stdout, _, code = runCLI(t, "", "rules", "bomberman")
	if code != 0 || strings.TrimSpace(stdout) == "" {
		t.Errorf("rules bomberman: exit %d, %q", code, stdout)
	}
	_, stderr, _ := runCLI(t, "", "play", "bomberman", "--agents", "reference,random")
	if !strings.Contains(stderr, "--agents: got 2 names, want 4") {
		t.Errorf("wrong seat count: %q", stderr)
	}
	_, stderr, _ = runCLI(t, "", "play", "bomberman", "--agents", "smart")
	if !strings.Contains(stderr, `unknown agent "smart" for bomberman (valid: console, harvester, hunter, idle, planner, random, reference`) {
		t.Errorf("unknown agent: %q", stderr)
	}
	stdout, stderr, code = runCLI(t, "", "play", "bomberman", "--seed", "1", "--max-rounds", "3", "--pretty", "--delay", "0")
	if code != 0 || strings.Count(stdout, "\x1b[H\x1b[2J") != 4 {
		t.Errorf("pretty: exit %d, %d redraws, stderr %q", code, strings.Count(stdout, "\x1b[H\x1b[2J"), stderr)
	}
}

func TestBombermanBench(t *testing.T) {
	needBomberman(t)
	stdout, stderr, code := runCLI(t, "", "bench", "--envs", "2,3", "--workers", "1", "--seconds", "0.05", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON line per configuration, got %q", stdout)
	}
	for _, key := range []string{`"game":"bomberman"`, `"envs":2`, `"workers":1`, `"agent_steps_per_sec":`, `"env_steps_per_sec":`, `"obs_bytes_per_agent":5331`, `"allocs_per_step":`} {
		if !strings.Contains(lines[0], key) {
			t.Errorf("%s lacks %s", lines[0], key)
		}
	}
	stdout, _, code = runCLI(t, "", "bench", "--envs", "2", "--seconds", "0.05", "--encode")
	if code != 0 || !strings.Contains(stdout, "agent-steps/s") || !strings.Contains(stdout, "encode ms") {
		t.Errorf("table: exit %d\n%s", code, stdout)
	}
	for _, bad := range [][]string{
		{"bench", "--envs", "0"},
		{"bench", "--workers", "x"},
		{"bench", "--seconds", "0"},
		{"bench", "--game", "chess"},
	} {
		if _, stderr, code := runCLI(t, "", bad...); code == 0 || !strings.HasPrefix(stderr, "botarena: ") {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}
