package bomberman

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestDeathCauseIsTheOwnerOfTheBlastsThatKilled: a player killed in a round
// died by the bombs whose blasts reached its cell that round: its own, an
// opponent's, or both; a survivor is alive; a chain is not followed back
// to the bomb that set it off.
func TestDeathCauseIsTheOwnerOfTheBlastsThatKilled(t *testing.T) {
	type bomb struct{ owner, x, y, radius, timer int }
	for _, tc := range []struct {
		name    string
		rows    []string
		bombs   []bomb
		actions []Action // one round
		want    []string // per seat
	}{
		{"both_alive", []string{"A...B"}, nil, nil, []string{"alive", "alive"}},
		{"own_bomb_under_the_player", []string{"A...B"}, []bomb{{0, 1, 1, 1, 1}}, nil,
			[]string{"own bomb", "alive"}},
		{"opponents_bomb_under_the_player", []string{"A...B"}, []bomb{{1, 1, 1, 1, 1}}, nil,
			[]string{"opponent's bomb", "alive"}},
		// A blast stops at another bomb's cell, so the player stands
		// between the two bombs, on none.
		{"own_and_opponents_bomb_reach_together", []string{".A..B"}, []bomb{{0, 1, 1, 1, 1}, {1, 3, 1, 1, 1}}, nil,
			[]string{"own and opponent's bomb", "alive"}},
		{"own_bomb_sets_off_the_opponents_that_kills", []string{"A...B"}, []bomb{{1, 2, 1, 1, 9}, {0, 3, 1, 1, 1}}, nil,
			[]string{"opponent's bomb", "alive"}},
		{"walks_into_the_opponents_blast", []string{"A.B"}, []bomb{{1, 3, 1, 1, 1}}, []Action{MoveRight},
			[]string{"opponent's bomb", "own bomb"}},
		{"both_killed_by_their_own", []string{"A...B"}, []bomb{{0, 1, 1, 1, 1}, {1, 5, 1, 1, 1}}, nil,
			[]string{"own bomb", "own bomb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := board(t, tc.rows...)
			for _, b := range tc.bombs {
				addBomb(t, g, b.owner, b.x, b.y, b.radius, b.timer)
			}
			step(t, g, tc.actions...)
			for seat, want := range tc.want {
				if got := g.DeathCauses()[g.DeathCause(seat)]; got != want {
					t.Errorf("seat %d: %q (killed %v), want %q", seat, got, g.players[seat].Killed, want)
				}
			}
		})
	}
}

// TestDeathCauseOfAPlayerLoadedDeadIsUnknown: a state file says a player
// is dead, not what killed it, so a loaded dead player died of an unknown
// cause, even in a game whose record said otherwise; Reset makes every
// player alive again.
func TestDeathCauseOfAPlayerLoadedDeadIsUnknown(t *testing.T) {
	g := board(t, "A...B")
	addBomb(t, g, 0, 1, 1, 1, 1)
	step(t, g)
	if c := g.DeathCause(0); c != deathOwnBomb {
		t.Fatalf("before loading: cause %d, want own bomb", c)
	}
	testutil.Reload(t, g, -1)
	if got := g.DeathCauses()[g.DeathCause(0)]; got != "unknown" {
		t.Errorf("loaded dead: %q, want unknown", got)
	}
	if got := g.DeathCauses()[g.DeathCause(1)]; got != "alive" {
		t.Errorf("loaded alive: %q, want alive", got)
	}
	h, err := New(&Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	h.killedBy[0], h.players[0].Killed = deathOwnBomb, true
	h.Reset(1)
	if c := h.DeathCause(0); c != deathAlive || h.killedBy[0] != 0 {
		t.Errorf("after Reset: cause %d, record %d; want alive and none", c, h.killedBy[0])
	}
}

// TestDeathCauseDoesNotAllocate: reading a cause allocates nothing.
func TestDeathCauseDoesNotAllocate(t *testing.T) {
	g := board(t, "A...B")
	addBomb(t, g, 0, 1, 1, 1, 1)
	step(t, g)
	if n := testing.AllocsPerRun(100, func() { g.DeathCause(0); g.DeathCause(1) }); n != 0 {
		t.Errorf("DeathCause allocates %v times", n)
	}
}
