package league

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

func TestGauntletSeatingsRotateThePairThroughEverySeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seats int
		want  [][]int
	}{
		{"two_seats_both_orders", 2, [][]int{{0, 1}, {1, 0}}},
		{"three_seats_six_rotations", 3, [][]int{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 0}}},
		{"four_seats_alternating", 4, [][]int{{0, 1, 0, 1}, {1, 0, 1, 0}}},
		{"twelve_seats_alternating", 12, [][]int{{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GauntletSeatings(tc.seats)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("GauntletSeatings(%d) = %v, want %v", tc.seats, got, tc.want)
			}
			// Both agents play every seat equally often.
			for seat := range tc.seats {
				n := 0
				for _, s := range got {
					n += s[seat]
				}
				if 2*n != len(got) {
					t.Errorf("seat %d: agent B sits there in %d of %d seatings", seat, n, len(got))
				}
			}
		})
	}
}

func TestWilsonIntervalMatchesKnownValues(t *testing.T) {
	for _, tc := range []struct {
		name           string
		wins, games    int
		wantLo, wantHi float64
	}{
		// The roots of (p̂ − p)² = z²·p(1 − p)/n, z = 1.959964 (R's
		// prop.test(x, n, correct = FALSE)); at 0 and n successes the
		// bounds are z²/(n + z²) and n/(n + z²).
		{"half_of_ten", 5, 10, 0.236593, 0.763407},
		{"none_of_ten", 0, 10, 0, 0.277533},
		{"all_of_ten", 10, 10, 0.722467, 1},
		{"81_of_263", 81, 263, 0.255289, 0.366210},
		{"no_games", 0, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := WilsonInterval(tc.wins, tc.games)
			if math.Abs(lo-tc.wantLo) > 1e-6 || math.Abs(hi-tc.wantHi) > 1e-6 {
				t.Errorf("WilsonInterval(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tc.wins, tc.games, lo, hi, tc.wantLo, tc.wantHi)
			}
		})
	}
}

func TestGauntletMatchesHaveFreshSeedsAndRotatedSeats(t *testing.T) {
	g := Gauntlet{Game: "battlebots", Agents: []Entrant{{"a", "huggy"}, {"b", "nop"}, {"c", "sniper"}}, Games: 2, Seed: 9}
	ms := g.Matches(2)
	if len(ms) != 3*2*2 {
		t.Fatalf("%d matches, want 3 pairings × 2 seatings × 2 games", len(ms))
	}
	seeds := map[uint64]bool{}
	var seatings []string
	for i, m := range ms {
		if m.Index != int64(i) || m.Seed != GameSeed(9, int64(i)) || !m.Fingerprint {
			t.Errorf("match %d: index %d, seed %d, fingerprint %v; want GameSeed(9, %d) and a fingerprint", i, m.Index, m.Seed, m.Fingerprint, i)
		}
		seeds[m.Seed] = true
		seatings = append(seatings, m.Seats[0].Name+m.Seats[1].Name)
	}
	if len(seeds) != len(ms) {
		t.Errorf("%d distinct seeds for %d games", len(seeds), len(ms))
	}
	want := []string{"ab", "ab", "ba", "ba", "ac", "ac", "ca", "ca", "bc", "bc", "cb", "cb"}
	if !slices.Equal(seatings, want) {
		t.Errorf("seatings %v, want %v", seatings, want)
	}
}

