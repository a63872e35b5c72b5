package battlecube

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one env of 4 seats in the 8×8×8 cube
// ([testutil.BenchStep]): each iteration steps once with pseudo-random
// actions (moves mostly, some bombs) and writes the observations and masks
// of all 4 seats; a finished game is Reset inline.
func BenchmarkStep(b *testing.B) {
	b.Run("battlecube", func(b *testing.B) {
		g, err := New(DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		table := make([]int32, 1<<14)
		for i := range table {
			if rng.IntN(8) == 0 {
				table[i] = int32(NumFixedActions) + int32(rng.IntN(512))
			} else {
				table[i] = int32(rng.IntN(int(NumFixedActions)))
			}
		}
		testutil.BenchStep(b, g, table, true, false)
	})
}

// BenchmarkAct measures a tick of a built-in bot in self-play in the
// default 4-player cube ([testutil.BenchAct]: every seat acts each tick).
func BenchmarkAct(b *testing.B) {
	for _, bot := range []struct {
		name string
		make func() env.Agent
	}{{"teebot", func() env.Agent { return NewTeebot(DefaultTeebotParams()) }}, {"stalker", func() env.Agent { return NewStalker() }}} {
		b.Run(bot.name, func(b *testing.B) {
			g, _ := New(DefaultConfig())
			testutil.BenchAct(b, g, bot.make)
		})
	}
}
