package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script writes an executable shell script into a temporary folder and
// returns its path.
func script(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTournamentOriginalTable(t *testing.T) {
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents", "huggy,nop", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The original's output for its default registration (spec §7).
	want := "huggy vs nop\n0 1 2 3 4 \n\nResults:\nBot\tMatches\tBouts\nhuggy\t0\t0\nnop\t1\t5\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
}

func TestTournamentJSON(t *testing.T) {
	args := []string{"tournament", "battlebots", "--agents", "huggy,nop,sniper,random", "--bouts", "3", "--seed", "4", "--json"}
	out, stderr, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	again, _, _ := runCLI(t, "", args...)
	if again != out {
		t.Error("same seed, different tournament")
	}
	var res struct {
		Matches []tMatch  `json:"matches"`
		Results []tResult `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 6 || len(res.Results) != 4 {
		t.Fatalf("%d matches, %d results", len(res.Matches), len(res.Results))
	}
	if r := res.Results[2]; r.Bot != "sniper" || r.Matches != 3 || r.Bouts != 9 {
		t.Errorf("sniper: %+v, want 3 matches and 9 bouts", r)
	}
	if m := res.Matches[0]; m.Bot1 != "huggy" || m.Bot2 != "nop" || m.Bouts[0].Rounds != 16 || m.Bouts[0].HP != [2]int{0, 10} {
		t.Errorf("huggy vs nop: %+v", m)
	}
}

// TestTournamentFaults runs bots that crash, hang, print garbage or cannot
// start: each round they fault is a do-nothing with a log line, and the
// tournament completes.
func TestTournamentFaults(t *testing.T) {
	crash := script(t, "crash.sh", "echo boom >&2\nexit 3")
	hang := script(t, "hang.sh", "sleep 5")
	garbage := script(t, "garbage.sh", "echo 'fire at will'")
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents",
		// shooter, always bot2 here, fires bullets at bot1 (NW), or SE when it is bot1 at (1,1).
		"crash="+crash+",cmd:"+garbage+",hang="+hang+",missing=/nonexistent/bot,shooter=cmd:timeout=3s:sh -c \"case $1 in ????????????Y*) echo B SE;; *) echo B NW;; esac\" sh",
		"--bouts", "1", "--max-rounds", "3", "--timeout", "300ms", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`botarena: bot "crash" (seat 0), round 0: exit status 3 (stderr: boom): doing nothing (NO)`,
		`botarena: bot "cmd:` + garbage + `" (seat 1), round 2: garbage output "fire at will": doing nothing (NO)`,
		`botarena: bot "hang" (seat 0), round 1: no answer within 300ms (killed): doing nothing (NO)`,
		`botarena: bot "missing" (seat 1), round 0: cannot start: fork/exec /nonexistent/bot: no such file or directory`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var res struct {
		Matches []tMatch  `json:"matches"`
		Results []tResult `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 10 {
		t.Fatalf("%d matches, want 10", len(res.Matches))
	}
	for _, m := range res.Matches {
		b := m.Bouts[0]
		if b.Rounds != 3 || b.Forfeit != "" {
			t.Errorf("%s vs %s: %+v, want 3 rounds and no forfeit", m.Bot1, m.Bot2, b)
		}
		for _, bot := range []string{m.Bot1, m.Bot2} {
			if want := 3; bot == "shooter" {
				want = 0
				if b.Faults[bot] != want {
					t.Errorf("%s vs %s: %s faulted %d times", m.Bot1, m.Bot2, bot, b.Faults[bot])
				}
			} else if b.Faults[bot] != want {
				t.Errorf("%s vs %s: %s faulted %d times, want %d", m.Bot1, m.Bot2, bot, b.Faults[bot], want)
			}
		}
	}
	if r := res.Results[4]; r.Bot != "shooter" || r.Matches != 4 {
		t.Errorf("the shooter should beat the idle faulty bots: %+v", res.Results)
	}
}

func TestTournamentExternalBot(t *testing.T) {
	// An external bot that prints "M SE" every round, as the original would
	// run it: the arena string is its last argument.
	shooter := script(t, "shooter.sh", "echo 'M SE'")
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents", "shooter="+shooter+",nop", "--bouts", "1", "--json", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"winner":"shooter"`) {
		t.Errorf("the shooter should beat nop on the diagonal: %s", out)
	}
}

// samplePythonBot returns the path of the sample Python BattleBots bot, or
// skips the test where python3 is missing.
func samplePythonBot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	path, err := filepath.Abs("../../agents/examples/battlebots-python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTournamentPythonBot runs the README's command: the sample Python bot
// against the built-in bots, in the original's table.
func TestTournamentPythonBot(t *testing.T) {
	bot := samplePythonBot(t)
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents", "py=python3 "+bot+",huggy,nop", "--bouts", "2", "--seed", "1", "--timeout", "5s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "doing nothing") {
		t.Errorf("the Python bot faulted:\n%s", stderr)
	}
	if !strings.HasPrefix(out, "py vs huggy\n0 1 \npy vs nop\n0 1 \nhuggy vs nop\n") || !strings.Contains(out, "\npy\t2\t4\n") {
		t.Errorf("the Python bot should win every bout:\n%s", out)
	}
	// The same bot as a cmd: spec, quoted as a whole.
	out, stderr, code = runCLI(t, "", "tournament", "battlebots", "--agents", `cmd:"python3 `+bot+`",nop`, "--bouts", "1", "--seed", "1", "--json")
	if code != 0 || !strings.Contains(out, `"winner":"cmd:\"python3 `+bot+`\""`) {
		t.Errorf("exit %d: %s\n%s", code, stderr, out)
	}
}

func TestTournamentErrors(t *testing.T) {
	for _, args := range [][]string{
		{"tournament", "bomberman"},
		{"tournament", "battlebots", "--agents", "huggy"},
		{"tournament", "battlebots", "--agents", "huggy,nosuch"},
		{"tournament", "battlebots", "--bouts", "0"},
		{"tournament", "battlebots", "--agents", "x=,nop"},
		{"tournament", "battlebots", "--agents", `x=python3 "bot.py,nop`},
		{"tournament", "battlebots", "--agents", "cmd:,nop"},
		{"tournament", "battlebots", "--timeout", "0s"},
	} {
		if _, stderr, code := runCLI(t, "", args...); code == 0 || !strings.HasPrefix(stderr, "botarena: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
