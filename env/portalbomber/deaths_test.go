package portalbomber

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestDeathCauseIsTheOwnerOfTheTrailsThatKilled: a player that dies died by
// the owners of the trails on its cell: its own bomb's, the opponent's,
// both, or the apocalypse's fire; a survivor is alive.
func TestDeathCauseIsTheOwnerOfTheTrailsThatKilled(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(g *Game)
		p0     []Action
		rounds int
		want   [Seats]string
	}{
		{"both_alive", func(*Game) {}, nil, 6, [Seats]string{"alive", "alive"}},
		{"own_bomb_on_the_start_cell", func(*Game) {}, []Action{PlaceBomb}, 5, [Seats]string{"own bomb", "alive"}},
		{"opponents_bomb_next_to_the_player", func(g *Game) { g.addBomb(2, 1, 1) }, nil, 6, [Seats]string{"opponent's bomb", "alive"}},
		{"own_and_opponents_bomb_together", func(g *Game) { g.addBomb(2, 1, 1); g.addBomb(1, 2, 0) }, nil, 6,
			[Seats]string{"own and opponent's bomb", "alive"}},
		{"apocalypse_fire", func(*Game) {}, nil, 300, [Seats]string{"fire", "fire"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := bare(t)
			tc.setup(g)
			play(t, g, tc.p0, nil).rounds(tc.rounds)
			for seat, want := range tc.want {
				if got := g.DeathCauses()[g.DeathCause(seat)]; got != want {
					t.Errorf("seat %d: %q (alive %v), want %q", seat, got, g.Player(seat).Alive, want)
				}
			}
		})
	}
}

// TestDeathCauseOfAPlayerLoadedDeadIsUnknown: a state file says a player
// is dead, not what killed it; Reset makes every player alive again.
func TestDeathCauseOfAPlayerLoadedDeadIsUnknown(t *testing.T) {
	g := bare(t)
	play(t, g, []Action{PlaceBomb}, nil).rounds(5)
	if c := g.DeathCause(0); c != deathOwnBomb {
		t.Fatalf("before loading: cause %d, want own bomb", c)
	}
	testutil.Reload(t, g, 1)
	if got := g.DeathCauses()[g.DeathCause(0)]; got != "unknown" {
		t.Errorf("loaded dead: %q, want unknown", got)
	}
	g.Reset(1)
	if c := g.DeathCause(0); c != deathAlive || g.killedBy[0] != 0 {
		t.Errorf("after Reset: cause %d, record %d; want alive and none", c, g.killedBy[0])
	}
}
