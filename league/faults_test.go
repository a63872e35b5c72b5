package league

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// faultyScript writes a BattleBots command-line bot that, round by round
// (counted in a file), sleeps 10 minutes (past any limit given here), crashes,
// prints garbage and does nothing (NO), over again every 4 rounds.
func faultyScript(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	body := "#!/bin/sh\nn=$(cat " + count + " 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > " + count + "\n" +
		"case $((n % 4)) in\n1) sleep 600;;\n2) exit 3;;\n3) echo 'fire at will';;\n*) echo NO;;\nesac\n"
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
		{Name: "nop", Spec: "nop"}, {Name: "faulty", Spec: "cmd:timeout=10s:" + bot}, // its crash and garbage rounds are never taken for timeouts on a loaded machine,
	}}
	res, err := (&LocalRunner{}).Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	want := match.Faults{TimedOut: 1, Crashed: 1, Invalid: 1}
	for _, s := range res.Leaderboard {
		w := match.Faults{}
		if s.Seat == 1 {
			w = want
		}
		if f := res.SeatFaultsOf(s.Seat); f != w {
			t.Errorf("seat %d (%s): faults %+v, want %+v", s.Seat, s.Agent, f, w)
		}
	}
	data, err := json.Marshal(GameRecord{Result: res, Seats: m.Seats})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"leaderboard":[`) || strings.Contains(string(data), `"standings"`) {
		t.Errorf("stored as %s, want match.Result's form", data)
	}
	back, err := readGame(data, "battlebots")
	if err != nil {
		t.Fatal(err)
	}
	if f := back.SeatFaultsOf(1); f != want {
		t.Errorf("stored faults %+v, want %+v in %s", f, want, data)
	}
	for _, s := range back.Line().Standings {
		if s.Seat == 1 && s.Faults != want {
			t.Errorf("compact form: faults %+v, want %+v", s.Faults, want)
		}
	}
	old, err := readGame([]byte(`{"index":0,"seed":1,"rounds":4,"winner":-1,"draw":true,"standings":[{"seat":0,"agent":"nop","rank":1,"score":10,"alive":true}],"forfeit":-1,"run":0,"seats":[]}`), "battlebots")
	if err != nil {
		t.Fatal(err)
	}
	if f := old.SeatFaultsOf(0); f.Total() != 0 {
		t.Errorf("an old game's faults %+v, want none", f)
	}
}

// TestStoreOfTheOldFormatLoads: a league stored before the league kept
// match.Result (testdata/store-v1: 4 games of BattleBots, written by the
// version before, with games.jsonl what its `league games --json`
// printed) opens, and its games read as records whose compact form is
// what that version printed, with the league's game filled in.
func TestStoreOfTheOldFormatLoads(t *testing.T) {
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join("testdata", "store-v1", StoreFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, StoreFile), db, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "store-v1", "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	games, err := l.Games(0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for _, g := range games {
		if g.Game != "battlebots" || len(g.Leaderboard) != 2 || g.Leaderboard[0].Actions.IsZero() {
			t.Errorf("game %d: %+v, want battlebots with a leaderboard of 2 seats and their actions", g.Index, g.Result)
		}
		line, err := json.Marshal(g.Line())
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(got, line...), '\n')
	}
	if len(games) != 4 || string(got) != string(want) {
		t.Errorf("games of the old store:\n%s\nwant\n%s", got, want)
	}
	if rows, err := l.Table(); err != nil || len(rows) != 2 || rows[0].Games != 4 {
		t.Errorf("table %+v, %v; want 2 agents of 4 games", rows, err)
	}
}
