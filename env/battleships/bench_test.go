package battleships

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one env of 2 seats on each map size: each
// iteration steps once and writes both seats' observations and masks.
// Actions: 90% single shots at uniformly random on-map cells, 10% special
// weapons or shields at random on-map centres (most of which the engine
// refuses for want of energy, as a learner's would be). Finished games are
// Reset inline with the random placer, so placement is part of the figure.
// The <size>_rows runs keep each seat's observation in its own row,
// brought up to date by UpdateObs, as vecenv pools do. <size>_hunt_rows
// is <size>_rows with the shot mask and the density plane (shot_mask,
// density_plane) in the observations and masks.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name, size string
		rows, hunt bool
	}{{SizeSmall, SizeSmall, false, false}, {SizeMedium, SizeMedium, false, false}, {SizeLarge, SizeLarge, false, false},
		{"medium_rows", SizeMedium, true, false}, {"small_rows", SizeSmall, true, false}, {"large_rows", SizeLarge, true, false},
		{"small_hunt_rows", SizeSmall, true, true}, {"medium_hunt_rows", SizeMedium, true, true}, {"large_hunt_rows", SizeLarge, true, true}} {
		size, rows, hunt := c.size, c.rows, c.hunt
		b.Run(c.name, func(b *testing.B) {
			g, err := New(&Config{Size: size, ShotMask: hunt, DensityPlane: hunt})
			if err != nil {
				b.Fatal(err)
			}
			n := g.n
			table := testutil.ActionTable(func(r *rand.Rand) int32 {
				code := CodeSingle
				if r.IntN(10) == 0 {
					code = 2 + r.IntN(7)
				}
				return CommandAction(n, code, r.IntN(n), r.IntN(n))
			})
			testutil.BenchStep(b, g, table, true, rows)
		})
	}
}
