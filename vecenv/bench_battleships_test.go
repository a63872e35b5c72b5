package vecenv_test

import (
	"github.com/botarena/botarena/env/battleships"
)

// Battleships (medium, random placement): the action space has 2,449
// actions, mostly off-map centres and specials a learner cannot afford, so
// uniform draws would measure refusals. The table is single shots at every
// on-map cell (100 actions, each listed 9 times) plus every special weapon
// and the shield at every on-map centre once (700 actions): 56% single
// shots, the rest mostly refused for want of energy or charges, as a
// learner's masked-out choices would be.
func init() {
	const n = 10
	var w []int32
	for x := range n {
		for y := range n {
			for range 9 {
				w = append(w, battleships.CommandAction(n, battleships.CodeSingle, x, y))
			}
			for code := battleships.CodeDoubleVertical; code <= battleships.CodeShield; code++ {
				w = append(w, battleships.CommandAction(n, code, x, y))
			}
		}
	}
	benchGames = append(benchGames, benchGame{name: "battleships", weights: w})
}
