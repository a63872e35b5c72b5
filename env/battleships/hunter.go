package battleships

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newHunterAgent is the factory of the "hunter" agent.
var newHunterAgent = env.GameAgent("battleships", "hunter", func() env.Agent { return &Hunter{} })

// Hunter is a Battleships bot that sees what its state.json shows: its own
// side, and of the opponent's map only the damaged, missed and shield-hit
// cells and which ships are afloat.
//
// Phase 1 (learn placement only; the built-in placers otherwise place
// before the first step): a fleet drawn from its seed, uniformly by ship
// and retried until no two ships touch (sides or corners), sent one ship
// per step.
//
// Phase 2, probability density: for every ship still afloat it counts the
// placements that avoid missed cells and the cells of ships it has seen
// sink, weighting a placement by 40 for each unresolved hit it covers, and
// turns the counts into each cell's chance of holding a ship. It fires at
// the likeliest cell, so after a hit it fires next to it until the ship
// sinks (a sunk ship's cells are the run of hits through the shot that
// sank it). With the energy, it fires the special weapon whose pattern
// (double, corner, diagonal cross, cross, or the seeker's chance of finding
// a ship within two cells) expects the most hits, when that beats the
// single shot by more than the energy is worth. It avoids cells near the
// opponent's shield while shield hits show, and raises its own shield over
// its last ship. Ties break by its seeded generator.
//
// Not safe for concurrent use; Act does not allocate.
type Hunter struct {
	rng   *rand.Rand
	pcg   rand.PCG
	fleet [NumShips]Ship

	t    tracker // what it knows of the opponent's map
	prob [MaxCells]float32
	dens [MaxCells]float32

	// fleetShield raises the shield whenever every afloat ship's unhit
	// cells fit under it, not only the last ship's; shieldOnHit waits
	// until the opponent has hit one of them. [Marksman] sets both.
	fleetShield bool
	shieldOnHit bool

	// specials, when not 0, are the only special weapons it fires (a bit
	// per command code), at no energy price: any of them that expects
	// more hits than the best single shot, as soon as it has the energy.
	// [Gunner] sets the diagonal cross.
	specials uint64
}

// Reset seeds the hunter and forgets the last game.
func (a *Hunter) Reset(e env.Env, _ int, seed uint64) {
	mustBattleships(e)
	a.pcg.Seed(seed, 0x4e17)
	if a.rng == nil {
		a.rng = rand.New(&a.pcg)
	}
	a.t = tracker{}
}

// HunterFleet returns a legal fleet drawn from r in which no two ships
// touch, falling back to [RandomFleet] when 200 draws fail.
func HunterFleet(r *rand.Rand, n int) [NumShips]Ship {
	for range 200 {
		var f [NumShips]Ship
		var near [MaxCells]bool
		ok := true
		for k := range NumShips {
			t, placed := ShipType(k), false
			for range 100 {
				s := Ship{X: int8(r.IntN(n)), Y: int8(r.IntN(n)), Dir: Direction(r.IntN(4))}
				if !shipFits(t, s, n) {
					continue
				}
				free := true
				for c := range t.Len() {
					if near[(int(s.X)+dirDX[s.Dir]*c)*n+int(s.Y)+dirDY[s.Dir]*c] {
						free = false
						break
					}
				}
				if !free {
					continue
				}
				for c := range t.Len() {
					x, y := int(s.X)+dirDX[s.Dir]*c, int(s.Y)+dirDY[s.Dir]*c
					for dx := -1; dx <= 1; dx++ {
						for dy := -1; dy <= 1; dy++ {
							if x+dx >= 0 && y+dy >= 0 && x+dx < n && y+dy < n {
								near[(x+dx)*n+y+dy] = true
							}
						}
					}
				}
				f[k], placed = s, true
				break
			}
			if !placed {
				ok = false
				break
			}
		}
		if ok {
			return f
		}
	}
	return RandomFleet(r, n)
}

// Act returns the hunter's action for seat.
func (a *Hunter) Act(e env.Env, seat int) int32 {
	g := mustBattleships(e)
	if a.rng == nil {
		a.Reset(e, seat, 0)
	}
	p := &g.players[seat]
	if g.Done() || p.Killed {
		return 0
	}
	if g.Phase() == 1 {
		return placeNext(g, seat, &a.fleet, HunterFleet, a.rng)
	}
	if sh := a.shield(g, seat); sh != 0 {
		return sh
	}
	a.t.update(g, seat)
	a.density(g, seat)
	return a.choose(g, seat)
}

