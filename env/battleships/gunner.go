package battleships

import "github.com/botarena/botarena/env"

// newGunnerAgent is the factory of the "gunner" agent.
var newGunnerAgent = env.GameAgent("battleships", "gunner", func() env.Agent { return NewGunner() })

// Gunner is [Marksman] (admiral's searched fleet in learn placement,
// hunter's targeting, the shield at marksman's moment) that spends its
// energy. Hunter prices a special weapon's energy at about a quarter of a
// hit per round of energy, so it fires one mostly next to a hit and ends
// its games with most of its energy unspent. The gunner prices energy at
// nothing and fires one special only: the diagonal cross (the
// battleship's), whose 5 cells, its centre and the 4 diagonal neighbours,
// share a colour of the checkerboard that density hunting searches,
// whenever it expects more hits than the best single shot and the gunner
// has the energy (48 on 14×14: every 12 rounds). On 14×14 it sinks
// admiral's fleet, unopposed, in about 79 rounds against hunter's
// shooting's 84, yet head to head it is no better than the marksman
// (51.9%; docs/training/battleships-large-gunner). The corner shot
// does as well for a bot but not for a policy, whose factored action head
// gives every command one distribution of centre cells: the corner shot
// misses its centre.
//
// Its randomness comes from the seed given to Reset. Not safe for
// concurrent use; Act does not allocate.
type Gunner struct {
	Marksman
}

// NewGunner returns a gunner.
func NewGunner() *Gunner {
	g := &Gunner{Marksman: *NewMarksman()}
	g.specials = 1 << CodeDiagonalCross
	return g
}
