package portalbomber

import "testing"

// TestFireBurnsABoughtBlock: a block bought on a cell that holds nothing
// but fire burns at the round's end, as on any trail cell.
func TestFireBurnsABoughtBlock(t *testing.T) {
	g := bare(t)
	g.placeTrail(FireOwner, 2, 1, TrailFire)
	g.players[0].Coins = 100
	g.players[0].Orientation = Right
	m := play(t, g, []Action{BuyBlock}, nil)
	m.step()
	if !g.Soft(2, 1) {
		t.Fatal("no block was bought at (2,1)")
	}
	m.rounds(1)
	if g.Soft(2, 1) {
		t.Error("the block bought on fire at (2,1) stands after the round's end")
	}
}

// TestFireBurnsSoftBlocks: soft blocks set on fire burn at the next trail
// step, a few (listed in Game.fireSoft) or more than it lists.
func TestFireBurnsSoftBlocks(t *testing.T) {
	for _, k := range []int{2, len(Game{}.fireSoft) + 2} {
		g := bare(t)
		var cells []int
		for i := 0; i < g.n*g.n && len(cells) < k; i++ {
			x, y := i%g.n, i/g.n
			if c := &g.cells[i]; !c.hard && !c.soft && g.query(x, y) == cEmpty {
				c.soft = true
				cells = append(cells, i)
			}
		}
		for _, i := range cells {
			g.placeTrail(FireOwner, i%g.n, i/g.n, TrailFire)
		}
		if overflow := g.nFireSoft < 0; overflow != (k > len(g.fireSoft)) {
			t.Fatalf("%d soft blocks set on fire: nFireSoft %d", k, g.nFireSoft)
		}
		g.trailStep()
		for _, i := range cells {
			if g.cells[i].soft {
				t.Errorf("%d soft blocks set on fire: the one at %d stands after the trail step", k, i)
			}
		}
	}
}
