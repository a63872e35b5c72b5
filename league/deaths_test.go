package league

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// TestStandingLineKeepsTheDeathCause: a standing's death cause survives
// the league's compact form and its JSON (Line, then Record), and a game
// that does not say writes no "death" key.
func TestStandingLineKeepsTheDeathCause(t *testing.T) {
	for _, tc := range []struct{ name, a, b string }{
		{"game_that_does_not_say", "", ""},
		{"winner_alive_loser_by_own_bomb", "alive", "own bomb"},
		{"both_dead", "opponent's bomb", "own and opponent's bomb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := GameRecord{Result: outcome(0, false,
				match.Standing{Rank: 1, Seat: 0, Agent: "hunter", Score: 30, Alive: tc.a == "alive" || tc.a == "", Death: tc.a},
				match.Standing{Rank: 2, Seat: 1, Agent: "reference", Score: -70, Death: tc.b})}
			data, err := json.Marshal(rec.Line())
			if err != nil {
				t.Fatal(err)
			}
			if has := bytes.Contains(data, []byte(`"death"`)); has != (tc.a != "") {
				t.Errorf("line %s: has a death key %v", data, has)
			}
			var line GameLine
			if err := json.Unmarshal(data, &line); err != nil {
				t.Fatal(err)
			}
			back := line.Record()
			for i, s := range back.Leaderboard {
				if want := rec.Leaderboard[i].Death; s.Death != want {
					t.Errorf("seat %d: death %q read back, want %q (%s)", s.Seat, s.Death, want, data)
				}
			}
		})
	}
}

// TestGauntletCountsEachAgentsDeathsByCause: a tournament counts each
// agent's seats by how its player died, every cause of the game with 0s,
// and in each agent's wins how the other agent's seats died, so that wins
// by the opponent's own bomb show.
func TestGauntletCountsEachAgentsDeathsByCause(t *testing.T) {
	causes := []string{"alive", "own bomb", "opponent's bomb", "own and opponent's bomb", "unknown"}
	st := func(seat int, score float64, death string) match.Standing {
		return match.Standing{Seat: seat, Score: score, Alive: death == "alive", Death: death}
	}
	g := Gauntlet{Game: "bomberman/2p", Agents: []Entrant{{"hunter", "hunter"}, {"reference", "reference"}}, Games: 2}
	matches := g.Matches(2)
	// Seating 0: hunter in seat 0; seating 1: hunter in seat 1.
	results := []Result{
		outcome(0, false, st(0, 50, "alive"), st(1, -70, "own bomb")),                    // hunter wins: reference's own bomb
		outcome(0, false, st(0, 40, "alive"), st(1, -60, "opponent's bomb")),             // hunter wins: hunter's bomb
		outcome(1, false, st(1, 20, "alive"), st(0, -80, "own bomb")),                    // hunter wins: reference's own bomb
		outcome(0, false, st(0, -10, "own and opponent's bomb"), st(1, -90, "own bomb")), // reference wins on points, both dead
	}
	finished := []bool{true, true, true, true}
	table := g.table(2, causes, matches, results, finished)
	p := table.Pairs[0]
	want := [2]struct {
		wins, seats    int
		deaths, losers string
	}{
		{3, 4, `{"own bomb":1,"opponent's bomb":0,"own and opponent's bomb":0,"unknown":0}`,
			`{"own bomb":2,"opponent's bomb":1,"own and opponent's bomb":0,"unknown":0}`},
		{1, 4, `{"own bomb":2,"opponent's bomb":1,"own and opponent's bomb":1,"unknown":0}`,
			`{"own bomb":1,"opponent's bomb":0,"own and opponent's bomb":0,"unknown":0}`},
	}
	for i, s := range p.Sides {
		d, _ := json.Marshal(s.Deaths)
		l, _ := json.Marshal(s.LoserDeaths)
		if s.Wins != want[i].wins || s.SeatGames != want[i].seats || string(d) != want[i].deaths || string(l) != want[i].losers {
			t.Errorf("%s: %d wins, %d seats, deaths %s, losers' deaths %s; want %d, %d, %s, %s", s.Agent, s.Wins, s.SeatGames, d, l,
				want[i].wins, want[i].seats, want[i].deaths, want[i].losers)
		}
	}
	var text strings.Builder
	if err := table.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"4 of 4: own bomb 2, opponent's bomb 1, own and opponent's bomb 1", "own bomb 2, opponent's bomb 1"} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("table:\n%s\nwant a line with %q", text.String(), line)
		}
	}
	data, err := json.Marshal(table)
	if err != nil {
		t.Fatal(err)
	}
	var back GauntletTable
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back.Pairs[0].Sides, p.Sides) {
		t.Errorf("JSON round trip: %+v, %v; want %+v", back.Pairs[0].Sides, err, p.Sides)
	}

	// A game that does not say how its players end has no deaths and no
	// columns for them.
	plain := g.table(2, nil, matches, []Result{outcome(0, false, st(0, 1, ""), st(1, 0, "")), outcome(0, false), outcome(0, false), outcome(0, false)}, finished)
	if s := plain.Pairs[0].Sides[0]; !s.Deaths.IsZero() || !s.LoserDeaths.IsZero() {
		t.Errorf("deaths %v, losers' %v; want none", s.Deaths, s.LoserDeaths)
	}
	text.Reset()
	if err := plain.WriteText(&text); err != nil || strings.Contains(text.String(), "died") {
		t.Errorf("table without causes:\n%s (%v)", text.String(), err)
	}
}

// TestGauntletDeathsDoNotDependOnWhereGamesArePlayed: a Bomberman
// tournament counts the same deaths whether its games are played one by
// one (match.Run) or on pools (match.ResultOf).
func TestGauntletDeathsDoNotDependOnWhereGamesArePlayed(t *testing.T) {
	g := Gauntlet{Game: "bomberman/2p", Agents: []Entrant{{"hunter", "hunter"}, {"reference", "reference"}}, Games: 2, Seed: 5}
	want, err := PlayGauntlet(context.Background(), g, &serialRunner{}, nil, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := PlayGauntlet(context.Background(), g, &PoolRunner{EnvsPerWorker: 2}, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("on pools:\n%+v\none by one:\n%+v", got, want)
	}
	sides := want.Pairs[0].Sides
	if sides[0].Deaths.IsZero() || sides[0].SeatGames != 4 || sides[0].Deaths.Total()+sides[1].Deaths.Total() == 0 {
		t.Errorf("sides %+v: want deaths counted over 4 seats each", sides)
	}
}
