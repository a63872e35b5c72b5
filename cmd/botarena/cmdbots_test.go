package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/match"
)

// TestPlayCommandBot plays the README's command: the sample Python bot,
// given as a cmd: spec, against huggy.
func TestPlayCommandBot(t *testing.T) {
	bot := samplePythonBot(t)
	for _, spec := range []string{"cmd:python3 " + bot, `cmd:"python3 ` + bot + `"`, "cmd:timeout=2m:python3 " + bot} {
		out, stderr, code := runCLI(t, "", "play", "battlebots", "--agents", spec+",huggy", "--seed", "1", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", spec, code, stderr)
		}
		var res match.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Winner != 0 || res.Leaderboard[0].Agent != spec {
			t.Errorf("%s: the Python bot should beat huggy: %s", spec, out)
		}
		if strings.Contains(stderr, "doing nothing") {
			t.Errorf("%s: the Python bot faulted:\n%s", spec, stderr)
		}
	}
}

// TestPlayCommandBotFaults: a bot that sleeps past its limit, one that
// crashes and one that prints garbage each do nothing with a log line on
// stderr, and the match completes.
func TestPlayCommandBotFaults(t *testing.T) {
	for _, tc := range []struct {
		name, limit, body, want string
	}{
		// Only the hang tests the limit (it sleeps far past it); the others
		// have one no loaded machine reaches, so that they fault as written.
		{"hang", "1s", "sleep 600", `round 1: no answer within 1s (killed): doing nothing (NO)`},
		{"crash", "2m", "echo 'Traceback: ZeroDivisionError' >&2; exit 1", `round 1: exit status 1 (stderr: Traceback: ZeroDivisionError): doing nothing (NO)`},
		{"garbage", "2m", "echo 'move north please'", `round 1: garbage output "move north please": doing nothing (NO)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := script(t, tc.name+".sh", tc.body)
			out, stderr := runOKIn(t, "", "play", "battlebots", "--agents", "cmd:timeout="+tc.limit+":"+bot+",sniper", "--seed", "1", "--max-rounds", "3", "--json")
			if !strings.Contains(stderr, `botarena: bot "`+bot+`" (seat 0), `+tc.want) || strings.Count(stderr, "doing nothing") != 3 {
				t.Errorf("stderr, want 3 faults like %q:\n%s", tc.want, stderr)
			}
			if !strings.Contains(out, `"rounds":3`) {
				t.Errorf("result: %s", out)
			}
		})
	}
}

// TestPlayConsole drives the console agent through botarena's stdin.
func TestPlayConsole(t *testing.T) {
	out, stderr := runOKIn(t, "B SE\nfire\nB SE\n\nP\n", "play", "battlebots", "--agents", "console,nop", "--seed", "1", "--max-rounds", "4", "--json")
	testutil.WantContains(t, "stderr", stderr,
		"console: you play seat 0 of battlebots.",
		"battlebots round 0, seat 0:\n..........\n.Y........\n",
		"seat 0> ",
		`console: battlebots does not take "fire"`,
		"battlebots round 3, seat 0:\n",
	)
	// Two bullets at nop (8,8) hit; the empty line did nothing; P cost 1.
	if !strings.Contains(out, `"hp":9`) || !strings.Contains(out, `"hp":8`) {
		t.Errorf("result: %s", out)
	}
}

// TestPlayConsoleSeatsAreExempt: a console seat in Bomberman is one of the
// original's console players, exempt from the 20-do-nothing rule that
// blows up an idle bot.
func TestPlayConsoleSeatsAreExempt(t *testing.T) {
	out, stderr := runOKIn(t, "", "play", "bomberman", "--players", "2", "--agents", "console,idle", "--seed", "3", "--json")
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Winner != 0 || !res.Leaderboard[0].Alive || res.Leaderboard[1].Alive {
		t.Errorf("the console seat should outlive the idle bot: %s", out)
	}
	if !strings.Contains(stderr, "console: end of input: seat 0 does nothing from now on") {
		t.Errorf("stderr: %s", stderr)
	}
}
