package battleships

import "github.com/botarena/botarena/env"

// newGunnerAgent is the factory of the "gunner" agent.
var newGunnerAgent = env.GameAgent("battleships", "gunner", func() env.Agent { return NewGunner() })

// Gunner is [Marksman] (admiral's searched fleet in learn placement,
// hunter's targeting, the shield at marksman's moment) that spends its
// energy. Hunter prices a special weapon's energy at about a quarter of a
// hit per round of energy, so it fires one mostly next to a hit and ends
// its games with most of its energy unspent. The gunner prices energy at
// nothing and fires only the two patterns whose cells all share a colour
// of the checkerboard that density hunting searches: the corner shot (the
// carrier's, 4 diagonal cells) and the diagonal cross (the battleship's,
// 5 cells), whichever expects more hits than the best single shot, as soon
// as it has the energy for it (40 and 48 on 14×14: every 10–12 rounds).
// On 14×14 it sinks admiral's fleet, unopposed, in about 78 rounds
// against hunter's shooting's 84 (docs/training/battleships-large-gunner).
//
// Its randomness comes from the seed given to Reset. Not safe for
// concurrent use; Act does not allocate.
type Gunner struct {
	Marksman
}

// NewGunner returns a gunner.
func NewGunner() *Gunner {
	g := &Gunner{}
	g.fleetShield, g.shieldOnHit = true, true
	g.specials = 1<<CodeCorner | 1<<CodeDiagonalCross
	return g
}
