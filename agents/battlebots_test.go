package agents

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/internal/testutil"
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
	testutil.Play(g, ags[:], seed, func(seat int) uint64 { return seed*2 + uint64(seat) + 1 })
	return g
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
	for _, name := range []string{"nop", "huggy", "sniper", "random", "tactician"} {
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
