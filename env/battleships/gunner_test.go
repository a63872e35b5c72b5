package battleships

import (
	"testing"

	"github.com/botarena/botarena/env"
)

// TestGunnerSpecials checks case by case on the medium map, at the start
// of phase 2 (no shots yet: the density in the middle of the map gives
// every special more expected hits than the best single shot, by more than
// hunter's price), which command the gunner and the hunter fire: the
// gunner the diagonal cross as soon as it has the energy for it and its
// battleship is afloat, and no other special (a corner shot or a cross
// where hunter fires one).
func TestGunnerSpecials(t *testing.T) {
	n := 10
	corner, diag := WeaponCost(CornerShot, n), WeaponCost(DiagonalCrossShot, n)
	for _, tc := range []struct {
		name   string
		energy int
		sunk   []ShipType // the seat's own ships sunk: their weapons are gone
		gunner int        // the code the gunner fires
		hunter int
	}{
		{"no energy", 0, nil, CodeSingle, CodeSingle},
		{"the corner shot's energy", corner, nil, CodeSingle, CodeCorner},
		{"one short of the diagonal cross", diag - 1, nil, CodeSingle, CodeCorner},
		{"the diagonal cross's energy", diag, nil, CodeDiagonalCross, CodeDiagonalCross},
		{"plenty", 400, nil, CodeDiagonalCross, CodeDiagonalCross},
		{"carrier sunk", diag, []ShipType{Carrier}, CodeDiagonalCross, CodeDiagonalCross},
		{"battleship sunk, plenty", 400, []ShipType{Battleship}, CodeSingle, CodeCross},
		{"carrier and battleship sunk, plenty", 400, []ShipType{Carrier, Battleship}, CodeSingle, CodeCross},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, who := range []struct {
				name string
				a    env.Agent
				want int
			}{{"gunner", NewGunner(), tc.gunner}, {"hunter", &Hunter{}, tc.hunter}} {
				g := phase2(t, &Config{})
				p := &g.players[0]
				p.Energy = tc.energy
				for _, k := range tc.sunk {
					s := p.Ships[k]
					p.Ships[k].Destroyed = true
					for c := range k.Len() {
						p.cells[(int(s.X)+dirDX[s.Dir]*c)*g.n+int(s.Y)+dirDY[s.Dir]*c].Hit = true
					}
				}
				who.a.Reset(g, 0, 3)
				if d := decode(n, who.a.Act(g, 0)); d.code != who.want {
					t.Errorf("%s fired code %d at (%d,%d), want code %d", who.name, d.code, d.x, d.y, who.want)
				}
			}
		})
	}
}

// TestGunnerFiresOnlyItsPatterns plays the gunner against the reference
// bot on every size: it wins, fires diagonal crosses and no other special,
// and places as the marksman does (the same fleet from the same seed).
func TestGunnerFiresOnlyItsPatterns(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			wins, specials := 0, 0
			for seed := range uint64(10) {
				g, err := New(&Config{Size: size, Placement: PlacementLearn})
				if err != nil {
					t.Fatal(err)
				}
				g.Reset(seed)
				a, m, r := NewGunner(), NewMarksman(), &Reference{}
				a.Reset(g, 0, seed+100)
				m.Reset(g, 0, seed+100)
				r.Reset(g, 1, seed+200)
				acts, rew := make([]int32, 2), make([]float32, 2)
				term, trunc := make([]bool, 2), make([]bool, 2)
				n := g.Size()
				for !g.Done() {
					acts[0], acts[1] = a.Act(g, 0), r.Act(g, 1)
					if g.Phase() == 1 {
						if b := m.Act(g, 0); b != acts[0] {
							t.Fatalf("seed %d: gunner places %d, marksman %d", seed, acts[0], b)
						}
					}
					switch d := decode(n, acts[0]); d.code {
					case CodeDiagonalCross:
						specials++
					case CodeDoubleVertical, CodeDoubleHorizontal, CodeCorner, CodeCross, CodeSeeker:
						t.Fatalf("seed %d: gunner fired code %d", seed, d.code)
					}
					g.Step(acts, rew, term, trunc)
				}
				if p := g.Player(0); p.ShipsRemaining() > 0 {
					wins++
				}
			}
			t.Logf("gunner won %d/10, %.1f specials a game", wins, float64(specials)/10)
			if wins < 8 || specials < 5 {
				t.Errorf("gunner won %d of 10 with %d specials, want at least 8 and 5", wins, specials)
			}
		})
	}
}
