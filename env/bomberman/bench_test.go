package bomberman

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one env of 4 seats on the 21×21 map: each
// iteration steps once with pseudo-random actions from a precomputed table
// and writes the observations and masks of all 4 seats. A finished game is
// Reset inline (with a fresh seed), so map generation is part of the
// figure, amortised over the games.
func BenchmarkStep(b *testing.B) {
	b.Run("bomberman", func(b *testing.B) { benchmarkStep(b, Config{}, false) })
	// As bomberman, with each seat's observation kept in its own row and
	// brought up to date by UpdateObs, as vecenv pools do.
	b.Run("bomberman_rows", func(b *testing.B) { benchmarkStep(b, Config{}, true) })
	// As bomberman_rows, with player-centred 21×21 windows (view_radius
	// 10), which UpdateObs writes in full.
	b.Run("bomberman_view_rows", func(b *testing.B) { benchmarkStep(b, Config{ViewRadius: 10}, true) })
	// As bomberman_rows and bomberman_view_rows, with the touched planes
	// and the opponent scalars.
	fields := Config{TouchedPlanes: true, OpponentScalars: true}
	b.Run("bomberman_fields_rows", func(b *testing.B) { benchmarkStep(b, fields, true) })
	fields.ViewRadius = 10
	b.Run("bomberman_fields_view_rows", func(b *testing.B) { benchmarkStep(b, fields, true) })
	b.Run("bomberman_sim_only", func(b *testing.B) {
		// Step alone, without observations or masks: one game of 4 seats
		// that only moves (nobody dies, so Reset is rare).
		g, err := New(&Config{Players: 4})
		if err != nil {
			b.Fatal(err)
		}
		table := testutil.ActionTable(func(r *rand.Rand) int32 { return int32(MoveUp + Action(r.IntN(4))) })
		testutil.BenchStep(b, g, table, false, false)
	})
}

// benchmarkStep steps one 4-seat game of cfg (its Players set to 4) with
// pseudo-random actions and writes every seat's observation (with
// UpdateObs into rows it keeps when rows is set) and mask
// (testutil.BenchStep).
func benchmarkStep(b *testing.B, cfg Config, rows bool) {
	cfg.Players = 4
	g, err := New(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	// Legal-ish actions: moves most often, some plants and triggers.
	weights := [...]Action{DoNothing, MoveUp, MoveUp, MoveLeft, MoveLeft, MoveRight, MoveRight, MoveDown, MoveDown, PlaceBomb, TriggerBomb}
	table := testutil.ActionTable(func(r *rand.Rand) int32 { return int32(weights[r.IntN(len(weights))]) })
	testutil.BenchStep(b, g, table, true, rows)
}

// BenchmarkReset measures map generation, which dominates short episodes:
// with 4 players the distance-based generator rejects about 7 of 8 attempts.
func BenchmarkReset(b *testing.B) {
	for _, players := range []int{2, 4, 8, 12} {
		b.Run(fmt.Sprintf("bomberman/players=%d", players), func(b *testing.B) {
			g, err := New(&Config{Players: players})
			if err != nil {
				b.Fatal(err)
			}
			seed := uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				seed++
				g.Reset(seed)
			}
		})
	}
}
