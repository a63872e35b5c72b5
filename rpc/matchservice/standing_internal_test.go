package matchservice

import (
	"reflect"
	"testing"

	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
)

// TestResultsKeepFaultsOverTheWire: a game's per-seat fault counts survive
// the PlayResponse a remote runner receives, and a seat without faults
// sends none.
func TestResultsKeepFaultsOverTheWire(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults match.Faults
	}{
		{"no_faults", match.Faults{}},
		{"every_kind", match.Faults{TimedOut: 3, Crashed: 2, Invalid: 1}},
		{"timed_out_only", match.Faults{TimedOut: 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := league.GameLine{Index: 4, Seed: 9, Rounds: 30, Winner: 0, Forfeit: -1, Standings: []league.StandingLine{
				{Seat: 0, Agent: "sniper", Rank: 1, Score: 10, Alive: true},
				{Seat: 1, Agent: "bot", Rank: 2, Score: 3, Faults: tc.faults},
			}}.Record().Result
			if got := r.SeatFaultsOf(1); got != tc.faults {
				t.Fatalf("seat 1's faults %+v, want %+v", got, tc.faults)
			}
			resp := playResponse(r)
			if got := resp.GetStandings()[0].GetFaults(); got != nil {
				t.Fatalf("a built-in agent's standing sends faults %v", got)
			}
			if sent := resp.GetStandings()[1].GetFaults() != nil; sent != (tc.faults != match.Faults{}) {
				t.Fatalf("faults %+v sent: %v", tc.faults, sent)
			}
			if back := leagueResult(resp); !reflect.DeepEqual(back, r) {
				t.Fatalf("round trip:\n%+v\nwant\n%+v", back, r)
			}
		})
	}
}

// TestResultsKeepDeathCausesOverTheWire: each seat's death cause survives
// the PlayResponse a remote runner receives, and a game that does not say
// ("") sends none.
func TestResultsKeepDeathCausesOverTheWire(t *testing.T) {
	for _, loser := range []string{"", "own bomb", "opponent's bomb", "own and opponent's bomb", "unknown"} {
		winner := "alive"
		if loser == "" {
			winner = ""
		}
		r := league.GameLine{Index: 2, Seed: 5, Rounds: 90, Winner: 1, Forfeit: -1, Standings: []league.StandingLine{
			{Seat: 1, Agent: "hunter", Rank: 1, Score: 30, Alive: true, Death: winner},
			{Seat: 0, Agent: "reference", Rank: 2, Score: -70, Death: loser},
		}}.Record().Result
		resp := playResponse(r)
		if got := resp.GetStandings()[1].GetDeath(); got != loser {
			t.Errorf("the loser's death %q sent as %q", loser, got)
		}
		if back := leagueResult(resp); !reflect.DeepEqual(back, r) {
			t.Errorf("round trip of %q:\n%+v\nwant\n%+v", loser, back, r)
		}
	}
}
