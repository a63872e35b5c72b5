package battlecube

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a row
// per seat kept up to date by UpdateObs, and checks every row against
// WriteObs after every step: over long random games that place and
// explode many bombs (more changed cells in a tick than a Step records,
// at times), with rows that miss a step, rows updated twice, a copy of the
// game writing through the shared record in between, other states loaded
// with LoadNative, and resets in the middle of a game.
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	busy := DefaultConfig()
	busy.Players = 40 // up to 40 bombs a tick: past maxBombCells
	hist := DefaultConfig()
	hist.History = true
	marks := DefaultConfig()
	marks.CycleMarks, marks.History, marks.TasksPerTick = true, true, 3
	for _, cfg := range []*Config{DefaultConfig(), busy, hist, marks} {
		for seed := range uint64(6) {
			g := testutil.MustNew(t, New, cfg)
			g.Reset(seed)
			rng := rand.New(rand.NewPCG(seed, 17))
			rows := testutil.NewObsRows(g, rng)
			other := g.spec.NewObsBuffers()
			deltas := 0
			rows.Before = func(s int, have uint64) {
				if have == 0 {
					return
				}
				if sm := &g.marks.seats[s]; have == sm.ver && sm.shows == g.bombsFrom && g.bombsFrom != 0 {
					deltas++
				}
			}
			rows.Between = func(s int) {
				if rng.IntN(20) == 0 {
					c := *g // writes through the shared record
					c.UpdateObs(s, other, 0)
				}
			}
			mask := make([]uint8, g.spec.Actions)
			acts := make([]int32, g.n)
			r, te, tr := make([]float32, g.n), make([]bool, g.n), make([]bool, g.n)
			for step := range 2000 {
				rows.Sync(t, "%+v seed %d step %d", cfg, seed, step)
				switch {
				case g.done || rng.IntN(200) == 0:
					g.Reset(rng.Uint64())
					continue
				case rng.IntN(200) == 0: // another state, loaded
					o, _ := New(cfg)
					o.Reset(rng.Uint64())
					for range rng.IntN(20) {
						randomTick(rng, o, mask, acts, r, te, tr)
					}
					data, err := o.AppendNative(nil, FormatRequest, 0)
					if err != nil {
						t.Fatal(err)
					}
					if err := g.LoadNative(data); err != nil {
						t.Fatal(err)
					}
					continue
				}
				randomTick(rng, g, mask, acts, r, te, tr)
			}
			if deltas < 1000 {
				t.Errorf("%+v seed %d: only %d of the rows' updates wrote the bombs' delta", cfg, seed, deltas)
			}
		}
	}
}

// randomTick steps g once with random legal actions, mostly bombs.
func randomTick(rng *rand.Rand, g *Game, mask []uint8, acts []int32, r []float32, te, tr []bool) {
	for s := range acts {
		g.WriteMask(s, mask)
		acts[s] = testutil.RandomLegal(rng, mask)
	}
	g.Step(acts, r, te, tr)
}

// TestUpdateObsLeavesUnchangedBombs: given the row's own version, UpdateObs
// leaves the bombs plane's cells that the Step did not change as they are
// (here a byte changed behind its back, which the contract forbids, to show
// it), and writes every byte given 0.
func TestUpdateObsLeavesUnchangedBombs(t *testing.T) {
	g := testutil.MustNew(t, New, DefaultConfig())
	acts := make([]int32, g.n)
	r, te, tr := make([]float32, g.n), make([]bool, g.n), make([]bool, g.n)
	testutil.WantUpdateKeepsUnchanged(t, g, func() { g.Step(acts, r, te, tr) }, PlaneBombs*g.cells+g.cells-1)
}
