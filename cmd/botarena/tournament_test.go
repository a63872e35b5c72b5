package main

import (
	"encoding/json"
	"os"
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

func TestTournamentForfeits(t *testing.T) {
	crash, hang := script(t, "crash.sh", "exit 3"), script(t, "hang.sh", "sleep 5")
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents", "crash="+crash+",nop,hang="+hang,
		"--bouts", "1", "--timeout", "700ms", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// crash is bot1 in crash vs hang and runs first, so it loses there.
	if !strings.HasSuffix(out, "crash\t0\t0\nnop\t2\t2\nhang\t1\t1\n") {
		t.Errorf("table:\n%s", out)
	}
	for _, want := range []string{"crash loses in round 0: forfeit: exit status 3", "hang loses in round 0: forfeit: no answer within 700ms"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
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

func TestTournamentErrors(t *testing.T) {
	for _, args := range [][]string{
		{"tournament", "bomberman"},
		{"tournament", "battlebots", "--agents", "huggy"},
		{"tournament", "battlebots", "--agents", "huggy,nosuch"},
		{"tournament", "battlebots", "--bouts", "0"},
		{"tournament", "battlebots", "--agents", "x=,nop"},
	} {
		if _, stderr, code := runCLI(t, "", args...); code == 0 || !strings.HasPrefix(stderr, "botarena: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
