package battleships

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestDestroyedFlagsEqualFullPass checks the ships' Destroyed flags, which
// updateDestroyed refreshes only for the ships under the cells a Step
// touched, against the full pass (placed, and every cell hit) after every
// step of long random games in every placement mode: weapons, shields,
// phase-1 failures of learn mode, do-nothing kills, resets.
func TestDestroyedFlagsEqualFullPass(t *testing.T) {
	for _, cfg := range []*Config{{Size: SizeSmall}, {Size: SizeMedium}, {Size: SizeMedium, Placement: PlacementLearn}, {Size: SizeLarge, Placement: PlacementReference}} {
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, uint64(len(cfg.Size))))
		mask := make([]uint8, g.spec.Actions)
		var acts [Seats]int32
		var r [Seats]float32
		var te, tr [Seats]bool
		for step := range 20000 {
			if g.done || rng.IntN(400) == 0 {
				g.Reset(rng.Uint64())
			}
			for s := range Seats {
				switch g.WriteMask(s, mask); {
				case rng.IntN(8) == 0:
					acts[s] = 0 // do nothing: some seats reach the do-nothing limit
				case rng.IntN(50) == 0:
					acts[s] = int32(rng.IntN(g.spec.Actions)) // anything, legal or not
				default:
					acts[s] = testutil.RandomLegal(rng, mask)
				}
			}
			g.Step(acts[:], r[:], te[:], tr[:])
			for s := range Seats {
				p := &g.players[s]
				for k := range p.Ships {
					want := p.Ships[k].Placed && g.allHit(p, ShipType(k))
					if p.Ships[k].Destroyed != want {
						t.Fatalf("%+v step %d: seat %d ship %v Destroyed %v, the full pass says %v", cfg, step, s, ShipType(k), p.Ships[k].Destroyed, want)
					}
				}
			}
		}
	}
}
