package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// faultyLimit is the round limit the tests give faultyBot: long enough
// that its crash and garbage rounds are never taken for timeouts on a
// loaded machine, short of its sleep.
const faultyLimit = "10s"

// faultyBot writes a BattleBots command-line bot that, round by round
// (counted in a file), sleeps 10 minutes (far past the faultyLimit the tests give
// it), crashes, prints garbage and does nothing (NO), over again every 4
// rounds. Games that use it one after another share the count.
func faultyBot(t *testing.T) string {
	t.Helper()
	count := filepath.Join(t.TempDir(), "count")
	return script(t, "faulty.sh", "n=$(cat "+count+" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > "+count+"\n"+
		"case $((n % 4)) in\n1) sleep 600;;\n2) exit 3;;\n3) echo 'fire at will';;\n*) echo NO;;\nesac")
}

// TestPlayJSONCountsFaultsByKind: play --json's result line has, per seat
// of an external bot, the rounds it timed out, crashed and answered
// garbage in; the text summary names them.
func TestPlayJSONCountsFaultsByKind(t *testing.T) {
	bot := faultyBot(t)
	spec := "cmd:timeout=" + faultyLimit + ":" + bot
	out := runOK(t, "play", "battlebots", "--agents", "nop,"+spec, "--seed", "1", "--max-rounds", "4", "--json")
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := []match.SeatFaults{{Seat: 1, Agent: spec, Faults: match.Faults{TimedOut: 1, Crashed: 1, Invalid: 1}}}
	if len(res.Faults) != 1 || res.Faults[0] != want[0] {
		t.Errorf("faults %+v, want %+v", res.Faults, want)
	}
	if !strings.Contains(out, `"faults":[{"seat":1,"agent":"`+spec+`","timed_out":1,"crashed":1,"invalid":1}]`) {
		t.Errorf("result line: %s", out)
	}
	out = runOK(t, "play", "battlebots", "--agents", "nop,"+spec, "--seed", "1", "--max-rounds", "4")
	if want := "seat 1 (" + spec + ") lost 3 rounds: 1 timed out, 1 crashed, 1 invalid"; !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
	// Built-in agents count no faults: no faults field.
	out, _, _ = runCLI(t, "", "play", "battlebots", "--agents", "nop,nop", "--seed", "1", "--max-rounds", "2", "--json")
	if strings.Contains(out, `"faults"`) {
		t.Errorf("built-in agents have faults: %s", out)
	}
}

// TestTournamentJSONCountsFaultsByKind: the gauntlet's table sums an
// external bot's faults over its games in faults and splits them by kind
// in fault_kinds; the BattleBots round robin does the same per bout.
func TestTournamentJSONCountsFaultsByKind(t *testing.T) {
	bot := faultyBot(t)
	// One worker: the two games (one per seating) run one after the other,
	// 4 rounds each, so each sees one round of every kind.
	table := gauntletTable(t, "battlebots", "--agents", "faulty=cmd:timeout="+faultyLimit+":"+bot+",nop", "--games", "1", "--max-rounds", "4", "--seed", "1", "--workers", "1")
	p := table.Pairs[0]
	want := match.Faults{TimedOut: 2, Crashed: 2, Invalid: 2}
	if p.Agents != [2]string{"faulty", "nop"} || p.Sides[0].FaultKinds != want || p.Sides[0].Faults != 6 || p.Sides[1].Faults != 0 || p.Sides[1].FaultKinds != (match.Faults{}) {
		t.Errorf("sides %+v, want faulty with 6 faults %+v and nop none", p.Sides, want)
	}

	bot = faultyBot(t)
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--original", "--agents", "faulty=cmd:timeout="+faultyLimit+":"+bot+",nop",
		"--bouts", "1", "--max-rounds", "4", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Matches []tMatch `json:"matches"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 {
		t.Fatalf("%d matches, want 1: %s", len(res.Matches), out)
	}
	b := res.Matches[0].Bouts[0]
	if b.Faults["faulty"] != 3 || b.FaultKinds["faulty"] != (match.Faults{TimedOut: 1, Crashed: 1, Invalid: 1}) || b.Faults["nop"] != 0 {
		t.Errorf("bout %+v, want faulty with 1 fault of each kind", b)
	}
}
