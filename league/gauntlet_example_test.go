package league_test

import (
	"fmt"

	"github.com/botarena/botarena/league"
)

func ExampleWilsonInterval() {
	lo, hi := league.WilsonInterval(10, 10) // 10 wins in 10 games
	fmt.Printf("[%.3f, %.3f]\n", lo, hi)
	// Output: [0.722, 1.000]
}

func ExampleGauntletSeatings() {
	fmt.Println(league.GauntletSeatings(2)) // 0: the pairing's first agent, 1: its second
	fmt.Println(league.GauntletSeatings(4))
	// Output:
	// [[0 1] [1 0]]
	// [[0 1 0 1] [1 0 1 0]]
}