func TestLoneSeatingsPutTheLoneAgentInEachSeatAgainstAFullTable(t *testing.T) {
	agents := []Entrant{{"a", "x"}, {"b", "y"}, {"c", "z"}}
	for _, tc := range []struct {
		name  string
		g     Gauntlet
		seats int
		want  map[[2]int]string // pairing -> its seatings, seat by seat
	}{
		{"two seats: the usual seatings", Gauntlet{Agents: agents, Lone: true}, 2,
			map[[2]int]string{{0, 1}: "[[0 1] [1 0]]", {1, 2}: "[[0 1] [1 0]]"}},
		{"the first agent alone", Gauntlet{Agents: agents, Lone: true}, 3,
			map[[2]int]string{{0, 1}: "[[0 1 1] [1 0 1] [1 1 0]]", {1, 2}: "[[0 1 1] [1 0 1] [1 1 0]]"}},
		{"the focus agent alone, first or second", Gauntlet{Agents: agents, Lone: true, Focus: []string{"b"}}, 4,
			map[[2]int]string{{0, 1}: "[[1 0 0 0] [0 1 0 0] [0 0 1 0] [0 0 0 1]]", {1, 2}: "[[0 1 1 1] [1 0 1 1] [1 1 0 1] [1 1 1 0]]"}},
		{"without Lone: alternating", Gauntlet{Agents: agents}, 4,
			map[[2]int]string{{0, 1}: "[[0 1 0 1] [1 0 1 0]]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for p, want := range tc.want {
				if got := fmt.Sprint(tc.g.Seatings(tc.seats, p)); got != want {
					t.Errorf("pairing %v: seatings %s, want %s", p, got, want)
				}
			}
		})
	}
	g := Gauntlet{Game: "bomberman", Agents: []Entrant{{"mine", "hunter"}, {"ref", "reference"}}, Games: 2, Seed: 4, Lone: true}
	ms := g.Matches(4)
	if len(ms) != 4*2 {
		t.Fatalf("%d matches, want 4 seatings × 2 games", len(ms))
	}
	for i, m := range ms {
		if n := slices.IndexFunc(m.Seats, func(e Entrant) bool { return e.Name == "mine" }); n != i/2 || slices.ContainsFunc(m.Seats[n+1:], func(e Entrant) bool { return e.Name == "mine" }) {
			t.Errorf("match %d: seats %v, want mine alone in seat %d", i, m.Seats, i/2)
		}
	}
}

// serialRunner plays a batch one game at a time with a LocalRunner, as a
// BatchRunner.
type serialRunner struct{ LocalRunner }

func (r *serialRunner) PlayBatch(ctx context.Context, matches []Match, _ int, done func(int, Result, error)) {
	for j, m := range matches {
		res, err := r.Play(ctx, m)
		done(j, res, err)
	}
}

func TestGauntletTableDoesNotDependOnWorkersOrWhereGamesArePlayed(t *testing.T) {
	g := Gauntlet{Game: "battlecube/2p", Agents: []Entrant{{"dumb", "dumb"}, {"random", "random"}, {"teebot", "teebot"}}, Games: 3, Seed: 4, MaxRounds: 60}
	want, err := PlayGauntlet(context.Background(), g, &serialRunner{}, nil, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		got, err := PlayGauntlet(context.Background(), g, &PoolRunner{EnvsPerWorker: 2}, nil, workers, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("workers=%d on pools:\n%+v\none by one:\n%+v", workers, got, want)
		}
	}
	for _, p := range want.Pairs {
		if p.Games != 6 || len(p.Seatings) != 2 || p.DistinctEndings < 1 || p.DistinctEndings > p.Games {
			t.Errorf("%v: %d games in %d seatings, %d distinct endings", p.Agents, p.Games, len(p.Seatings), p.DistinctEndings)
		}
		for _, s := range p.Sides {
			if s.Wins+s.Draws+s.Losses != p.Games || s.WinRate95[0] > s.WinRate || s.WinRate > s.WinRate95[1] {
				t.Errorf("%v, %s: %+v", p.Agents, s.Agent, s)
			}
		}
	}
}

