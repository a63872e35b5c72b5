package vecenv_test

import _ "github.com/botarena/botarena/env/portalbomber"

func init() {
	// Portal Bomberman: the eight moves and turns twice each, wait, bomb,
	// portals and purchases once. Out-of-turn actions are refused and
	// counted, so every row draws from the same table.
	benchGames = append(benchGames, benchGame{name: "portalbomber",
		weights: []int32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}})
}
