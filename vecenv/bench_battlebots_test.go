package vecenv_test

import _ "github.com/botarena/botarena/env/battlebots" // registers battlebots

func init() {
	// Moves most often, then the weapons; few EMPs, which cost HP.
	benchGames = append(benchGames, benchGame{name: "battlebots", weights: []int32{
		0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8,
		9, 11, 13, 15, 17, 19, 21, 23, 25, 29, 33,
	}})
}