func TestPlayGauntletRejectsBadGauntlets(t *testing.T) {
	two := []Entrant{{"a", "huggy"}, {"b", "nop"}}
	for _, tc := range []struct {
		name string
		g    Gauntlet
		want string
	}{
		{"one_agent", Gauntlet{Game: "battlebots", Agents: two[:1], Games: 1}, "at least 2 agents"},
		{"same_name_twice", Gauntlet{Game: "battlebots", Agents: []Entrant{{"a", "huggy"}, {"a", "nop"}}, Games: 1}, `agent "a" listed twice`},
		{"no_games", Gauntlet{Game: "battlebots", Agents: two, Games: 0}, "want 1 or more, got 0"},
		{"negative_round_cap", Gauntlet{Game: "battlebots", Agents: two, Games: 1, MaxRounds: -1}, "max rounds"},
		{"unknown_game", Gauntlet{Game: "chess", Agents: two, Games: 1}, "chess"},
		{"unknown_agent", Gauntlet{Game: "battlebots", Agents: []Entrant{{"a", "huggy"}, {"b", "nosuch"}}, Games: 1}, "nosuch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlayGauntlet(context.Background(), tc.g, &PoolRunner{}, nil, 2, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestGauntletGameGoesToTheSideOfTheWinnerOrOfEveryTiedTopSeat(t *testing.T) {
	st := func(seat int, score float64, alive bool) match.Standing {
		return match.Standing{Seat: seat, Score: score, Alive: alive}
	}
	for _, tc := range []struct {
		name    string
		r       Result
		seating []int
		want    int
	}{
		{"winner_seat_1", outcome(1, false, st(1, 5, true), st(0, 3, true)), []int{0, 1}, 1},
		{"winner_seat_1_swapped", outcome(1, false, st(1, 5, true), st(0, 3, true)), []int{1, 0}, 0},
		{"two_player_draw", outcome(-1, true, st(0, 5, true), st(1, 5, true)), []int{0, 1}, -1},
		{"tie_between_one_agents_seats", outcome(-1, true, st(0, 9, true), st(2, 9, true), st(1, 3, false), st(3, 1, false)), []int{0, 1, 0, 1}, 0},
		{"tie_across_agents", outcome(0, true, st(0, 9, true), st(1, 9, true), st(2, 3, false), st(3, 1, false)), []int{0, 1, 0, 1}, -1},
		{"no_winner_no_tie", outcome(-1, false, st(3, 9, true), st(1, 3, true)), []int{0, 1, 0, 1}, 1},
		{"no_standings", outcome(-1, true), []int{0, 1}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := winningSide(tc.r, tc.seating); got != tc.want {
				t.Errorf("winningSide = %d, want %d", got, tc.want)
			}
		})
	}
}

// cancellingRunner plays a batch one game at a time and cancels the
// gauntlet's context once after games have finished; the games it has not
// started by then end with the context's error, as interrupted ones do.
type cancellingRunner struct {
	serialRunner
	after  int
	cancel context.CancelFunc
}

func (r *cancellingRunner) PlayBatch(ctx context.Context, matches []Match, _ int, done func(int, Result, error)) {
	for j, m := range matches {
		if j == r.after {
			r.cancel()
		}
		if err := ctx.Err(); err != nil {
			done(j, Result{}, err)
			continue
		}
		res, err := r.Play(ctx, m)
		done(j, res, err)
	}
}

func TestAnInterruptedGauntletKeepsItsFinishedGames(t *testing.T) {
	g := Gauntlet{Game: "battlecube/2p", Agents: []Entrant{{"dumb", "dumb"}, {"teebot", "teebot"}}, Games: 3, Seed: 4, MaxRounds: 60}
	full, err := PlayGauntlet(context.Background(), g, &serialRunner{}, nil, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		after     int
		wantGames []int // per seating; nil: no table
	}{
		{"none finished", 0, nil},
		{"within the first seating", 2, []int{2, 0}},
		{"into the second seating", 4, []int{3, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			table, err := PlayGauntlet(ctx, g, &cancellingRunner{after: tc.after, cancel: cancel}, nil, 1, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, want context.Canceled", err)
			}
			if tc.wantGames == nil {
				if table != nil {
					t.Fatalf("a table of no games: %+v", table)
				}
				return
			}
			if table == nil || !table.Partial || len(table.Pairs) != 1 {
				t.Fatalf("want a partial table of one pairing, got %+v", table)
			}
			p, fp := table.Pairs[0], full.Pairs[0]
			if p.Games != tc.after {
				t.Errorf("%d games, want the %d finished", p.Games, tc.after)
			}
			for i, s := range p.Seatings {
				if s.Games != tc.wantGames[i] || s.FirstSeed != fp.Seatings[i].FirstSeed {
					t.Errorf("seating %d: %d games from seed %d, want %d from %d", i, s.Games, s.FirstSeed, tc.wantGames[i], fp.Seatings[i].FirstSeed)
				}
			}
			if tc.wantGames[0] == g.Games && !reflect.DeepEqual(p.Seatings[0], fp.Seatings[0]) {
				t.Errorf("the finished first seating %+v, want the full table's %+v", p.Seatings[0], fp.Seatings[0])
			}
			for _, s := range p.Sides {
				if s.Wins+s.Draws+s.Losses != p.Games {
					t.Errorf("%s: %d/%d/%d in %d games", s.Agent, s.Wins, s.Draws, s.Losses, p.Games)
				}
			}
		})
	}
}
