package vecenv_test

import _ "github.com/botarena/botarena/env/battlecube" // registers battlecube

func init() {
	// Battle³ 4 seats, edge 8: NOOP and the six moves weighted up, and a
	// few bomb cells (7 + cell), so that games last tens of ticks.
	benchGames = append(benchGames, benchGame{name: "battlecube", weights: []int32{0, 0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 100, 300, 518}})
}
