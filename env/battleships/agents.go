package battleships

import (
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newReferenceAgent is the factory of the "reference" agent.
var newReferenceAgent = env.GameAgent("battleships", "reference", func() env.Agent { return &Reference{} })

// Reference is the Entelect Challenge 2017 reference bot
// ("Reference Bots/C#", v1.2.1; spec §11).
//
// Phase 1 (only seen with the "learn" placement; the built-in placers
// otherwise place before the first step): it draws the fleet as the
// original does ([ReferenceFleet]) at the first step of each
// phase-1 round and sends it one ship per step.
//
// Phase 2: its "last shot" is the opponent cell marked damaged or missed
// with the greatest y, then the greatest x; with none it fires 1,0,0. The
// target is two columns to the right, or column 0 of the next row; past the
// top row, the first cell in map order neither damaged nor missed (a random
// cell when every cell has been shot). Then: with its Destroyer afloat and
// an inactive shield holding a charge it shields the Destroyer's start
// cell; else with the Destroyer afloat and energy for the double shot it
// sends a vertical double shot (2) at the target; else a single shot. So it
// skips rows and keeps firing at shielded cells, as the original does.
//
// Its randomness comes from the seed given to Reset. Not safe for
// concurrent use; Act does not allocate.
type Reference struct {
	rng   *rand.Rand
	pcg   rand.PCG
	fleet [NumShips]Ship
}

// Reset seeds the bot.
func (a *Reference) Reset(e env.Env, _ int, seed uint64) {
	mustBattleships(e)
	a.pcg.Seed(seed, 0x2017)
	a.rng = rand.New(&a.pcg)
}

// placeNext returns a built-in bot's action in a phase-1 step: with the
// learn placement, the next ship of fleet, which draw redraws from rng at
// the first step of each phase-1 round; else, or once the five ships are
// chosen, 0 (nothing). It does not allocate.
func placeNext(g *Game, seat int, fleet *[NumShips]Ship, draw func(r *rand.Rand, n int) [NumShips]Ship, rng *rand.Rand) int32 {
	if !g.Learn() {
		return 0
	}
	n := g.Size()
	k := g.PendingShips(seat)
	if k == 0 {
		*fleet = draw(rng, n)
	}
	if k >= NumShips {
		return 0
	}
	s := fleet[k]
	return PlaceAction(n, int(s.X), int(s.Y), s.Dir)
}

func mustBattleships(e env.Env) *Game {
	g, ok := e.(*Game)
	if !ok {
		panic(fmt.Sprintf("battleships: the reference bot given %T", e))
	}
	return g
}

// Act returns the bot's action for seat.
func (a *Reference) Act(e env.Env, seat int) int32 {
	g := mustBattleships(e)
	if a.rng == nil {
		a.Reset(e, seat, 0)
	}
	p := g.Player(seat)
	if g.Done() || p.Killed {
		return 0
	}
	n := g.Size()
	if g.Phase() == 1 {
		return placeNext(g, seat, &a.fleet, ReferenceFleet, a.rng)
	}
	lx, ly := -1, -1
	for x := range n {
		for y := range n {
			if d, m, _ := g.Seen(seat, x, y); (d || m) && (y > ly || (y == ly && x > lx)) {
				lx, ly = x, y
			}
		}
	}
	if lx < 0 {
		return CommandAction(n, CodeSingle, 0, 0)
	}
	tx, ty := lx+2, ly
	if tx >= n {
		tx, ty = 0, ly+1
	}
	if ty >= n {
		tx, ty = -1, -1
	search:
		for x := range n {
			for y := range n {
				if d, m, _ := g.Seen(seat, x, y); !d && !m {
					tx, ty = x, y
					break search
				}
			}
		}
		if tx < 0 {
			tx, ty = a.rng.IntN(n), a.rng.IntN(n)
		}
	}
	dest := p.Ships[Destroyer]
	switch {
	case !dest.Destroyed && !p.Shield.Active && p.Shield.Charges >= 1:
		return CommandAction(n, CodeShield, int(dest.X), int(dest.Y))
	case !dest.Destroyed && p.Energy >= WeaponCost(DoubleShot, n):
		return CommandAction(n, CodeDoubleVertical, tx, ty)
	}
	return CommandAction(n, CodeSingle, tx, ty)
}
