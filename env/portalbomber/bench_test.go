package portalbomber

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one env step plus both seats' observations and
// masks, with random actions and resets at game end. The _rows run keeps
// each seat's observation in its own row, brought up to date by
// UpdateObs, as vecenv pools do.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  *Config
		rows bool
	}{{"portalbomber", DefaultConfig(), false}, {"portalbomber-variant", VariantConfig(), false}, {"portalbomber_rows", DefaultConfig(), true}} {
		b.Run(fmt.Sprintf("%s/envs=1", c.name), func(b *testing.B) {
			g, _ := New(c.cfg)
			rng := rand.New(rand.NewPCG(1, 2))
			table := make([]int32, 4096)
			for i := range table {
				table[i] = int32(rng.IntN(NumActions))
			}
			testutil.BenchStep(b, g, table, true, c.rows)
		})
	}
}

// BenchmarkAct measures a move of a built-in bot in self-play
// ([testutil.BenchAct]; the seat not to move answers at once).
func BenchmarkAct(b *testing.B) {
	for _, bot := range []struct {
		name string
		make func() env.Agent
	}{{"greedy", func() env.Agent { return &Greedy{} }}, {"raider", func() env.Agent { return &Raider{} }}} {
		b.Run(bot.name, func(b *testing.B) {
			g, _ := New(DefaultConfig())
			testutil.BenchAct(b, g, bot.make)
		})
	}
}
