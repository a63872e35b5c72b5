package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/training"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/league"
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
	// --original, or --bouts, runs the original's round robin; its agents
	// default to the original's registration, huggy and nop.
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"original_with_agents", []string{"--original", "--agents", "huggy,nop"}},
		{"original_default_agents", []string{"--original"}},
		{"bouts_implies_original", []string{"--bouts", "5", "--agents", "huggy,nop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runOK(t, append([]string{"tournament", "battlebots", "--seed", "1"}, tc.args...)...)
			// The original's output for its default registration (spec §7).
			want := "huggy vs nop\n0 1 2 3 4 \n\nResults:\nBot\tMatches\tBouts\nhuggy\t0\t0\nnop\t1\t5\n"
			if out != want {
				t.Errorf("output:\n%q\nwant:\n%q", out, want)
			}
		})
	}
}

func TestTournamentJSON(t *testing.T) {
	args := []string{"tournament", "battlebots", "--agents", "huggy,nop,sniper,random", "--bouts", "3", "--seed", "4", "--json"}
	out := runOK(t, args...)
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
		"crash="+crash+",cmd:"+garbage+",hang="+hang+",missing=/nonexistent/bot,shooter=cmd:timeout=2m:sh -c \"case $1 in ????????????Y*) echo B SE;; *) echo B NW;; esac\" sh",
		"--bouts", "1", "--max-rounds", "3", "--timeout", "300ms", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	testutil.WantContains(t, "stderr", stderr,
		`botarena: bot "crash" (seat 0), round 0: exit status 3 (stderr: boom): doing nothing (NO)`,
		`botarena: bot "cmd:`+garbage+`" (seat 1), round 2: garbage output "fire at will": doing nothing (NO)`,
		`botarena: bot "hang" (seat 0), round 1: no answer within 300ms (killed): doing nothing (NO)`,
		`botarena: bot "missing" (seat 1), round 0: cannot start: fork/exec /nonexistent/bot: no such file or directory`,
	)
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
	out := runOK(t, "tournament", "battlebots", "--agents", "shooter="+shooter+",nop", "--bouts", "1", "--json", "--seed", "1")
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
	out, stderr, code := runCLI(t, "", "tournament", "battlebots", "--agents", "py=python3 "+bot+",huggy,nop", "--bouts", "2", "--seed", "1", "--timeout", "2m")
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
	out, stderr, code = runCLI(t, "", "tournament", "battlebots", "--agents", `cmd:"python3 `+bot+`",nop`, "--bouts", "1", "--seed", "1", "--timeout", "2m", "--json")
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
		// The gauntlet's.
		{"tournament", "bomberman", "--agents", "reference"},
		{"tournament", "bomberman", "--agents", "reference,random", "--games", "0"},
		{"tournament", "bomberman", "--agents", "reference,random", "--workers", "-1"},
		{"tournament", "bomberman", "--agents", "reference,random", "--max-rounds", "-1"},
		{"tournament", "bomberman", "--agents", "reference,cmd:./bot"},
		{"tournament", "bomberman", "--agents", "reference,random", "--config", "{"},
		{"tournament", "bomberman", "--agents", "reference,random", "--size", "small"},
		{"tournament", "bomberman/2p", "--agents", "reference,policy:../../policies/battlebots.policy.safetensors"},
		{"tournament", "chess", "--agents", "a,b"},
		{"tournament", "bomberman", "--original"},
		{"tournament", "battlebots", "--original", "--games", "5"},
		{"tournament", "battlebots", "--bouts", "2", "--gauntlet"},
	} {
		if _, stderr, code := runCLI(t, "", args...); code == 0 || !strings.HasPrefix(stderr, "botarena: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// gauntletTable runs a gauntlet tournament with args (after "tournament")
// and --json, and returns its table.
func gauntletTable(t *testing.T, args ...string) *league.GauntletTable {
	t.Helper()
	out, stderr, code := runCLI(t, "", append(append([]string{"tournament"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("tournament %v: exit %d: %s", args, code, stderr)
	}
	var table league.GauntletTable
	if err := json.Unmarshal([]byte(out), &table); err != nil {
		t.Fatalf("tournament %v: %v in %q", args, err, out)
	}
	return &table
}

// TestTournamentGauntletPlaysEveryGamePerPairingAndSeating: every game (and
// presets with more seats) plays a small gauntlet of two built-in agents,
// --games 2 per seating, and the table holds the right number of games.
func TestTournamentGauntletPlaysEveryGamePerPairingAndSeating(t *testing.T) {
	for _, tc := range []struct {
		game  string
		a, b  string
		seats int
	}{
		{"battlebots", "huggy", "sniper", 2},
		{"battlecube", "teebot", "dumb", 4},
		{"battlecube/2p", "teebot", "dumb", 2},
		{"battleships/small", "reference", "random", 2},
		{"bomberman", "reference", "random", 4},
		{"bomberman/2p", "reference", "random", 2},
		{"portalbomber", "greedy", "practice", 2},
	} {
		t.Run(strings.ReplaceAll(tc.game, "/", "_"), func(t *testing.T) {
			table := gauntletTable(t, tc.game, "--agents", tc.a+","+tc.b, "--games", "2", "--seed", "1")
			if table.Game != tc.game || table.Seats != tc.seats || table.GamesPerSeating != 2 || len(table.Pairs) != 1 {
				t.Fatalf("table %+v", table)
			}
			p := table.Pairs[0]
			seatings := league.GauntletSeatings(tc.seats)
			if p.Agents != [2]string{tc.a, tc.b} || p.Games != 2*len(seatings) || len(p.Seatings) != len(seatings) {
				t.Fatalf("pair %v: %d games in %d seatings, want %d in %d", p.Agents, p.Games, len(p.Seatings), 2*len(seatings), len(seatings))
			}
			for _, st := range p.Seatings {
				if st.Games != 2 || st.Wins[0]+st.Wins[1]+st.Draws != 2 {
					t.Errorf("seating %v: %d games, wins %v, draws %d", st.Seats, st.Games, st.Wins, st.Draws)
				}
			}
			for k, s := range p.Sides {
				if s.Agent != p.Agents[k] || s.Wins+s.Draws+s.Losses != p.Games || s.Draws != p.Draws || s.Faults != 0 || s.Forfeits != 0 {
					t.Errorf("side %d: %+v", k, s)
				}
			}
			if p.Sides[0].Wins != p.Sides[1].Losses || p.DistinctEndings < 1 || p.DistinctEndings > p.Games || p.MeanRounds <= 0 {
				t.Errorf("pair %+v", p)
			}
		})
	}
}

// TestTournamentRotatesSeats: with 2 seats a pairing plays both orders;
// with more, the alternating seatings A,B,A,B and B,A,B,A.
func TestTournamentRotatesSeats(t *testing.T) {
	for _, tc := range []struct {
		game string
		want [][]string
	}{
		{"bomberman/2p", [][]string{{"reference", "idle"}, {"idle", "reference"}}},
		{"bomberman", [][]string{{"reference", "idle", "reference", "idle"}, {"idle", "reference", "idle", "reference"}}},
	} {
		t.Run(strings.ReplaceAll(tc.game, "/", "_"), func(t *testing.T) {
			table := gauntletTable(t, tc.game, "--agents", "reference,idle", "--games", "1", "--seed", "2", "--max-rounds", "20")
			var got [][]string
			for _, st := range table.Pairs[0].Seatings {
				got = append(got, st.Seats)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("seatings %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTournamentSameSeedSameTable: the same --seed gives the same table
// whatever the worker count; another seed plays other games.
func TestTournamentSameSeedSameTable(t *testing.T) {
	args := []string{"tournament", "bomberman/2p", "--agents", "reference,random,idle", "--games", "3", "--max-rounds", "80", "--json"}
	run := func(extra ...string) string {
		t.Helper()
		out, stderr, code := runCLI(t, "", append(slices.Clone(args), extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		return out
	}
	one := run("--seed", "3", "--workers", "1")
	if again := run("--seed", "3", "--workers", "3"); again != one {
		t.Errorf("same seed, other worker count, other table:\n%s\n%s", one, again)
	}
	// Another seed: the same seatings, other games (seeds aside, the
	// tables differ).
	var a, b league.GauntletTable
	json.Unmarshal([]byte(one), &a)
	json.Unmarshal([]byte(run("--seed", "4", "--workers", "1")), &b)
	for _, tb := range []*league.GauntletTable{&a, &b} {
		tb.Seed = 0
		for i := range tb.Pairs {
			for j := range tb.Pairs[i].Seatings {
				tb.Pairs[i].Seatings[j].FirstSeed = 0
			}
		}
	}
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 3 and 4 played the same games")
	}
}

// TestTournamentJSONHasTheDocumentedFields checks --json's fields (the
// command's help and docs/tournaments.md name them) and their values for a
// deterministic pair: nop beats huggy in every game, which all end alike
// in each seating.
func TestTournamentJSONHasTheDocumentedFields(t *testing.T) {
	out := runOK(t, "tournament", "battlebots", "--agents", "huggy,nop", "--games", "5", "--seed", "1", "--json")
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	keys := func(v any) []string {
		var ks []string
		for k := range v.(map[string]any) {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	pair := raw["pairs"].([]any)[0]
	for _, tc := range []struct {
		name string
		obj  any
		want []string
	}{
		{"table", raw, []string{"agents", "game", "games_per_seating", "max_rounds", "pairs", "seats", "seed"}},
		{"agent", raw["agents"].([]any)[0], []string{"agent", "spec"}},
		{"pair", pair, []string{"agents", "distinct_endings", "draws", "games", "mean_rounds", "seatings", "sides"}},
		{"side", pair.(map[string]any)["sides"].([]any)[0], []string{"agent", "draws", "fault_kinds", "faults", "forfeits", "losses", "mean_actions", "mean_points", "seat_games", "win_rate", "win_rate_95", "wins"}},
		{"seating", pair.(map[string]any)["seatings"].([]any)[0], []string{"distinct_endings", "draws", "first_index", "first_seed", "games", "seats", "wins"}},
	} {
		if got := keys(tc.obj); !slices.Equal(got, tc.want) {
			t.Errorf("%s fields %v, want %v", tc.name, got, tc.want)
		}
	}
	var table league.GauntletTable
	json.Unmarshal([]byte(out), &table)
	p := table.Pairs[0]
	nop := p.Sides[1]
	// 10 wins of 10: the Wilson interval is [n/(n+z²), 1] = [0.722467, 1].
	if nop.Wins != 10 || nop.WinRate != 1 || math.Abs(nop.WinRate95[0]-0.722467) > 1e-6 || nop.WinRate95[1] != 1 || nop.MeanPoints != 10 {
		t.Errorf("nop: %+v, want 10 wins, win rate 1 in [0.722467, 1], 10 HP", nop)
	}
	if p.DistinctEndings != 2 || p.Seatings[0].DistinctEndings != 1 || p.MeanRounds != 16 {
		t.Errorf("huggy vs nop: %d distinct endings (seatings %d, %d), mean length %v; want 1 per seating, 16 rounds",
			p.DistinctEndings, p.Seatings[0].DistinctEndings, p.Seatings[1].DistinctEndings, p.MeanRounds)
	}
	// nop does nothing every round; huggy walks to nop (6 moves) and
	// fires its EMP for the rest of the 16 rounds.
	huggy := p.Sides[0]
	if want := `{"nothing":16,"move":0,"bullet":0,"missile":0,"mine":0,"emp":0}`; string(must(json.Marshal(nop.MeanActions))) != want {
		t.Errorf("nop's mean actions %s, want %s", must(json.Marshal(nop.MeanActions)), want)
	}
	if want := `{"nothing":0,"move":6,"bullet":0,"missile":0,"mine":0,"emp":10}`; string(must(json.Marshal(huggy.MeanActions))) != want {
		t.Errorf("huggy's mean actions %s, want %s", must(json.Marshal(huggy.MeanActions)), want)
	}
}

// must returns v, ignoring err (for values that always encode).
func must(v []byte, _ error) []byte { return v }

func TestTournamentTextTable(t *testing.T) {
	out, stderr := runOKIn(t, "", "tournament", "battlebots", "--agents", "huggy,nop,sniper", "--games", "2", "--seed", "1")
	testutil.WantContains(t, "output", out,
		"huggy vs nop: 4 games, distinct endings 2, mean length 16.0 rounds\n",
		"agent  W/D/L  win rate  95% interval     mean points  faults  forfeits  actions per game\n",
		"nop    4/0/0  100.0%    [51.0%, 100.0%]  10.00        0       0         nothing 16, move 0, bullet 0, missile 0, mine 0, emp 0\n",
		"  seats huggy,nop: 2 games (first seed ",
		"win rate, row against column:\n",
	)
	if !strings.HasPrefix(stderr, "botarena: tournament battlebots seed 1: 3 agents, 3 pairings × 2 seatings × 2 games = 12 games") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestTournamentTextTableCountsDeathsByCause: in a game that says how its
// players end, each agent's line says how many of its seats died, by
// cause, and how the losers of its wins died; the JSON has them by cause.
func TestTournamentTextTableCountsDeathsByCause(t *testing.T) {
	out := runOK(t, "tournament", "bomberman/2p", "--agents", "hunter,reference", "--games", "2", "--seed", "5")
	testutil.WantContains(t, "output", out, "actions per game", "died", "its wins' losers died by", " of 4: ")
	out = runOK(t, "tournament", "bomberman/2p", "--agents", "hunter,reference", "--games", "2", "--seed", "5", "--json")
	var table league.GauntletTable
	if err := json.Unmarshal([]byte(out), &table); err != nil {
		t.Fatal(err)
	}
	for _, s := range table.Pairs[0].Sides {
		if s.SeatGames != 4 || !slices.Equal(s.Deaths.Causes, []string{"own bomb", "opponent's bomb", "own and opponent's bomb", "unknown"}) {
			t.Errorf("%s: %d seats, deaths %v; want 4 seats and every cause of Bomberman", s.Agent, s.SeatGames, s.Deaths)
		}
	}
}

func TestTournamentPNGDrawsTheWinRateMatrix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gauntlet.png")
	runOK(t, "tournament", "battlebots", "--agents", "huggy,nop,sniper", "--games", "1", "--seed", "1", "--png", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 300 {
		t.Errorf("picture of %v", b)
	}
}

// TestTournamentCountsFaultsOfExternalBots: a command-line bot that prints
// garbage faults every round, counted per side.
func TestTournamentCountsFaultsOfExternalBots(t *testing.T) {
	garbage := script(t, "garbage.sh", "echo 'fire at will'")
	table := gauntletTable(t, "battlebots", "--agents", "garbage="+garbage+",nop", "--games", "1", "--max-rounds", "3", "--seed", "1")
	p := table.Pairs[0]
	if p.Agents != [2]string{"garbage", "nop"} || p.Sides[0].Faults != 2*3 || p.Sides[1].Faults != 0 {
		t.Errorf("faults %d and %d, want 6 (3 rounds in each of 2 games) and 0: %+v", p.Sides[0].Faults, p.Sides[1].Faults, p)
	}
}

// TestTournamentGauntletPlaysTheGamesOwnAgents: --gauntlet plays the kit's
// agents and the committed policies that fit the game (found from this
// package's folder, below the repository's root), leaving out the others.
func TestTournamentGauntletPlaysTheGamesOwnAgents(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		leftOut string
	}{
		{"battlebots", []string{"battlebots"}, []string{"duelist", "gambit", "warden", "tactician", "huggy", "sniper", "nop", "random",
			"policy:battlebots?sample", "policy:battlebots-sniper?sample", "policy:battlebots-all?sample", "policy:battlebots-league?sample",
			"policy:battlebots-duelist?sample", "policy:battlebots-holdout?sample", "policy:battlebots-gambit?sample",
			"policy:battlebots-seat0?sample"}, ""},
		{"policy_that_does_not_fit", []string{"bomberman/8p"}, []string{"reference", "hunter", "harvester", "planner", "random", "idle"}, "leaving out policy:bomberman-2p?sample"},
		{"plus_agents", []string{"battleships/small", "--agents", "ref2=reference"}, []string{"hunter", "admiral", "reference", "random", "idle", "policy:battleships-small?sample", "ref2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"tournament"}, tc.args...), "--gauntlet", "--games", "1", "--max-rounds", "3", "--seed", "1", "--json")
			out, stderr := runOKIn(t, "", args...)
			var table league.GauntletTable
			if err := json.Unmarshal([]byte(out), &table); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range table.Agents {
				got = append(got, a.Name)
			}
			n := len(tc.want)
			if !slices.Equal(got, tc.want) || len(table.Pairs) != n*(n-1)/2 {
				t.Errorf("agents %v in %d pairs, want %v", got, len(table.Pairs), tc.want)
			}
			if tc.leftOut != "" && !strings.Contains(stderr, tc.leftOut) {
				t.Errorf("stderr lacks %q: %s", tc.leftOut, stderr)
			}
		})
	}
}

// TestEveryGameNamesAGauntletThatPlays: each game's kit lists a gauntlet
// of agents that exist, and its policies are committed files that fit one
// of the game's registry names, with the append-only config fields they
// were trained with.
func TestEveryGameNamesAGauntletThatPlays(t *testing.T) {
	byGame := map[string][]string{}
	for _, name := range env.Default.Names() {
		byGame[env.BaseGame(name)] = append(byGame[env.BaseGame(name)], name)
	}
	for game, names := range byGame {
		t.Run(game, func(t *testing.T) {
			entry, err := env.Default.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := entry.Kit.(gauntleter)
			if !ok || len(g.Gauntlet()) < 2 {
				t.Skipf("%s has no gauntlet of its own", game)
			}
			if err := checkGauntlet(g.Gauntlet()); err != nil {
				t.Error(err)
			}
			for _, spec := range g.Gauntlet() {
				path, ok := strings.CutPrefix(spec, policy.Prefix)
				if !ok {
					if !agents.Known(game, spec) {
						t.Errorf("%s: unknown agent", spec)
					}
					continue
				}
				path, _, _ = strings.Cut(path, "?")
				m, err := policy.Load(filepath.Join("..", "..", path))
				if err != nil {
					t.Errorf("%s: %v", spec, err)
					continue
				}
				// As the gauntlet plays it: with the game's append-only
				// fields raised to the policy's values (unionConfig).
				fits := false
				for _, name := range names {
					cfg, _, err := unionConfig(env.Default, name, nil, []entrant{{name: spec, spec: policy.Prefix + filepath.Join("..", "..", path)}})
					if err != nil {
						t.Fatal(err)
					}
					e, err := env.Default.Make(name, cfg)
					if err == nil && m.Check(e.Spec()) == nil {
						fits = true
					}
				}
				if !fits {
					t.Errorf("%s fits none of %v", spec, names)
				}
			}
		})
	}
}

// TestTournamentFocusPlaysOnlyThePairingsOfOneAgent: --focus NAME plays the
// pairings of NAME alone, and each of their games is the same game (index,
// seed, outcome) as in the whole tournament.
func TestTournamentFocusPlaysOnlyThePairingsOfOneAgent(t *testing.T) {
	args := []string{"battlebots", "--agents", "huggy,nop,sniper", "--games", "2", "--seed", "3", "--max-rounds", "30"}
	full := gauntletTable(t, args...)
	focused := gauntletTable(t, append(slices.Clone(args), "--focus", "sniper")...)
	if !slices.Equal(focused.Focus, []string{"sniper"}) {
		t.Errorf("focus = %q, want [sniper]", focused.Focus)
	}
	var want []league.GauntletPair
	for _, p := range full.Pairs {
		if p.Agents[0] == "sniper" || p.Agents[1] == "sniper" {
			want = append(want, p)
		}
	}
	if len(want) != 2 {
		t.Fatalf("the full tournament has %d pairings of sniper, want 2", len(want))
	}
	if !reflect.DeepEqual(focused.Pairs, want) {
		t.Errorf("focused pairs:\n%+v\nwant the full tournament's:\n%+v", focused.Pairs, want)
	}
	if _, stderr, code := runCLI(t, "", append([]string{"tournament"}, append(slices.Clone(args), "--focus", "nobody")...)...); code == 0 || !strings.Contains(stderr, "--focus") {
		t.Errorf("--focus nobody: exit %d, stderr %q; want an error naming --focus", code, stderr)
	}
}

func TestCheckGauntletRejectsBadEntries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		gauntlet []string
		want     string // "" accepts
	}{
		{"names_and_a_policy", []string{"greedy", "random", "policy:policies/counter.policy.safetensors?sample"}, ""},
		{"duplicate_entry", []string{"greedy", "greedy"}, `gauntlet entry "greedy" listed twice`},
		{"malformed_name", []string{"Greedy"}, `gauntlet entry "Greedy": want an agent name or policy:PATH`},
		{"other_scheme", []string{"cmd:./bot"}, `gauntlet entry "cmd:./bot": want an agent name or policy:PATH`},
		{"policy_without_path", []string{"policy:?sample"}, `gauntlet entry "policy:?sample": want policy:PATH`},
		{"absolute_policy_path", []string{"policy:/tmp/p.safetensors"}, `gauntlet entry "policy:/tmp/p.safetensors": want policy:PATH with PATH relative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkGauntlet(tc.gauntlet)
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("checkGauntlet = %v, want %q", err, tc.want)
			}
		})
	}
}

// gauntletKit is a kit with a gauntlet (if any) and training defaults.
type gauntletKit struct {
	gauntlet  string
	reference string
	opponents string
}

func (k gauntletKit) Gauntlet() []string { return strings.Fields(k.gauntlet) }
func (k gauntletKit) Training() training.Defaults {
	return training.Defaults{Reference: k.reference, Opponents: strings.Fields(k.opponents)}
}

func TestGauntletFallsBackToOpponentsThenReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		kit  any
		want []string
	}{
		{"no_kit", nil, nil},
		{"gauntlet", gauntletKit{"greedy idle", "greedy", "greedy random"}, []string{"greedy", "idle"}},
		{"opponents", gauntletKit{"", "greedy", "greedy random"}, []string{"greedy", "random"}},
		{"reference", gauntletKit{"", "greedy", ""}, []string{"greedy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gauntletOf(env.Entry{Name: "counter", Kit: tc.kit}); !slices.Equal(got, tc.want) {
				t.Errorf("gauntletOf = %v, want %v", got, tc.want)
			}
		})
	}
}

// flatPolicy writes a policy file of game trained with config (JSON), with
// the inputs that config gives and zero weights (a flatten, then one
// linear layer for the policy and one for the value), and returns its
// path.
func flatPolicy(t *testing.T, game, config string) string {
	t.Helper()
	e, err := env.Default.Make(game, []byte(config))
	if err != nil {
		t.Fatal(err)
	}
	spec := e.Spec()
	planes, _ := spec.Tensor("planes")
	scalars, _ := spec.Tensor("scalars")
	features := planes.Len() + scalars.Len()
	ones := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	arch := map[string]any{
		"format": policy.Format, "version": policy.Version, "game": game, "config": json.RawMessage(config), "actions": spec.Actions,
		"inputs": map[string]any{
			"planes":  map[string]any{"shape": planes.Shape, "scale": ones(planes.Shape[0])},
			"scalars": map[string]any{"shape": scalars.Shape, "scale": ones(scalars.Len())},
		},
		"planes": []any{map[string]any{"op": "flatten"}},
		"trunk":  []any{},
		"policy": []any{map[string]any{"op": "linear", "weight": "policy.0.weight", "bias": "policy.0.bias", "out": spec.Actions}},
		"value":  []any{map[string]any{"op": "linear", "weight": "value.0.weight", "bias": "value.0.bias", "out": 1}},
	}
	meta, err := json.Marshal(arch)
	if err != nil {
		t.Fatal(err)
	}
	header := map[string]any{"__metadata__": map[string]string{policy.MetadataKey: string(meta)}}
	offset := 0
	for _, tn := range []struct {
		name  string
		shape []int
	}{{"policy.0.bias", []int{spec.Actions}}, {"policy.0.weight", []int{spec.Actions, features}}, {"value.0.bias", []int{1}}, {"value.0.weight", []int{1, features}}} {
		n := 4
		for _, d := range tn.shape {
			n *= d
		}
		header[tn.name] = map[string]any{"dtype": "F32", "shape": tn.shape, "data_offsets": []int{offset, offset + n}}
		offset += n
	}
	js, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	for len(js)%8 != 0 {
		js = append(js, ' ')
	}
	data := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	data = append(append(data, js...), make([]byte, offset)...)
	path := filepath.Join(t.TempDir(), strings.ReplaceAll(game, "/", "-")+".policy.safetensors")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTournamentGauntletPlaysTheUnionConfig: when the entrants' policies
// were trained with different values of append-only config fields
// (env.AppendField), the gauntlet plays each such field at the largest
// value any of them needs, unless --config sets it, and says so ("config"
// and "raised" in --json); the policies trained with less play beside the
// others. A policy whose observations are no prefix of that config's does
// not play.
func TestTournamentGauntletPlaysTheUnionConfig(t *testing.T) {
	history := filepath.Join("..", "..", "policies", "battlecube-4p-history.policy.safetensors")
	distill := filepath.Join("..", "..", "policies", "battlecube-4p-distill.policy.safetensors")
	history2 := flatPolicy(t, "battlebots", `{"history":2}`)
	cycleMarks := flatPolicy(t, "battlecube", `{"cycle_marks":true}`)
	for _, tc := range []struct {
		name     string
		args     []string
		gauntlet bool     // --gauntlet: the kit's agents first
		agents   []string // the table's agents, after the kit's
		config   string   // the config played
		raised   string   // "raised" as JSON
		err      string   // the command's error, "" when it plays
	}{
		{"battlecube_history_policies_beside_the_others", []string{"battlecube", "--agents", "random,history=policy:" + history + ",distill=policy:" + distill}, false,
			[]string{"random", "history", "distill"}, `{"history":true,"tasks_scalar":true}`,
			`[{"field":"history","value":true,"for":["history","distill"]},{"field":"tasks_scalar","value":true,"for":["distill"]}]`, ""},
		{"battlebots_history_2_beside_the_kits_policies", []string{"battlebots", "--agents", "h2=policy:" + history2}, true,
			[]string{"h2"}, `{"history":2}`, `[{"field":"history","value":2,"for":["h2"]}]`, ""},
		{"no_policy_needs_more", []string{"battlecube", "--agents", "random,teebot,p=policy:" + filepath.Join("..", "..", "policies", "battlecube-4p.policy.safetensors")}, false,
			[]string{"random", "teebot", "p"}, ``, ``, ""},
		{"config_sets_the_field", []string{"battlecube", "--config", `{"history":false}`, "--agents", "random,history=policy:" + history}, false, nil, "", "", "does not fit battlecube"},
		{"no_prefix_of_the_union", []string{"battlecube", "--agents", "random,history=policy:" + history + ",marks=policy:" + cycleMarks}, false, nil, "", "",
			"--agents: marks: agent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"tournament"}, tc.args...), "--games", "1", "--max-rounds", "2", "--seed", "1", "--json", "--focus", "random")
			if tc.gauntlet {
				args = append(args, "--gauntlet")
			}
			out, stderr, code := runCLI(t, "", args...)
			if tc.err != "" {
				if code == 0 || !strings.Contains(stderr, tc.err) {
					t.Fatalf("exit %d, stderr %q: want an error with %q", code, stderr, tc.err)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var table struct {
				league.GauntletTable
				Config json.RawMessage `json:"config"`
				Raised json.RawMessage `json:"raised"`
			}
			if err := json.Unmarshal([]byte(out), &table); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, a := range table.Agents {
				names = append(names, a.Name)
			}
			kit := 0
			if tc.gauntlet {
				entry, _ := env.Default.Lookup(tc.args[0])
				kit = len(entry.Kit.(gauntleter).Gauntlet())
			}
			if len(names) != kit+len(tc.agents) || !slices.Equal(names[kit:], tc.agents) {
				t.Errorf("agents %v, want the kit's %d and %v", names, kit, tc.agents)
			}
			if string(table.Config) != tc.config || string(table.Raised) != tc.raised {
				t.Errorf("config %s, raised %s; want %s and %s", table.Config, table.Raised, tc.config, tc.raised)
			}
			if tc.config != "" && !strings.Contains(stderr, "playing config "+tc.config) {
				t.Errorf("stderr lacks the config played: %s", stderr)
			}
		})
	}
}

// TestTournamentGauntletKitPoliciesNeverUnseatANamedOne checks the rule
// that the entrants named with --agents count first in the union config: a
// kit policy raises an append-only field only where every named policy
// still fits, and is left out, with a note, where it would not.
func TestTournamentGauntletKitPoliciesNeverUnseatANamedOne(t *testing.T) {
	// Battle³'s history comes before cycle_marks in the scalars, so a
	// policy trained with cycle_marks alone cannot play with history raised;
	// the kit's history policies need it raised.
	marks := flatPolicy(t, "battlecube", `{"cycle_marks":true}`)
	out, stderr, code := runCLI(t, "", "tournament", "battlecube", "--gauntlet", "--agents", "marks=policy:"+marks,
		"--focus", "marks", "--games", "1", "--max-rounds", "2", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var table struct {
		league.GauntletTable
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal([]byte(out), &table); err != nil {
		t.Fatal(err)
	}
	if string(table.Config) != `{"cycle_marks":true}` {
		t.Errorf("config %s, want the named policy's {\"cycle_marks\":true}", table.Config)
	}
	var names []string
	for _, a := range table.Agents {
		names = append(names, a.Name)
	}
	if !slices.Contains(names, "marks") || slices.Contains(names, "policy:battlecube-4p-history?sample") {
		t.Errorf("agents %v: want marks in, the kit's history policy left out", names)
	}
	if !strings.Contains(stderr, "leaving out policy:battlecube-4p-history?sample") {
		t.Errorf("stderr does not say the kit's history policy is left out: %s", stderr)
	}
}
