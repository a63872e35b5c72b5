package battlebots

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// bout plays one BattleBots bout between the built-in agents a (bot1) and
// b (bot2) and returns the game at its end.
func bout(t testing.TB, a, b string, seed uint64) *Game {
	t.Helper()
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ags := []env.Agent{testutil.Agent(t, "battlebots", a, g.Spec()), testutil.Agent(t, "battlebots", b, g.Spec())}
	testutil.Play(g, ags, seed, func(seat int) uint64 { return seed*2 + uint64(seat) + 1 })
	return g
}

// TestHuggyKnownOutcomes checks the outcomes of spec §7, which were run on
// the original binary.
func TestHuggyKnownOutcomes(t *testing.T) {
	t.Run("huggy_vs_nop", func(t *testing.T) {
		g := bout(t, "huggy", "nop", 1)
		// 6 SE moves to (7,7), then P every round: 0 HP in round 15.
		if b := g.Bot(0); b.X != 7 || b.Y != 7 || b.HP != 0 {
			t.Errorf("huggy %+v, want (7,7) with 0 HP", b)
		}
		if b := g.Bot(1); b.HP != 10 {
			t.Errorf("nop %+v, want 10 HP", b)
		}
		if g.Round() != 16 {
			t.Errorf("the bout ended after %d rounds, want 16 (round 15 is the last)", g.Round())
		}
		if w, _ := g.Outcome(); w != 1 {
			t.Errorf("winner %d, want nop (1)", w)
		}
	})
	t.Run("huggy_vs_huggy2", func(t *testing.T) {
		g, _ := New(DefaultConfig())
		h := Huggy{}
		acts := make([]int32, 2)
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		for range 3 {
			acts[0], acts[1] = h.Act(g, 0), h.Act(g, 1)
			g.Step(acts, rewards, term, trunc)
		}
		if a, b := g.Bot(0), g.Bot(1); a.X != 4 || a.Y != 4 || b.X != 5 || b.Y != 5 {
			t.Errorf("after 3 rounds %+v %+v, want (4,4) and (5,5)", a, b)
		}
		g = bout(t, "huggy", "huggy", 1)
		if w, _ := g.Outcome(); w != 1 || g.Bot(1).HP != 10 || g.Bot(0).HP != 0 {
			t.Errorf("winner %d, HP %d/%d; want huggy2 (bot2) with 10, since only bot1 pays for P", w, g.Bot(0).HP, g.Bot(1).HP)
		}
	})
	t.Run("nop_vs_huggy2", func(t *testing.T) {
		g := bout(t, "nop", "huggy", 1)
		if b := g.Bot(1); b.X != 2 || b.Y != 2 || b.HP != 0 {
			t.Errorf("huggy2 %+v, want (2,2) with 0 HP", b)
		}
		if w, _ := g.Outcome(); w != 0 {
			t.Errorf("winner %d, want nop (0)", w)
		}
	})
}
