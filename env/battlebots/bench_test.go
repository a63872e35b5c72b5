package battlebots

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one bout of 2 seats ([testutil.BenchStep]): each
// iteration steps once with pseudo-random actions from a precomputed table
// and writes both seats' observations and masks (not in the _sim_only
// run); a finished bout is Reset inline. The _history8 runs have
// Config.History 8, the most.
func BenchmarkStep(b *testing.B) {
	table := testutil.ActionTable(func(r *rand.Rand) int32 { return r.Int32N(NumActions) })
	for _, c := range []struct {
		name    string
		obs     bool
		history int
	}{{"battlebots", true, 0}, {"battlebots_sim_only", false, 0}, {"battlebots_history8", true, MaxHistory}, {"battlebots_history8_sim_only", false, MaxHistory}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.History = c.history
			g, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			testutil.BenchStep(b, g, table, c.obs, false)
		})
	}
}