// density fills a.prob with each unknown cell's chance of holding a ship.
func (a *Hunter) density(g *Game, seat int) {
	n := g.Size()
	a.t.density(n, &a.prob, &a.dens)
	// Cells near a shield hit are likely shielded now.
	r := maxShieldRadius(n)
	for x := range n {
		for y := range n {
			if _, _, sh := g.Seen(seat, x, y); !sh {
				continue
			}
			for cx := max(x-2*r, 0); cx <= min(x+2*r, n-1); cx++ {
				for cy := max(y-2*r, 0); cy <= min(y+2*r, n-1); cy++ {
					f := float32(0.3)
					if abs(cx-x) <= r && abs(cy-y) <= r {
						f = 0.02
					}
					a.prob[cx*n+cy] *= f
				}
			}
		}
	}
	for i := range n * n {
		a.prob[i] = min(a.prob[i], maxChance)
	}
}

// maxChance caps a cell's chance of holding a ship in hunter's targeting
// (and admiral's simulation of it), so that no cell counts as certain.
const maxChance = 0.98

// tieNoise draws hunter's tie-breaking noise from r: one r.Uint32, turned
// into a value in [0, 1e-3), too small to reorder chances that differ by
// more. Both hunter's choice and admiral's shot simulation add it.
func tieNoise(r *rand.Rand) float32 {
	return float32(r.Uint32()>>8) / float32(1<<24) * 1e-3
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// choose picks the command with the most expected hits, less what its
// energy is worth.
func (a *Hunter) choose(g *Game, seat int) int32 {
	n := g.Size()
	p := &g.players[seat]
	at := func(x, y int) float32 {
		if x < 0 || y < 0 || x >= n || y >= n {
			return 0
		}
		return a.prob[x*n+y]
	}
	// energyWorth is the value of one energy in expected hits.
	energyWorth := float32(0.25) / float32(energyPerRound(n)*4)
	if a.specials != 0 {
		energyWorth = 0
	}
	bestCode, bx, by, bestV := CodeSingle, 0, 0, float32(-1)
	for code := CodeSingle; code <= CodeSeeker; code++ {
		if !g.canFire(seat, code) || (code != CodeSingle && a.specials != 0 && a.specials>>code&1 == 0) {
			continue
		}
		cost := float32(WeaponCost(codeWeapon[code], n)) * energyWorth
		if code == CodeSingle {
			cost = 0
		}
		for x := range n {
			for y := range n {
				v := float32(0)
				if code == CodeSeeker {
					miss := float32(1)
					for _, o := range seekerOffsets {
						miss *= 1 - at(x+o[0], y+o[1])
					}
					v = 1 - miss
				} else {
					for _, o := range patterns[code] {
						v += at(x+o[0], y+o[1])
					}
				}
				if code != CodeSingle && v < 0.05 {
					continue
				}
				v -= cost
				noise := tieNoise(a.rng)
				if v <= 0 {
					// Nothing expected here (a cell already shot, or every
					// placement ruled out): never worth a shot, whatever the
					// tie-breaking noise says.
					continue
				}
				v += noise
				if v > bestV {
					bestCode, bx, by, bestV = code, x, y, v
				}
			}
		}
	}
	if bestV <= 0 && bestCode == CodeSingle {
		// Nothing likely left (or everything shielded): the first unshot
		// cell.
		for i := range n * n {
			if a.t.known[i] == 0 {
				return CommandAction(n, CodeSingle, i/n, i%n)
			}
		}
	}
	_ = p
	return CommandAction(n, bestCode, bx, by)
}

// shield returns the shield command over the seat's last ship when it has
// a charge and no active shield and the shield covers every unhit cell of
// that ship, or 0. With fleetShield it does so whenever the shield covers
// every unhit cell of every ship afloat, and with shieldOnHit only once
// the opponent has hit one of those ships (the moment Config.ShieldMask
// leaves the shield in the mask).
func (a *Hunter) shield(g *Game, seat int) int32 {
	n := g.Size()
	p := &g.players[seat]
	if p.Shield.Active || p.Shield.Charges < 1 || (p.ShipsRemaining() != 1 && !a.fleetShield) {
		return 0
	}
	lx, ly, hx, hy, hit := g.shieldBox(seat)
	r := p.Shield.Radius
	if hx < 0 || hx-lx > 2*r || hy-ly > 2*r || (a.shieldOnHit && !hit) {
		return 0
	}
	return CommandAction(n, CodeShield, (lx+hx)/2, (ly+hy)/2)
}
