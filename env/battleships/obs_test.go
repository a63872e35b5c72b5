package battleships

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a row
// per seat kept up to date by UpdateObs, and checks every row against
// WriteObs after every step: over random legal play in every placement
// mode and, with the density plane, on every size, with rows that miss a
// step, rows updated twice, rows whose seat's observation was written
// elsewhere first (so a density plane cached for this version is there
// already), and resets in the middle of a game.
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	for _, cfg := range []*Config{{Size: SizeSmall}, {Size: SizeMedium, Placement: PlacementLearn}, {Size: SizeLarge, Placement: PlacementReference},
		{Size: SizeSmall, Placement: PlacementLearn, DensityPlane: true, ShotMask: true}, {Size: SizeMedium, DensityPlane: true},
		{Size: SizeLarge, Placement: PlacementReference, DensityPlane: true, ShotMask: true},
		{Size: SizeSmall, Placement: PlacementLearn, FleetPlanes: true, DensityPlane: true, ShotMask: true}} {
		for seed := range uint64(6) {
			g := paintNew(t, cfg, seed)
			rng := rand.New(rand.NewPCG(seed, 13))
			rows := testutil.NewObsRows(g, rng)
			elsewhere := g.spec.NewObsBuffers()
			deltas := 0
			rows.Before = func(seat int, have uint64) {
				if have != 0 && have == g.obsFrom {
					deltas++
				}
				if rng.IntN(3) == 0 {
					g.WriteObs(seat, elsewhere)
				}
			}
			step := 0
			paintRandomly(t, g, seed, 200, func() {
				step++
				rows.Sync(t, "%+v seed %d step %d", cfg, seed, step)
				if rng.IntN(150) == 0 {
					g.Reset(rng.Uint64())
				}
			})
			if deltas < 200 {
				t.Errorf("%+v seed %d: only %d of the rows' updates started from the version before the step", cfg, seed, deltas)
			}
		}
	}
}

// TestUpdateObsRewritesOnlyChangedCells: given the version before a Step,
// UpdateObs leaves the bytes of cells that did not change as they are
// (here a byte changed behind its back, which the contract forbids, to
// show it), and writes every byte given 0.
func TestUpdateObsRewritesOnlyChangedCells(t *testing.T) {
	g := phase2(t, &Config{Size: SizeSmall})
	testutil.WantUpdateKeepsUnchanged(t, g, func() {
		step(g, CommandAction(g.n, CodeSingle, 0, 0), CommandAction(g.n, CodeSingle, 0, 0))
	}, PlaneOppUnknown*g.n*g.n+(g.n-1)*g.n+g.n-1) // cell (n-1, n-1), not shot at
}

// TestWriteMaskAllowsOnMapCommands checks the phase-2 masks of random
// games against the commands one by one: a command action is legal exactly
// when its centre is on the map and the engine would carry the command
// out (commandLegal), do nothing always, and nothing else.
func TestWriteMaskAllowsOnMapCommands(t *testing.T) {
	for _, size := range []string{SizeSmall, SizeMedium, SizeLarge} {
		g, err := New(&Config{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		n := g.n
		mask, want := make([]uint8, g.spec.Actions), make([]uint8, g.spec.Actions)
		acts := make([]int32, Seats)
		var r [Seats]float32
		var te, tr [Seats]bool
		for step := range 300 {
			for s := range Seats {
				g.WriteMask(s, mask)
				clear(want)
				want[0] = 1
				if !g.done && !g.players[s].Killed {
					for code := CodeSingle; code <= CodeShield; code++ {
						for x := range n {
							for y := range n {
								if g.commandLegal(s, code) {
									want[CommandAction(n, code, x, y)] = 1
								}
							}
						}
					}
				}
				if !bytes.Equal(mask, want) {
					t.Fatalf("%s step %d seat %d: the mask differs from the commands", size, step, s)
				}
				legal := 0
				for a, m := range mask {
					if m != 0 && rng.IntN(legal+1) == 0 {
						acts[s] = int32(a)
					}
					legal += int(m)
				}
			}
			if g.done {
				g.Reset(uint64(step))
				continue
			}
			g.Step(acts, r[:], te[:], tr[:])
		}
	}
}

// TestUpdateObsShowsAKilledOffFleet: the harness's kill-off of a player
// that did nothing 20 rounds in a row (every ship cell shot at once) shows
// in rows kept by UpdateObs.
func TestUpdateObsShowsAKilledOffFleet(t *testing.T) {
	g := phase2(t, &Config{})
	rows := [Seats][][]byte{g.spec.NewObsBuffers(), g.spec.NewObsBuffers()}
	var have [Seats]uint64
	want := g.spec.NewObsBuffers()
	for k := range DoNothingLimit + 2 {
		step(g, CommandAction(g.n, CodeSingle, k%g.n, 9), 0)
		for s := range Seats {
			have[s] = g.UpdateObs(s, rows[s], have[s])
			g.WriteObs(s, want)
			if !bytes.Equal(rows[s][0], want[0]) {
				t.Fatalf("round %d seat %d: the row differs from WriteObs", k, s)
			}
		}
	}
	if !g.players[1].Killed {
		t.Fatal("the idle player was not killed off")
	}
}

// TestFleetPlanesShowChosenShips: with Config.FleetPlanes a learn-mode
// seat's own-ship planes mark the ships it has chosen this phase-1 round,
// each on its type's plane, before the engine places them; the other
// seat's choices stay hidden; without it the planes are empty until the
// round is processed; once it is, both show the placed fleet alike.
func TestFleetPlanesShowChosenShips(t *testing.T) {
	fleet := []struct {
		x, y int
		d    Direction
	}{{0, 0, North}, {6, 6, West}, {2, 2, East}, {0, 4, East}, {6, 0, North}} // Submarine .. Cruiser on 7×7
	cells := func(k int) map[[2]int]bool {
		m := map[[2]int]bool{}
		for a := range ShipType(k).Len() {
			m[[2]int{fleet[k].x + dirDX[fleet[k].d]*a, fleet[k].y + dirDY[fleet[k].d]*a}] = true
		}
		return m
	}
	for _, on := range []bool{false, true} {
		g, err := New(&Config{Size: SizeSmall, Placement: PlacementLearn, FleetPlanes: on})
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(1)
		n := g.n
		obs := g.spec.NewObsBuffers()
		for k := range NumShips {
			g.WriteObs(0, obs)
			for p := range NumShips {
				for y := range n {
					for x := range n {
						want := on && p < k && cells(p)[[2]int{x, y}]
						if got := obs[0][(PlaneOwnSubmarine+p)*n*n+y*n+x] == 1; got != want {
							t.Fatalf("fleet_planes %v, %d ships chosen: plane %d at (%d, %d) = %v, want %v", on, k, p, x, y, got, want)
						}
					}
				}
			}
			g.WriteObs(1, obs)
			for i := range NumShips * n * n {
				if obs[0][i] != 0 {
					t.Fatalf("fleet_planes %v: seat 1, which has chosen nothing, shows a ship byte at %d", on, i)
				}
			}
			f := fleet[k]
			step(g, PlaceAction(n, f.x, f.y, f.d), 0)
		}
		// Seat 1 did nothing: the round failed for it and both maps were wiped.
		g.WriteObs(0, obs)
		for i := range NumShips * n * n {
			if obs[0][i] != 0 {
				t.Fatalf("fleet_planes %v: after the failed round the planes still show a ship byte at %d", on, i)
			}
		}
	}
}
