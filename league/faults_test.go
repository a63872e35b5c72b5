package league

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/botarena/botarena/match"
)

// faultyScript writes a BattleBots command-line bot that, round by round
// (counted in a file), sleeps 30 s (past any limit given here), crashes,
// prints garbage and does nothing (NO), over again every 4 rounds.
func faultyScript(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	body := "#!/bin/sh\nn=$(cat " + count + " 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > " + count + "\n" +
		"case $((n % 4)) in\n1) sleep 30;;\n2) exit 3;;\n3) echo 'fire at will';;\n*) echo NO;;\nesac\n"
	path := filepath.Join(dir, "faulty.sh")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLocalRunnerStoresFaultsPerSeat: a command-line bot that times out,
// crashes and prints garbage in one round each has its faults, by kind, in
// its standing, which a stored game keeps; a game stored before faults
// were kept reads as none.
func TestLocalRunnerStoresFaultsPerSeat(t *testing.T) {
	bot := faultyScript(t)
	m := Match{Game: "battlebots", Seed: 1, MaxRounds: 4, Seats: []Entrant{
		{Name: "nop", Spec: "nop"}, {Name: "faulty", Spec: "cmd:timeout=1s:" + bot},
	}}
	res, err := (&LocalRunner{}).Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	want := match.Faults{TimedOut: 1, Crashed: 1, Invalid: 1}
	for _, s := range res.Standings {
		w := match.Faults{}
		if s.Seat == 1 {
			w = want
		}
		if s.Faults != w {
			t.Errorf("seat %d (%s): faults %+v, want %+v", s.Seat, s.Agent, s.Faults, w)
		}
	}
	data, err := json.Marshal(GameRecord{Result: res, Seats: m.Seats})
	if err != nil {
		t.Fatal(err)
	}
	var back GameRecord
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for _, s := range back.Standings {
		if s.Seat == 1 && s.Faults != want {
			t.Errorf("stored faults %+v, want %+v in %s", s.Faults, want, data)
		}
	}
	var old GameRecord
	if err := json.Unmarshal([]byte(`{"index":0,"seed":1,"rounds":4,"winner":-1,"draw":true,"standings":[{"seat":0,"agent":"nop","rank":1,"score":10,"alive":true}],"forfeit":-1,"run":0,"seats":[]}`), &old); err != nil {
		t.Fatal(err)
	}
	if f := old.Standings[0].Faults; f.Total() != 0 {
		t.Errorf("an old game's faults %+v, want none", f)
	}
}
