package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

func TestLeagueCommandsRunALeagueEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	runOK(t, "league", "init", dir, "--game", "battlebots", "--seed", "5")
	for _, a := range []string{"huggy", "nop", "sniper", "random"} {
		runOK(t, "league", "add", dir, a, a)
	}
	runOK(t, "league", "add", dir, "still", "idle", "--tag", "v1")

	out := runOK(t, "league", "run", dir, "--games", "20", "--workers", "2", "--max-rounds", "80", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 {
		t.Fatalf("--json printed %d lines, want 5 table rows and a summary:\n%s", len(lines), out)
	}
	for _, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
	}
	var sum struct {
		Summary bool    `json:"summary"`
		Played  int     `json:"played"`
		Rate    float64 `json:"games_per_second"`
		PNG     string  `json:"png"`
	}
	json.Unmarshal([]byte(lines[5]), &sum)
	if !sum.Summary || sum.Played != 20 || sum.Rate <= 0 {
		t.Errorf("summary %s, want 20 games played", lines[5])
	}
	if st, err := os.Stat(filepath.Join(dir, "ratings.png")); err != nil || st.Size() == 0 || sum.PNG != filepath.Join(dir, "ratings.png") {
		t.Errorf("ratings.png: %v, png %q", err, sum.PNG)
	}

	table := runOK(t, "league", "table", dir)
	if !strings.Contains(table, "RANK") || !strings.Contains(table, "± ") || !strings.Contains(table, "v1") {
		t.Errorf("table:\n%s", table)
	}
	if games := runOK(t, "league", "games", dir, "--last", "3"); strings.Count(games, "\n") != 4 {
		t.Errorf("games --last 3:\n%s", games)
	}
	if games := runOK(t, "league", "games", dir, "--last", "3", "--json"); !regexp.MustCompile(`^(\{"index":1[789],"seed":\d+,.*\}\n){3}$`).MatchString(games) {
		t.Errorf("games --last 3 --json, want games 17 to 19 as JSON Lines:\n%s", games)
	}
	runOK(t, "league", "remove", dir, "still")
	if rows := runOK(t, "league", "table", dir, "--json"); strings.Count(rows, "\n") != 4 || strings.Contains(rows, "still") {
		t.Errorf("table after remove:\n%s", rows)
	}
}

func TestLeagueErrorsNameWhatIsWrong(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	if _, errOut, code := runCLI(t, "", "league", "init", dir, "--game", "battlebots", "--seed", "1"); code != 0 {
		t.Fatal(errOut)
	}
	runCLI(t, "", "league", "add", dir, "a", "nop")
	if _, errOut, code := runCLI(t, "", "league", "run", dir, "--games", "2"); code != 1 || !strings.Contains(errOut, "at least 2 agents") {
		t.Errorf("run with one agent: exit %d, %q; want an error asking for 2 agents", code, errOut)
	}
	runCLI(t, "", "league", "add", dir, "b", "sniper")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"init_without_game", []string{"league", "init", filepath.Join(t.TempDir(), "x")}, "--game"},
		{"init_unknown_game", []string{"league", "init", filepath.Join(t.TempDir(), "x"), "--game", "chess"}, "chess"},
		{"init_twice", []string{"league", "init", dir, "--game", "battlebots"}, "already exists"},
		{"no_league", []string{"league", "table", t.TempDir()}, "no league"},
		{"unknown_agent_spec", []string{"league", "add", dir, "c", "no-such-bot"}, "no-such-bot"},
		{"remove_unknown", []string{"league", "remove", dir, "zed"}, "zed"},
		{"run_without_games", []string{"league", "run", dir}, "--games"},
		{"pfsp_without_target", []string{"league", "run", dir, "--games", "2", "--match", "pfsp"}, "--target"},
		{"pfsp_unknown_target", []string{"league", "run", dir, "--games", "2", "--match", "pfsp", "--target", "zed"}, "zed"},
		{"bad_match", []string{"league", "run", dir, "--games", "2", "--match", "swiss"}, "swiss"},
		{"servers_malformed", []string{"league", "run", dir, "--games", "2", "--servers", "nowhere"}, "nowhere"},
		{"servers_all_down", []string{"league", "run", dir, "--games", "2", "--servers", "127.0.0.1:1"}, "every match server is down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, "", tt.args...)
			if code != 1 || !strings.HasPrefix(errOut, "botarena: ") || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want 1 and a line naming %q", code, errOut, tt.want)
			}
		})
	}
}

