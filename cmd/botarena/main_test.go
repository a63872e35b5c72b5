package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// runCLI runs the command line in-process.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// runOK runs the CLI with args and no input, fails t unless it exits 0,
// and returns its stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := runOKIn(t, "", args...)
	return out
}

// runOKIn runs the CLI with args and stdin, fails t unless it exits 0,
// and returns its stdout and stderr.
func runOKIn(t *testing.T, stdin string, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, code := runCLI(t, stdin, args...)
	if code != 0 {
		t.Fatalf("botarena %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout, stderr
}

// runTwice runs the CLI twice with args (a seeded play), failing t unless
// it exits 0 and prints the same both times, and returns what it printed.
func runTwice(t *testing.T, args ...string) string {
	t.Helper()
	a := runOK(t, args...)
	if b := runOK(t, args...); a != b {
		t.Errorf("botarena %s: same seed, different output:\n%s\n%s", strings.Join(args, " "), a, b)
	}
	return a
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"game\": \"testgame\",\n  \"rounds\": [[\"1\" \"2\"]]\n}"), 0o644)
	badState := filepath.Join(dir, "state.json")
	os.WriteFile(badState, []byte(`{"round": 1, "scores": [1]}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string // substring of the one stderr line
	}{
		{"unknown_command", []string{"nope"}, `unknown command "nope"`},
		{"unknown_game", []string{"play", "nogame"}, `unknown game "nogame" (valid: `},
		{"rules_unknown_game", []string{"rules", "nogame"}, `unknown game "nogame"`},
		{"rules_no_game", []string{"rules"}, "want one GAME argument, got 0"},
		{"unknown_agent", []string{"play", "testgame", "--agents", "nobody"}, `unknown agent "nobody" for testgame (valid: console, idle, random`},
		{"wrong_seat_count", []string{"play", "testgame", "--agents", "idle,idle,idle"}, "--agents: got 3 names, want 2"},
		{"bad_players", []string{"play", "testgame", "--players", "9"}, "testgame: config players: want 2–4, got 9"},
		{"negative_max_rounds", []string{"play", "testgame", "--max-rounds", "-1"}, "--max-rounds: want 0 or more"},
		{"bad_config", []string{"play", "testgame", "--config", "[1]"}, "--config: want a JSON object"},
		{"unknown_config_field", []string{"play", "testgame", "--config", `{"x":1}`}, `unknown field "x"`},
		{"bad_flag", []string{"play", "testgame", "--seed", "x"}, `invalid argument "x"`},
		{"missing_scenario", []string{"scenario", filepath.Join(dir, "missing.json")}, "no such file"},
		{"malformed_scenario", []string{"scenario", bad}, "bad.json: scenario: line 3, column"},
		{"missing_state", []string{"play", "testgame", "--state", filepath.Join(dir, "nostate")}, "--state: open"},
		{"malformed_state", []string{"play", "testgame", "--state", badState}, "state.json: testgame: got 1 scores, want 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tc.args...)
			if code == 0 {
				t.Fatalf("exit status 0, want non-zero; stdout %q", stdout)
			}
			if !strings.HasPrefix(stderr, "botarena: ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr = %q, want one line starting with \"botarena: \"", stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.want)
			}
		})
	}
}

func TestGames(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "games")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "GAME") || !strings.Contains(stdout, "testgame  ") || !strings.Contains(stdout, "scores int32[2]") {
		t.Errorf("games:\n%s", stdout)
	}
	stdout, _, code = runCLI(t, "", "games", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		info := parseGameInfo(t, line)
		if info.Name == "testgame" {
			found = true
			spec := info.Spec
			if spec.Seats != 2 || spec.Actions != 3 || spec.MaxSteps != 5 || !slices.Equal(info.Agents, []string{"console", "idle", "random", "steady"}) ||
				len(spec.Observations) != 1 || spec.Observations[0].Dtype != "int32" {
				t.Errorf("testgame info = %v", info)
			}
		}
	}
	if !found {
		t.Errorf("games --json has no testgame:\n%s", stdout)
	}
}

func TestRules(t *testing.T) {
	stdout, _, code := runCLI(t, "", "rules", "testgame")
	if code != 0 || stdout != "# testgame\n\n2 players add up their actions.\n" {
		t.Errorf("rules testgame: exit %d, %q", code, stdout)
	}
	stdout, _, _ = runCLI(t, "", "rules", "testgame", "--players", "3")
	if !strings.Contains(stdout, "3 players") {
		t.Errorf("rules --players 3: %q", stdout)
	}
}

func TestPlayJSONDeterministic(t *testing.T) {
	args := []string{"play", "testgame", "--agents", "random,idle", "--seed", "42", "--json"}
	a := runTwice(t, args...)
	if strings.Count(a, "\n") != 1 {
		t.Errorf("want one JSON line, got %q", a)
	}
	var res struct {
		Game        string `json:"game"`
		Seed        uint64 `json:"seed"`
		Rounds      int    `json:"rounds"`
		Winner      *int   `json:"winner"`
		Leaderboard []struct {
			Seat  int     `json:"seat"`
			Agent string  `json:"agent"`
			Name  string  `json:"name"`
			Score float64 `json:"score"`
			Alive bool    `json:"alive"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(a), &res); err != nil {
		t.Fatal(err)
	}
	// Seed 42 starts every score at 0; idle stays there, random gains.
	if res.Game != "testgame" || res.Seed != 42 || res.Rounds != 5 || res.Winner == nil || *res.Winner != 0 || len(res.Leaderboard) != 2 {
		t.Fatalf("result = %s", a)
	}
	if l := res.Leaderboard[1]; l.Seat != 1 || l.Agent != "idle" || l.Name != "Idle" || l.Score != 0 || !l.Alive {
		t.Errorf("last place = %+v", l)
	}
	if l := res.Leaderboard[0]; l.Agent != "random" || l.Name != "Random" {
		t.Errorf("first place = %+v", l)
	}
}

func TestPlayNames(t *testing.T) {
	stdout, _, code := runCLI(t, "", "play", "testgame", "--players", "3", "--agents", "idle", "--seed", "1", "--json")
	if code != 0 {
		t.Fatal(stdout)
	}
	for _, name := range []string{`"Idle 1"`, `"Idle 2"`, `"Idle 3"`, `"winner":null`, `"draw":true`} {
		if !strings.Contains(stdout, name) {
			t.Errorf("missing %s in %s", name, stdout)
		}
	}
}

func TestPlaySummary(t *testing.T) {
	stdout, _, code := runCLI(t, "", "play", "testgame", "--agents", "random,idle", "--seed", "42")
	if code != 0 {
		t.Fatal(stdout)
	}
	testutil.WantContains(t, "summary", stdout, "seed 42", "rounds 5", "winner seat 0, Random (random)", "RANK", "idle")
	// Without --seed a seed is drawn, and printed.
	stdout, _, _ = runCLI(t, "", "play", "testgame")
	if !strings.Contains(stdout, "seed ") {
		t.Errorf("summary without --seed:\n%s", stdout)
	}
}

func listReplay(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(files)
	return files
}

func TestPlayReplays(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "", "play", "testgame", "--seed", "7", "--max-rounds", "2", "--replays", dir)
	if code != 0 {
		t.Fatal(stderr)
	}
	want := []string{"7/0/board.txt", "7/0/state.json", "7/1/board.txt", "7/1/state.json", "7/2/board.txt", "7/2/state.json"}
	if got := listReplay(t, dir); !slices.Equal(got, want) {
		t.Errorf("replay files = %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "7/2/board.txt")); !strings.HasPrefix(string(b), "round 2:") {
		t.Errorf("7/2/board.txt = %q", b)
	}

	dir = t.TempDir()
	stdout, _, code := runCLI(t, "", "play", "testgame", "--seed", "7", "--max-rounds", "0", "--replays", dir, "--json")
	if code != 0 {
		t.Fatal(stdout)
	}
	if got := listReplay(t, dir); !slices.Equal(got, want[:2]) {
		t.Errorf("--max-rounds 0: replay files = %v, want %v", got, want[:2])
	}
	if !strings.Contains(stdout, `"rounds":0`) {
		t.Errorf("--max-rounds 0: %s", stdout)
	}
}

func TestPlayPretty(t *testing.T) {
	stdout, _, code := runCLI(t, "", "play", "testgame", "--seed", "3", "--pretty", "--delay", "0", "--json")
	if code != 0 {
		t.Fatal(stdout)
	}
	if n := strings.Count(stdout, "\x1b[H\x1b[2J"); n != 6 {
		t.Errorf("%d redraws, want 6 (initial state and 5 rounds)", n)
	}
	if !strings.Contains(stdout, "round 5: [") {
		t.Errorf("pretty output lacks the text format:\n%q", stdout)
	}
}

func TestPlayState(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "s.json")
	os.WriteFile(st, []byte(`{"round": 4, "scores": [10, 0]}`), 0o644)
	stdout := runOK(t, "play", "testgame", "--state", st, "--agents", "idle", "--seed", "0", "--json")
	if !strings.Contains(stdout, `"rounds":5`) || !strings.Contains(stdout, `"winner":0`) {
		t.Errorf("play from state: %s", stdout)
	}
}

func TestScenario(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	scen := `{"game": "testgame", "seed": 3, "rounds": [["1", "2"], ["x", "1"]]}`
	os.WriteFile(file, []byte(scen), 0o644)
	want := `{"round":1,"scores":[1,2]}` + "\n" + `{"round":2,"scores":[1,3]}` + "\n"
	for _, tc := range []struct {
		name, arg, stdin string
	}{{"file", file, ""}, {"stdin", "-", scen}} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.stdin, "scenario", tc.arg)
			if code != 0 || stdout != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
			}
		})
	}
}
