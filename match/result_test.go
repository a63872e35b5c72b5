package match_test

import (
	"encoding/json"
	"testing"

	"github.com/botarena/botarena/match"
)

// TestResultJSONReadsBackAsWritten: a result line as play --json prints it
// (the game's own leaderboard fields, actions, death causes or none, a
// forfeit, faults, no winner, a fingerprint) reads back as a match.Result that writes the same
// line, field for field and in order.
func TestResultJSONReadsBackAsWritten(t *testing.T) {
	for _, tc := range []struct{ name, line string }{
		{"game_fields_and_actions", `{"game":"battlebots","seed":3,"rounds":16,"winner":1,"draw":false,"leaderboard":[` +
			`{"rank":1,"seat":1,"agent":"nop","name":"Nop","score":10,"alive":true,"hp":10,"x":8,"y":8,"actions":{"nothing":16,"move":0,"bullet":0,"missile":0,"mine":0,"emp":0}},` +
			`{"rank":2,"seat":0,"agent":"huggy","name":"Huggy","score":0,"alive":false,"hp":0,"x":7,"y":7,"actions":{"nothing":0,"move":6,"bullet":0,"missile":0,"mine":0,"emp":10}}]}`},
		{"forfeit_and_faults", `{"game":"g","seed":1,"rounds":2,"winner":1,"draw":false,"leaderboard":[` +
			`{"rank":1,"seat":1,"agent":"cmd:./bot","name":"","score":0,"alive":true},{"rank":2,"seat":0,"agent":"panics","name":"","score":4,"alive":true}],` +
			`"forfeit":{"seat":0,"agent":"panics","round":2,"reason":"the agent panicked: boom"},"faults":[{"seat":1,"agent":"cmd:./bot","timed_out":1,"crashed":0,"invalid":2}]}`},
		{"death_causes_after_alive_before_game_fields", `{"game":"bomberman/2p","seed":5,"rounds":40,"winner":1,"draw":false,"leaderboard":[` +
			`{"rank":1,"seat":1,"agent":"hunter","name":"Player B","score":30,"alive":true,"death":"alive","points":30,"actions":{"nothing":1,"move":37,"bomb":2,"trigger":0}},` +
			`{"rank":2,"seat":0,"agent":"reference","name":"Player A","score":-70,"alive":false,"death":"own bomb","points":-70,"actions":{"nothing":10,"move":28,"bomb":2,"trigger":0}}]}`},
		{"draw_without_winner_with_fingerprint", `{"game":"g","seed":18446744073709551615,"rounds":0,"winner":null,"draw":true,"leaderboard":[],"fingerprint":"18446744073709551615"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := match.ParseResult(json.RawMessage(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(r)
			if err != nil || string(out) != tc.line {
				t.Errorf("read and written:\n%s (%v)\nwant\n%s", out, err, tc.line)
			}
		})
	}
}

// TestResultReadsTheLeaguesNoWinner: a winner written as -1 (as league
// records have it) reads as no winner.
func TestResultReadsTheLeaguesNoWinner(t *testing.T) {
	r, err := match.ParseResult(json.RawMessage(`{"winner":-1,"leaderboard":[]}`))
	if err != nil || r.Winner != -1 {
		t.Errorf("winner %d, %v; want -1", r.Winner, err)
	}
}

// TestForfeitSeatIsTheForfeitingSeatOrNone: ForfeitSeat is the seat of
// the result's forfeit, -1 without one.
func TestForfeitSeatIsTheForfeitingSeatOrNone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		forfeit *match.Forfeit
		want    int
	}{
		{"no_forfeit", nil, -1},
		{"seat_0", &match.Forfeit{Seat: 0}, 0},
		{"seat_3", &match.Forfeit{Seat: 3, Agent: "panics", Round: 7}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := match.Result{Forfeit: tc.forfeit}
			if got := r.ForfeitSeat(); got != tc.want {
				t.Errorf("ForfeitSeat = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestStandingDeathIsAbsentWhenTheGameDoesNotSay: a standing without a
// death cause writes no "death" key, and one with a cause writes it right
// after "alive"; both read back as written.
func TestStandingDeathIsAbsentWhenTheGameDoesNotSay(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    match.Standing
		want string
	}{
		{"no_cause", match.Standing{Rank: 1, Alive: true},
			`{"rank":1,"seat":0,"agent":"","name":"","score":0,"alive":true}`},
		{"survived", match.Standing{Rank: 1, Alive: true, Death: "alive"},
			`{"rank":1,"seat":0,"agent":"","name":"","score":0,"alive":true,"death":"alive"}`},
		{"opponents_bomb", match.Standing{Rank: 2, Seat: 1, Death: "opponent's bomb", Extra: []match.Field{{Name: "x", Value: 3}}},
			`{"rank":2,"seat":1,"agent":"","name":"","score":0,"alive":false,"death":"opponent's bomb","x":3}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.s)
			if err != nil || string(data) != tc.want {
				t.Fatalf("Marshal = %s, %v; want %s", data, err, tc.want)
			}
			var back match.Standing
			if err := json.Unmarshal(data, &back); err != nil || back.Death != tc.s.Death {
				t.Errorf("read back death %q, %v; want %q", back.Death, err, tc.s.Death)
			}
		})
	}
}