func TestLeagueRunWithServersStoresWhatALocalRunStores(t *testing.T) {
	a, _, _ := startServe(t)
	b, _, _ := startServe(t, "--max-matches", "1")
	var tables, games [2]string
	for i, servers := range [][]string{nil, {"--servers", a + "," + b, "--server-batch", "4"}} {
		dir := filepath.Join(t.TempDir(), "lg")
		runOK(t, "league", "init", dir, "--game", "battlebots", "--seed", "9")
		for _, bot := range []string{"huggy", "nop", "sniper", "random"} {
			runOK(t, "league", "add", dir, bot, bot)
		}
		out := runOK(t, append([]string{"league", "run", dir, "--games", "40", "--max-rounds", "60", "--png", ""}, servers...)...)
		if servers != nil && !strings.Contains(out, "games per server: "+a) {
			t.Errorf("run with --servers printed no games per server:\n%s", out)
		}
		tables[i] = runOK(t, "league", "table", dir, "--json")
		games[i] = runOK(t, "league", "games", dir, "--last", "40")
	}
	if tables[1] != tables[0] {
		t.Errorf("table with --servers:\n%s\nwithout:\n%s", tables[1], tables[0])
	}
	if games[1] != games[0] {
		t.Errorf("games with --servers:\n%s\nwithout:\n%s", games[1], games[0])
	}
}

func TestLeagueTableShowsTheLiveTableWhileARunHoldsTheStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	for _, args := range [][]string{
		{"league", "init", dir, "--game", "battlebots", "--seed", "5"},
		{"league", "add", dir, "sniper", "sniper"},
		{"league", "add", dir, "nop", "nop"},
		{"league", "run", dir, "--games", "10", "--max-rounds", "50", "--png", ""},
	} {
		runOK(t, args...)
	}
	if _, err := os.Stat(filepath.Join(dir, league.LiveTableFile)); !os.IsNotExist(err) {
		t.Errorf("a finished run left %s behind (%v)", league.LiveTableFile, err)
	}
	want, _, _ := runCLI(t, "", "league", "table", dir, "--json")

	// A run holds the store (as `league run` does) and has written its table.
	l, err := league.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.WriteLiveTable(1); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "league", "table", dir, "--json")
	if code != 0 || out != want || !strings.Contains(errOut, "in use by a league run") || !strings.Contains(errOut, "after 10 games") {
		t.Errorf("table while busy: exit %d, stdout %q, stderr %q; want the stored table and a note", code, out, errOut)
	}
	// Without a live table, the store's lock is the error.
	if err := os.Remove(filepath.Join(dir, league.LiveTableFile)); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "", "league", "table", dir); code == 0 || !strings.Contains(errOut, "in use") {
		t.Errorf("table while busy, no live table: exit %d, stderr %q; want the busy error", code, errOut)
	}
}

func TestServedLeaguesMatchTheCommandLine(t *testing.T) {
	root := filepath.Join(t.TempDir(), "leagues") // made by serve
	addr, _, _ := startServe(t, "--leagues-dir", root)
	c := botarenav1connect.NewMatchServiceClient(http.DefaultClient, "http://"+addr)
	ctx := t.Context()
	seed := uint64(11)
	if _, err := c.CreateLeague(ctx, &botarenav1.CreateLeagueRequest{League: "lg", Game: "battlebots", Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "lg")
	if _, errOut, code := runCLI(t, "", "league", "init", local, "--game", "battlebots", "--seed", "11"); code != 0 {
		t.Fatal(errOut)
	}
	for _, a := range []string{"huggy", "sniper", "random"} {
		if _, err := c.AddLeagueAgent(ctx, &botarenav1.AddLeagueAgentRequest{League: "lg", Name: a, Spec: a}); err != nil {
			t.Fatal(err)
		}
		if _, errOut, code := runCLI(t, "", "league", "add", local, a, a); code != 0 {
			t.Fatal(errOut)
		}
	}
	stream, err := c.RunLeague(ctx, &botarenav1.RunLeagueRequest{League: "lg", Games: 12, MaxRounds: 80, Png: true})
	if err != nil {
		t.Fatal(err)
	}
	var sum *botarenav1.LeagueRunSummary
	for stream.Receive() {
		if s := stream.Msg().GetSummary(); s != nil {
			sum = s
		}
	}
	if err := stream.Err(); err != nil || sum.GetPlayed() != 12 {
		t.Fatalf("RunLeague: %v, %v", sum, err)
	}
	if _, errOut, code := runCLI(t, "", "league", "run", local, "--games", "12", "--max-rounds", "80", "--png", ""); code != 0 {
		t.Fatal(errOut)
	}
	png, err := os.ReadFile(filepath.Join(root, "lg", league.ChartFile))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("the served run's chart: %d bytes, %v", len(png), err)
	}
	table, err := c.LeagueTable(ctx, &botarenav1.LeagueTableRequest{League: "lg"})
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := runCLI(t, "", "league", "table", local)
	if table.GetText() != want {
		t.Errorf("served table:\n%s\nthe command line's:\n%s", table.GetText(), want)
	}
	// The command line reads the served league too.
	if got, errOut, _ := runCLI(t, "", "league", "table", filepath.Join(root, "lg")); got != want {
		t.Errorf("league table of the served league:\n%s%s\nwant:\n%s", got, errOut, want)
	}
}
