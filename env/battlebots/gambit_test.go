package battlebots

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// shortDuel plays one bout of a (bot1) against b (bot2) capped at rounds
// rounds, agent seeds from seed as duel's, and returns the winner (-1 for
// a draw).
func shortDuel(t testing.TB, a, b env.Agent, seed uint64, rounds int) int {
	t.Helper()
	cfg := DefaultConfig()
	cfg.MaxRounds = rounds
	return testutil.Winner(testutil.MustNew(t, New, cfg), []env.Agent{a, b}, seed, func(s int) uint64 { return seed*2 + uint64(s) + 1 })
}

// shortRecord plays a fresh mine in seat against a fresh opp in one bout
// of rounds rounds for each seed below seeds (as shortDuel) and returns
// the bouts mine won and lost.
func shortRecord(t testing.TB, mine, opp func() env.Agent, seat int, seeds uint64, rounds int) (won, lost int) {
	t.Helper()
	for seed := range seeds {
		ags := [2]env.Agent{}
		ags[seat], ags[1-seat] = mine(), opp()
		switch w := shortDuel(t, ags[0], ags[1], seed, rounds); w {
		case seat:
			won++
		case 1 - seat:
			lost++
		}
	}
	return won, lost
}

// TestGambitOpeningBeatsDuelist checks the opening's claim: over 16 fixed
// seeds a seat, in 40-round bouts (the opening's lead is what decides
// them), the gambit wins more bouts against the duelist than it loses and
// wins at least a quarter, from each seat, where the duelist against
// itself wins or loses almost none.
func TestGambitOpeningBeatsDuelist(t *testing.T) {
	for seat := range 2 {
		t.Run("seat"+string(rune('0'+seat)), func(t *testing.T) {
			won, lost := shortRecord(t, func() env.Agent { return &Gambit{} }, func() env.Agent { return &Duelist{} }, seat, 16, 40)
			t.Logf("gambit won %d, lost %d of 16", won, lost)
			if won <= lost || won < 4 {
				t.Errorf("gambit won %d and lost %d of 16 bouts against duelist from seat %d, want more won than lost and at least 4", won, lost, seat)
			}
		})
	}
}

// TestGambitOpensAlongTheDiagonal checks the opening's moves against a
// bot that stands still: two steps along the diagonal from either corner,
// then no more opening moves once the enemy is within 3 cells.
func TestGambitOpensAlongTheDiagonal(t *testing.T) {
	for seat := range 2 {
		g, err := New(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(1)
		a := &Gambit{}
		a.Reset(g, seat, 7)
		want := [2]Action{Move(3), Move(7)}[seat] // SE from (1,1), NW from (8,8)
		acts := make([]int32, 2)
		rw, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
		for r := range 2 {
			acts[seat], acts[1-seat] = a.Act(g, seat), int32(Nothing)
			if Action(acts[seat]) != want {
				t.Errorf("seat %d round %d: gambit played %v, want %v", seat, r, Action(acts[seat]), want)
			}
			g.Step(acts, rw, te, tr)
		}
	}
}
