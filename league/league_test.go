package league

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/all" // the agent schemes (cmd:, dir:, ...) the tests name
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	_ "github.com/botarena/botarena/env/bomberman"  // registers bomberman
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/match"
)

func init() {
	// An agent that panics in its second round, to test forfeits.
	agents.Register("league-test-panics", "panics in round 2 (league tests)", func(*env.Spec) (env.Agent, error) {
		return testutil.Panicky{From: 1, Msg: "league-test-panics"}, nil
	})
}

// newLeague makes a BattleBots league in a temporary directory with the
// given agents (name=spec pairs as name, spec, name, spec ...).
func newLeague(t *testing.T, seed uint64, specs ...string) *League {
	t.Helper()
	l, err := Create(filepath.Join(t.TempDir(), "lg"), Settings{Game: "battlebots", Seed: seed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	base := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for i := 0; i < len(specs); i += 2 {
		if err := l.AddAgent(Agent{Name: specs[i], Spec: specs[i+1], Added: base.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// mustRun runs l with o and fails t on an error.
func mustRun(t *testing.T, l *League, o RunOptions) {
	t.Helper()
	if _, err := l.Run(t.Context(), o); err != nil {
		t.Fatal(err)
	}
}

// mustTable returns l's table and fails t on an error.
func mustTable(t *testing.T, l *League) []Row {
	t.Helper()
	rows, err := l.Table()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

var fourBots = []string{"huggy", "huggy", "nop", "nop", "sniper", "sniper", "random", "random"}

// results returns the stored games without their wall-clock times.
func results(t *testing.T, l *League) []GameRecord {
	t.Helper()
	games, err := l.Games(0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		games[i].Time = time.Time{}
		games[i].Run = 0
	}
	return games
}

func ratings(t *testing.T, l *League) map[string]Rating {
	t.Helper()
	r, err := l.Ratings()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRoundRobinCoversEveryOrderedPairOncePerCycle(t *testing.T) {
	for n := 2; n <= 7; n++ {
		t.Run(fmt.Sprintf("agents=%d", n), func(t *testing.T) {
			pairs := roundRobinPairs(n)
			if len(pairs) != n*(n-1) {
				t.Fatalf("got %d pairs, want %d", len(pairs), n*(n-1))
			}
			seen := map[[2]int]bool{}
			home := make([]int, n)
			for _, p := range pairs {
				if p[0] == p[1] || p[0] < 0 || p[1] >= n || p[1] < 0 || p[0] >= n {
					t.Fatalf("bad pair %v", p)
				}
				if seen[p] {
					t.Fatalf("pair %v twice", p)
				}
				seen[p] = true
				home[p[0]]++
			}
			for a, h := range home {
				if h != n-1 {
					t.Errorf("agent %d in seat 0 %d times, want %d", a, h, n-1)
				}
			}
		})
	}
}

func TestRoundRobinFillsExtraSeatsByCycling(t *testing.T) {
	ags := []Agent{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}
	m, err := newMatchmaker(RoundRobin, 1, ags, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	cycle := int64(len(m.pairs))
	count := make([]int, len(ags))
	for i := range 3 * cycle {
		seats := m.pick(i)
		seen := map[int]bool{}
		for _, a := range seats {
			if seen[a] {
				t.Fatalf("game %d: agent %d in two seats: %v", i, a, seats)
			}
			seen[a] = true
			count[a]++
		}
	}
	for a := 1; a < len(count); a++ {
		if count[a] != count[0] {
			t.Errorf("seat counts over 3 cycles differ: %v", count)
		}
	}
}

func TestUniformAndPFSPAreDeterministicPerGame(t *testing.T) {
	ags := []Agent{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	for _, method := range []Matchmaking{Uniform, PFSP} {
		t.Run(string(method), func(t *testing.T) {
			target := ""
			if method == PFSP {
				target = "b"
			}
			m1, _ := newMatchmaker(method, 7, ags, 2, target)
			m2, _ := newMatchmaker(method, 7, ags, 2, target)
			m3, _ := newMatchmaker(method, 8, ags, 2, target)
			differ := false
			for i := int64(99); i >= 0; i-- { // any order
				a, b, c := m1.pick(i), m2.pick(i), m3.pick(i)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("game %d: %v then %v from the same seed", i, a, b)
				}
				if a[0] == a[1] {
					t.Fatalf("game %d: agent %d plays itself", i, a[0])
				}
				if method == PFSP && a[i%2] != 1 {
					t.Fatalf("game %d: target not in seat %d: %v", i, i%2, a)
				}
				differ = differ || !reflect.DeepEqual(a, c)
			}
			if !differ {
				t.Error("another league seed gave the same pairings")
			}
		})
	}
}

func TestPFSPWeightFavoursOpponentsTheTargetBeatsLeast(t *testing.T) {
	tests := []struct {
		name                 string
		wins, draws, games   int
		wantRate, wantWeight float64
	}{
		{"unplayed_gets_the_prior", 0, 0, 0, 0.5, 0.25},
		{"always_beaten", 9, 0, 9, 0.95, 0.0025},
		{"never_beaten", 0, 0, 9, 0.05, 0.9025},
		{"all_draws", 0, 4, 4, 0.5, 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PFSPWinRate(tt.wins, tt.draws, tt.games)
			if math.Abs(p-tt.wantRate) > 1e-12 || math.Abs(PFSPWeight(p)-tt.wantWeight) > 1e-12 {
				t.Errorf("p = %g, weight %g; want %g, %g", p, PFSPWeight(p), tt.wantRate, tt.wantWeight)
			}
		})
	}
	// The sampling follows the weights: the target never beats "hard" and
	// always beats "easy".
	ags := []Agent{{Name: "target"}, {Name: "easy"}, {Name: "hard"}}
	m, _ := newMatchmaker(PFSP, 3, ags, 2, "target")
	m.record["easy"] = &pairRecord{wins: 19, games: 19}
	m.record["hard"] = &pairRecord{games: 19}
	count := map[string]int{}
	for i := range int64(2000) {
		s := m.pick(i)
		count[ags[s[1-i%2]].Name]++
	}
	// Weights 0.0025 and 0.9025: "easy" about 0.3% of the time.
	if count["hard"] < 1900 || count["easy"] == 0 {
		t.Errorf("opponents drawn %v, want hard about 99.7%% and easy sometimes", count)
	}
}

func TestGlicko2MatchesGlickmansExample(t *testing.T) {
	// Glickman, "Example of the Glicko-2 system" (2013): a 1500/200 player
	// beats a 1400/30 one and loses to 1550/100 and 1700/300 ones.
	r := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	got := Glicko2(r, []Outcome{
		{Rating{Rating: 1400, RD: 30}, 1},
		{Rating{Rating: 1550, RD: 100}, 0},
		{Rating{Rating: 1700, RD: 300}, 0},
	})
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 1e-5 {
		t.Errorf("got %.2f ± %.2f, σ %.5f; want 1464.06 ± 151.52, σ 0.05999", got.Rating, got.RD, got.Volatility)
	}
}

// outcome returns a game's result with winner (-1: none), draw and the
// leaderboard st, best first.
func outcome(winner int, draw bool, st ...match.Standing) Result {
	return Result{Result: match.Result{Winner: match.Seat(winner), Draw: draw, Leaderboard: st}}
}

func TestRatePeriodCountsWinsDrawsAndLosses(t *testing.T) {
	tests := []struct {
		name         string
		res          Result
		wantA, wantB [3]int // wins, draws, losses
		aUp          bool
	}{
		{"win", outcome(0, false, match.Standing{Seat: 0, Agent: "a"}, match.Standing{Seat: 1, Agent: "b"}), [3]int{1, 0, 0}, [3]int{0, 0, 1}, true},
		{"loss", outcome(1, false, match.Standing{Seat: 1, Agent: "b"}, match.Standing{Seat: 0, Agent: "a"}), [3]int{0, 0, 1}, [3]int{1, 0, 0}, false},
		{"draw", outcome(-1, true, match.Standing{Seat: 0, Agent: "a", Score: 3}, match.Standing{Seat: 1, Agent: "b", Score: 3}), [3]int{0, 1, 0}, [3]int{0, 1, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := map[string]Rating{}
			RatePeriod(r, []Result{tt.res})
			a, b := r["a"], r["b"]
			if got := [3]int{a.Wins, a.Draws, a.Losses}; got != tt.wantA {
				t.Errorf("a: W/D/L %v, want %v", got, tt.wantA)
			}
			if got := [3]int{b.Wins, b.Draws, b.Losses}; got != tt.wantB {
				t.Errorf("b: W/D/L %v, want %v", got, tt.wantB)
			}
			if (a.Rating > InitialRating) != tt.aUp || (a.Elo > InitialElo) != tt.aUp {
				t.Errorf("a: rating %g, Elo %g; want them above the start: %v", a.Rating, a.Elo, tt.aUp)
			}
			if a.RD >= InitialRD {
				t.Errorf("a: RD %g did not shrink", a.RD)
			}
		})
	}
}

func TestRatePeriodRatesEveryGameAgainstTheRatingsBeforeThePeriod(t *testing.T) {
	// Glickman's example as three games of one period: a's opponents keep
	// the ratings they had before the period, whatever a's results.
	r := map[string]Rating{
		"a": {Rating: 1500, RD: 200, Volatility: 0.06},
		"b": {Rating: 1400, RD: 30, Volatility: 0.06},
		"c": {Rating: 1550, RD: 100, Volatility: 0.06},
		"d": {Rating: 1700, RD: 300, Volatility: 0.06},
	}
	game := func(winner, loser string) Result {
		return outcome(0, false, match.Standing{Seat: 0, Agent: winner}, match.Standing{Seat: 1, Agent: loser})
	}
	changed := RatePeriod(r, []Result{game("a", "b"), game("c", "a"), game("d", "a")})
	a := r["a"]
	if math.Abs(a.Rating-1464.06) > 0.01 || math.Abs(a.RD-151.52) > 0.01 || a.Games != 3 || a.Wins != 1 || a.Losses != 2 {
		t.Errorf("a: %.2f ± %.2f after %d games (%d/%d/%d); want 1464.06 ± 151.52 after 1/0/2", a.Rating, a.RD, a.Games, a.Wins, a.Draws, a.Losses)
	}
	if len(changed) != 4 || changed["a"] != a {
		t.Errorf("changed %v, want the four agents' new ratings", changed)
	}
}

func TestAnUnbeatenAgentsDeviationShrinksOverPeriods(t *testing.T) {
	l := newLeague(t, 4, "sniper", "sniper", "nop", "nop", "random", "random")
	var rd []float64
	for range 4 {
		mustRun(t, l, RunOptions{Games: 256, MaxRounds: 60, Fresh: true})
		r := ratings(t, l)["sniper"]
		if r.Losses > 0 {
			t.Skipf("sniper lost %d games: the test wants an unbeaten agent", r.Losses)
		}
		rd = append(rd, r.RD)
	}
	t.Logf("RD %.1f", rd)
	if !(rd[3] < rd[0]) || rd[3] > 150 {
		t.Errorf("sniper's RD after 256, 512, 768, 1024 unbeaten games: %.1f; want it to shrink below 150", rd)
	}
}

func TestRatingsDoNotDependOnHowGamesAreSplitIntoRuns(t *testing.T) {
	whole := newLeague(t, 9, fourBots...)
	if _, err := whole.Run(context.Background(), RunOptions{Games: 150, MaxRounds: 80}); err != nil {
		t.Fatal(err)
	}
	split := newLeague(t, 9, fourBots...)
	for _, n := range []int{30, 70, 50} {
		if _, err := split.Run(context.Background(), RunOptions{Games: n, MaxRounds: 80}); err != nil {
			t.Fatal(err)
		}
		// Mid-period, the ratings include every stored game.
		games := 0
		for _, r := range ratings(t, split) {
			games += r.Games
		}
		if n, _ := split.NumGames(); int64(games) != 2*n {
			t.Fatalf("the ratings count %d seats' games after %d games, want %d", games, n, 2*n)
		}
	}
	if got, want := ratings(t, split), ratings(t, whole); !reflect.DeepEqual(got, want) {
		t.Errorf("runs of 30, 70 and 50 games: %v\none run of 150: %v", got, want)
	}
}

func TestAddAgentRejectsWhatCannotPlay(t *testing.T) {
	l := newLeague(t, 1, "huggy", "huggy")
	tests := []struct{ name, agent, spec string }{
		{"unknown_spec", "x", "no-such-bot"},
		{"other_games_scheme", "x", "dir:/tmp/bot"},
		{"console", "me", "console"},
		{"bad_name", "a b", "nop"},
		{"duplicate_name", "huggy", "nop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := l.AddAgent(Agent{Name: tt.agent, Spec: tt.spec}); err == nil {
				t.Errorf("AddAgent(%q, %q) = nil, want an error", tt.agent, tt.spec)
			}
		})
	}
	if err := l.RemoveAgent("nobody"); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("RemoveAgent(nobody) = %v, want ErrUnknownAgent", err)
	}
}

func TestRunGivesTheSameResultsForAnyWorkerCount(t *testing.T) {
	for _, method := range Matchmakings {
		t.Run(string(method), func(t *testing.T) {
			o := RunOptions{Games: 80, Match: method, MaxRounds: 60}
			if method == PFSP {
				o.Target = "huggy"
			}
			var want []GameRecord
			var wantR map[string]Rating
			for _, w := range []int{1, 3} {
				l := newLeague(t, 42, fourBots...)
				o.Workers = w
				mustRun(t, l, o)
				got, gotR := results(t, l), ratings(t, l)
				if len(got) != o.Games {
					t.Fatalf("workers=%d: %d games stored, want %d", w, len(got), o.Games)
				}
				if want == nil {
					want, wantR = got, gotR
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("workers=%d: games differ from workers=1", w)
				}
				if !reflect.DeepEqual(gotR, wantR) {
					t.Errorf("workers=%d: ratings differ from workers=1", w)
				}
			}
		})
	}
}

// killingRunner cancels the run when it is asked for game cut or later,
// once every game before cut has finished: a kill right after game cut-1.
type killingRunner struct {
	inner    Runner
	cut      int64
	cancel   context.CancelFunc
	finished atomic.Int64
}

func (k *killingRunner) Play(ctx context.Context, m Match) (Result, error) {
	if m.Index < k.cut {
		defer k.finished.Add(1)
		return k.inner.Play(ctx, m)
	}
	// Games are handed out in index order, so the games before cut are
	// running on the other workers.
	for k.finished.Load() < k.cut {
		time.Sleep(time.Millisecond)
	}
	k.cancel()
	return Result{}, ctx.Err()
}

func TestRunResumesAfterAKillWithTheSameSeeds(t *testing.T) {
	for _, method := range Matchmakings {
		t.Run(string(method), func(t *testing.T) {
			o := RunOptions{Games: 100, Match: method, Workers: 2, MaxRounds: 60}
			if method == PFSP {
				o.Target = "sniper"
			}
			whole := newLeague(t, 9, fourBots...)
			if _, err := whole.Run(context.Background(), o); err != nil {
				t.Fatal(err)
			}

			l := newLeague(t, 9, fourBots...)
			ctx, cancel := context.WithCancel(context.Background())
			killed := o
			killed.Runner = &killingRunner{inner: &LocalRunner{}, cut: 40, cancel: cancel}
			sum, err := l.Run(ctx, killed)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: err = %v, want context.Canceled", err)
			}
			if n, _ := l.NumGames(); n != 40 || sum.Played != 40 {
				t.Fatalf("interrupted run stored %d games (played %d), want 40", n, sum.Played)
			}
			// Reopen, as a new process would.
			dir := l.Dir()
			l.Close()
			if l, err = Open(dir, false); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			var calls atomic.Int64
			resumed := o
			resumed.Runner = countingRunner{&LocalRunner{}, &calls}
			sum, err = l.Run(context.Background(), resumed)
			if err != nil {
				t.Fatal(err)
			}
			if !sum.Resumed || sum.Skipped != 40 || sum.Played != 60 || calls.Load() != 60 {
				t.Errorf("resumed run: resumed %v, skipped %d, played %d, %d games played; want true, 40, 60, 60", sum.Resumed, sum.Skipped, sum.Played, calls.Load())
			}
			if !reflect.DeepEqual(results(t, l), results(t, whole)) {
				t.Error("the resumed league's games differ from the uninterrupted one's")
			}
			if !reflect.DeepEqual(ratings(t, l), ratings(t, whole)) {
				t.Error("the resumed league's ratings differ from the uninterrupted one's")
			}
			// The run is finished: the same command starts a new run.
			sum, err = l.Run(context.Background(), RunOptions{Games: 1, Match: Uniform})
			if err != nil || sum.Resumed || sum.Run.Start != 100 {
				t.Errorf("next run: %+v, %v; want a new run from game 100", sum.Run, err)
			}
		})
	}
}

type countingRunner struct {
	inner Runner
	n     *atomic.Int64
}

func (c countingRunner) Play(ctx context.Context, m Match) (Result, error) {
	c.n.Add(1)
	return c.inner.Play(ctx, m)
}

func TestRunRefusesToMixAnUnfinishedRunWithOtherOptions(t *testing.T) {
	l := newLeague(t, 5, fourBots...)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := l.Run(ctx, RunOptions{Games: 20, Workers: 1, MaxRounds: 30, Runner: &killingRunner{inner: &LocalRunner{}, cut: 5, cancel: cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	_, err = l.Run(context.Background(), RunOptions{Games: 20, Match: Uniform, MaxRounds: 30})
	if !errors.Is(err, ErrUnfinishedRun) {
		t.Fatalf("err = %v, want ErrUnfinishedRun", err)
	}
	sum, err := l.Run(context.Background(), RunOptions{Games: 3, Match: Uniform, MaxRounds: 30, Fresh: true})
	if err != nil || sum.Run.Start != 5 || sum.Played != 3 {
		t.Fatalf("fresh run: %+v, %v; want 3 games from game 5", sum, err)
	}
	runs, _ := l.Runs()
	if len(runs) != 2 || !runs[0].Abandoned {
		t.Errorf("runs %+v, want the first abandoned", runs)
	}
}

func TestRunRatesTheStrongerAgentHigher(t *testing.T) {
	l := newLeague(t, 3, "sniper", "sniper", "nop", "nop")
	mustRun(t, l, RunOptions{Games: 20, MaxRounds: 100})
	rows := mustTable(t, l)
	if rows[0].Agent != "sniper" || rows[0].Wins != 20 || rows[1].Losses != 20 || rows[0].Elo <= rows[1].Elo || rows[0].RD >= InitialRD {
		t.Errorf("table %+v, want sniper first with 20 wins", rows)
	}
}

func TestForfeitingAgentLosesTheGame(t *testing.T) {
	l := newLeague(t, 3, "idle", "idle", "bad", "league-test-panics")
	mustRun(t, l, RunOptions{Games: 2, MaxRounds: 50})
	for _, g := range results(t, l) {
		bad := 0
		if g.Seats[1].Name == "bad" {
			bad = 1
		}
		if g.ForfeitSeat() != bad || int(g.Winner) != 1-bad || g.Leaderboard[1].Agent != "bad" {
			t.Errorf("game %d: forfeit %+v winner %d leaderboard %+v; want bad (seat %d) to forfeit and lose", g.Index, g.Forfeit, g.Winner, g.Leaderboard, bad)
		}
	}
}

func TestRunNamesTheAgentThatCannotStart(t *testing.T) {
	l := newLeague(t, 3, "nop", "nop", "ghost", "cmd:")
	_, err := l.Run(context.Background(), RunOptions{Games: 2})
	if err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("err = %v, want one naming agent ghost", err)
	}
}

func TestOpenReportsMissingAndBusyLeagues(t *testing.T) {
	if _, err := Open(t.TempDir(), true); !errors.Is(err, ErrNoLeague) {
		t.Errorf("Open(empty dir) = %v, want ErrNoLeague", err)
	}
	l := newLeague(t, 1)
	if _, err := Create(l.Dir(), Settings{Game: "battlebots"}, nil); !errors.Is(err, ErrExists) {
		t.Errorf("Create over a league = %v, want ErrExists", err)
	}
	if _, err := Create(t.TempDir(), Settings{Game: "chess"}, nil); !errors.Is(err, env.ErrUnknownGame) {
		t.Errorf("Create(chess) = %v, want ErrUnknownGame", err)
	}
}

func TestALeagueMadeBeforeRatingPeriodsKeepsItsRatings(t *testing.T) {
	l := newLeague(t, 2, fourBots...)
	mustRun(t, l, RunOptions{Games: 64, MaxRounds: 50})
	// Stores made before rating periods had no rated count: their ratings
	// included every stored game.
	if err := l.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(metaBucket).Delete(ratedKey) }); err != nil {
		t.Fatal(err)
	}
	before := ratings(t, l)
	mustRun(t, l, RunOptions{Games: 10, MaxRounds: 50})
	if rated, err := l.rated(); err != nil || rated != 64 {
		t.Fatalf("rated %d (%v), want 64: the old ratings' games", rated, err)
	}
	games := 0
	for name, r := range ratings(t, l) {
		games += r.Games
		if r.Games < before[name].Games {
			t.Errorf("%s: %d games, had %d", name, r.Games, before[name].Games)
		}
	}
	if games != 2*74 {
		t.Errorf("the ratings count %d seats' games, want %d", games, 2*74)
	}
}
