package agents

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
)

// bout plays one BattleBots bout between agents a (bot1) and b (bot2) and
// returns the game at its end.
func bout(t testing.TB, a, b string, seed uint64) *battlebots.Game {
	t.Helper()
	g, err := battlebots.New(battlebots.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var ags [2]env.Agent
	for seat, name := range [2]string{a, b} {
		if ags[seat], err = New("battlebots", name, g.Spec()); err != nil {
			t.Fatal(err)
		}
	}
	g.Reset(seed)
	for seat, ag := range ags {
		ag.Reset(g, seat, seed*2+uint64(seat)+1)
	}
	acts := make([]int32, 2)
	rewards := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	for !g.Done() {
		acts[0], acts[1] = ags[0].Act(g, 0), ags[1].Act(g, 1)
		g.Step(acts, rewards, term, trunc)
	}
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
		g, _ := battlebots.New(battlebots.DefaultConfig())
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

// TestSniperWins plays the sniper against huggy and random from both seats
// and requires it to win most bouts.
func TestSniperWins(t *testing.T) {
	for _, opp := range []string{"huggy", "random", "nop"} {
		for seat := range 2 {
			name := "sniper_as_bot1_vs_" + opp
			if seat == 1 {
				name = "sniper_as_bot2_vs_" + opp
			}
			t.Run(name, func(t *testing.T) {
				const n = 100
				wins := 0
				for i := range n {
					a, b := "sniper", opp
					if seat == 1 {
						a, b = b, a
					}
					g := bout(t, a, b, uint64(i))
					if w, _ := g.Outcome(); w == seat {
						wins++
					}
				}
				t.Logf("sniper wins %d of %d", wins, n)
				if wins*10 < n*8 {
					t.Errorf("sniper won %d of %d, want at least 80%%", wins, n)
				}
			})
		}
	}
}

func TestBattlebotsAgentsDoNotAllocate(t *testing.T) {
	g, _ := battlebots.New(battlebots.DefaultConfig())
	for _, name := range []string{"nop", "huggy", "sniper", "random"} {
		a, err := New("battlebots", name, g.Spec())
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(0)
		a.Reset(g, 0, 1)
		var e env.Env = g
		acts := make([]int32, 2)
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		if n := testing.AllocsPerRun(200, func() {
			acts[0] = a.Act(e, 0)
			acts[1] = int32(battlebots.Bullet(battlebots.NW))
			g.Step(acts, rewards, term, trunc)
			if g.Done() {
				g.Reset(0)
			}
		}); n != 0 {
			t.Errorf("%s allocates %v times per Act", name, n)
		}
	}
	if _, err := New("battlebots", "sniper", &env.Spec{Game: "bomberman"}); err == nil {
		t.Error("the sniper accepted bomberman")
	}
}
