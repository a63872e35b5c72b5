package portalbomber

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// raiderGame plays one portalbomber game, the raider in seat against
// other, checking that no move of the raider steps onto a cell deadly at
// the next round end; it returns the game and the raider.
func raiderGame(t *testing.T, seat int, other string, seed uint64) (*Game, *Raider) {
	t.Helper()
	e, err := env.Make("portalbomber", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := e.(*Game)
	r := &Raider{}
	agents := [Seats]env.Agent{}
	agents[seat] = r
	agents[1-seat] = testutil.Agent(t, "portalbomber", other, e.Spec())
	g.Reset(seed)
	for s, a := range agents {
		a.Reset(g, s, seed*31+uint64(s))
	}
	var acts [Seats]int32
	var rew [Seats]float32
	var term, trunc [Seats]bool
	var fc [MaxCells]uint16
	n := g.Size()
	for !g.Done() {
		for s, a := range agents {
			acts[s] = a.Act(g, s)
		}
		if m := Action(acts[seat]); m >= MoveLeft && m <= MoveDown && g.ToMove() == seat {
			p := g.Player(seat)
			x, y := p.X+dirDX[m-MoveLeft], p.Y+dirDY[m-MoveLeft]
			g.Forecast(fc[:], 1)
			if walkable(g, seat, x, y) && fc[y*n+x]&1 != 0 {
				t.Fatalf("seed %d move %d: the raider steps into a blast at (%d,%d)", seed, g.MoveNumber(), x, y)
			}
		}
		g.Step(acts[:], rew[:], term[:], trunc[:])
	}
	return g, r
}

// TestRaiderBeatsTheReferenceFromEverySeat: against practice (the
// reference) the raider wins at least 80% of 20 fixed seeds per seat, and
// against greedy at least 60% (it wins about 78% over 60 games); it never
// steps into a blast.
func TestRaiderBeatsTheReferenceFromEverySeat(t *testing.T) {
	for _, tc := range []struct {
		other string
		min   int
	}{{"practice", 16}, {"greedy", 12}} {
		for seat := range Seats {
			t.Run(fmt.Sprintf("%s/seat%d", tc.other, seat), func(t *testing.T) {
				wins := 0
				for seed := range uint64(20) {
					g, _ := raiderGame(t, seat, tc.other, 500+seed)
					if w, draw := g.Outcome(); !draw && w == seat {
						wins++
					}
				}
				if wins < tc.min {
					t.Errorf("the raider won %d of 20", wins)
				}
			})
		}
	}
}

func TestRaiderDeterministicAndAllocationFree(t *testing.T) {
	e, _ := env.Make("portalbomber", nil)
	g := e.(*Game)
	r := testutil.Agent(t, "portalbomber", "raider", e.Spec())
	p := testutil.Agent(t, "portalbomber", "greedy", e.Spec())
	a := testutil.Play(e, []env.Agent{r, p}, 7, func(s int) uint64 { return uint64(s) })
	b := testutil.Play(e, []env.Agent{r, p}, 7, func(s int) uint64 { return uint64(s) })
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("traces differ")
	}
	g.Reset(3)
	r.Reset(g, g.ToMove(), 1)
	if n := testing.AllocsPerRun(20, func() { r.Act(g, g.ToMove()) }); n != 0 {
		t.Errorf("%v allocations per Act", n)
	}
}
