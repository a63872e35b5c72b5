package battleships

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// match plays one game of a (seat 0) against b (seat 1) on size with
// placement and returns the winner (-1 for a draw) and the game.
func match(t testing.TB, size, placement string, a, b env.Agent, seed uint64) (int, *Game) {
	t.Helper()
	g, err := New(&Config{Size: size, Placement: placement})
	if err != nil {
		t.Fatal(err)
	}
	// Agent seeds seed*2+1 and seed*2+2.
	return testutil.Winner(g, []env.Agent{a, b}, seed, func(s int) uint64 { return seed*2 + uint64(s) + 1 }), g
}

var sizes = []string{SizeSmall, SizeMedium, SizeLarge}

// TestHunterBeatsReference checks that the hunter wins at least 80% of 20
// fixed seeds against the reference bot from each seat on every size,
// with the random placer and with each bot placing its own fleet.
func TestHunterBeatsReference(t *testing.T) {
	for _, size := range sizes {
		for _, placement := range []string{PlacementRandom, PlacementLearn} {
			for seat := range Seats {
				t.Run(size+"_"+placement+"_seat"+string(rune('0'+seat)), func(t *testing.T) {
					wins, shots := 0, 0
					for seed := range uint64(20) {
						ags := [2]env.Agent{}
						ags[seat], ags[1-seat] = &Hunter{}, &Reference{}
						w, g := match(t, size, placement, ags[0], ags[1], seed)
						if w == seat {
							wins++
						}
						shots += g.Player(seat).ShotsFired
					}
					t.Logf("hunter won %d/20, %.1f shots a game", wins, float64(shots)/20)
					if wins < 16 {
						t.Errorf("hunter won %d of 20 games, want at least 16", wins)
					}
				})
			}
		}
	}
}

// placeFleets plays phase 1 of a learn game on size, the game reset with
// seed, with a in seat 0 (seeded seed) and b in seat 1 (seeded seedB), and
// returns each seat's fleet as placed (Placed and Destroyed cleared) and
// the game.
func placeFleets(t testing.TB, size string, a, b env.Agent, seed, seedB uint64) (fleets [Seats][NumShips]Ship, g *Game) {
	t.Helper()
	g = testutil.MustNew(t, New, &Config{Size: size, Placement: PlacementLearn})
	g.Reset(seed)
	a.Reset(g, 0, seed)
	b.Reset(g, 1, seedB)
	acts, rew := make([]int32, 2), make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	for g.Phase() == 1 && !g.Done() {
		acts[0], acts[1] = a.Act(g, 0), b.Act(g, 1)
		g.Step(acts, rew, term, trunc)
	}
	for s := range Seats {
		fleets[s] = g.Player(s).Ships
		for k := range fleets[s] {
			fleets[s][k].Placed, fleets[s][k].Destroyed = false, false
		}
	}
	return fleets, g
}

// TestHunterPlacement checks that the hunter's own fleet (learn placement)
// is legal and differs across seeds on every size.
func TestHunterPlacement(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			seen := map[[NumShips]Ship]bool{}
			for seed := range uint64(20) {
				fleets, g := placeFleets(t, size, &Hunter{}, &Hunter{}, seed, seed+100)
				for s, fleet := range fleets {
					p := g.Player(s)
					if p.Failed != 0 || !ValidFleet(&fleet, g.Size()) {
						t.Fatalf("seed %d seat %d: placement failed (%d failures) or illegal: %+v", seed, s, p.Failed, fleet)
					}
					seen[fleet] = true
				}
			}
			if len(seen) < 40 {
				t.Errorf("%d distinct fleets over 40 placements, want 40", len(seen))
			}
		})
	}
}

// TestHunterFiresNextToHit checks that after its first hit on a ship still
// afloat the hunter's next command covers a cell next to the hit.
func TestHunterFiresNextToHit(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			checked := 0
			for seed := range uint64(10) {
				g, _ := New(&Config{Size: size})
				g.Reset(seed)
				h, r := &Hunter{}, &Reference{}
				h.Reset(g, 0, seed)
				r.Reset(g, 1, seed)
				acts, rew := make([]int32, 2), make([]float32, 2)
				term, trunc := make([]bool, 2), make([]bool, 2)
				n := g.Size()
				for !g.Done() {
					acts[0], acts[1] = h.Act(g, 0), r.Act(g, 1)
					hx, hy, hits := 0, 0, 0
					for x := range n {
						for y := range n {
							if d, _, _ := g.Seen(0, x, y); d {
								hx, hy, hits = x, y, hits+1
							}
						}
					}
					opp := g.Player(1)
					if hits == 1 && !opp.Ships[g.At(1, hx, hy).Ship-1].Destroyed {
						d := decode(n, acts[0])
						near := false
						if d.code == CodeSeeker {
							near = abs(d.x-hx)+abs(d.y-hy) <= 2
						} else {
							for _, o := range patterns[d.code] {
								if abs(d.x+o[0]-hx)+abs(d.y+o[1]-hy) == 1 {
									near = true
								}
							}
						}
						if !near {
							t.Errorf("seed %d: after a hit at (%d,%d) it fired code %d at (%d,%d)", seed, hx, hy, d.code, d.x, d.y)
						}
						checked++
						break
					}
					g.Step(acts, rew, term, trunc)
				}
			}
			if checked == 0 {
				t.Fatal("no game reached a first hit")
			}
		})
	}
}

// TestHunterActAllocations checks that Act does not allocate.
func TestHunterActAllocations(t *testing.T) {
	g, _ := New(&Config{Size: SizeLarge})
	h, r := &Hunter{}, &Reference{}
	h.Reset(g, 0, 1)
	r.Reset(g, 1, 2)
	allocs := testutil.ActAllocs(g, []env.Agent{h, r}, 30, func() {
		g.Reset(3)
		h.Reset(g, 0, 1)
		r.Reset(g, 1, 2)
	})
	if allocs != 0 {
		t.Errorf("Act allocates %v times per round, want 0", allocs)
	}
}

// shotChecker is a Hunter that counts the single shots it fires at cells
// its view already shows as shot.
type shotChecker struct {
	Hunter
	repeat int
}

func (c *shotChecker) Act(e env.Env, seat int) int32 {
	a := c.Hunter.Act(e, seat)
	g := e.(*Game)
	if d := decode(g.n, a); d.kind == actCommand && d.code == CodeSingle && g.Phase() == 2 {
		if damaged, missed, _ := g.Seen(seat, d.x, d.y); damaged || missed {
			c.repeat++
		}
	}
	return a
}

// TestHunterNeverShootsAShotCellAgain: when every placement of a ship
// still afloat is ruled out (hits put down to the wrong sunk ship, as when
// ships touch end to end), the hunter fires at an unshot cell, never again
// at a shot one that only its tie-breaking noise preferred.
func TestHunterNeverShootsAShotCellAgain(t *testing.T) {
	for _, size := range sizes {
		c := &shotChecker{}
		for seed := range uint64(40) {
			match(t, size, PlacementLearn, c, &Reference{}, seed)
		}
		if c.repeat > 0 {
			t.Errorf("%s: the hunter fired %d single shots at cells already shot", size, c.repeat)
		}
	}
}
