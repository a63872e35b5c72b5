package battleships

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a row
// per seat kept up to date by UpdateObs, and checks every row against
// WriteObs after every step: over random legal play in every placement
// mode, with rows that miss a step, rows updated twice, rows of a copy of
// the game (an agent's look-ahead, which shares the record) written in
// between, and resets in the middle of a game.
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	for _, cfg := range []*Config{{Size: SizeSmall}, {Size: SizeMedium, Placement: PlacementLearn}, {Size: SizeLarge, Placement: PlacementReference}} {
		for seed := range uint64(6) {
			g, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(seed)
			rng := rand.New(rand.NewPCG(seed, 11))
			var rows [Seats][][]byte
			var have [Seats]uint64
			for s := range rows {
				rows[s] = g.spec.NewObsBuffers()
				for _, b := range rows[s] {
					for i := range b {
						b[i] = byte(rng.Uint32()) // garbage a full write must overwrite
					}
				}
			}
			want, other := g.spec.NewObsBuffers(), g.spec.NewObsBuffers()
			mask := make([]uint8, g.spec.Actions)
			acts := make([]int32, Seats)
			var r [Seats]float32
			var te, tr [Seats]bool
			inPlace := 0
			for step := range 200 {
				for s := range Seats {
					if rng.IntN(10) == 0 {
						continue // this row misses the step
					}
					before := have[s]
					if g.shown != nil && before != 0 && before == g.shown.ver[s] {
						inPlace++
					}
					have[s] = g.UpdateObs(s, rows[s], have[s])
					if rng.IntN(10) == 0 {
						have[s] = g.UpdateObs(s, rows[s], have[s])
					}
					if rng.IntN(20) == 0 {
						c := *g // a look-ahead writes through the shared record
						c.UpdateObs(s, other, 0)
					}
					g.WriteObs(s, want)
					for k := range want {
						if !bytes.Equal(rows[s][k], want[k]) {
							t.Fatalf("%+v seed %d step %d seat %d: UpdateObs (from version %d) differs from WriteObs in tensor %d", cfg, seed, step, s, before, k)
						}
					}
				}
				if g.Done() || rng.IntN(150) == 0 {
					g.Reset(rng.Uint64())
					continue
				}
				for s := range Seats {
					g.WriteMask(s, mask)
					var legal []int32
					for a, m := range mask {
						if m != 0 {
							legal = append(legal, int32(a))
						}
					}
					acts[s] = legal[rng.IntN(len(legal))]
				}
				g.Step(acts, r[:], te[:], tr[:])
			}
			if inPlace < 200 {
				t.Errorf("%+v seed %d: only %d of the rows' updates started from the row's own version", cfg, seed, inPlace)
			}
		}
	}
}

// TestUpdateObsRewritesOnlyChangedCells: given the row's own version,
// UpdateObs leaves the bytes of cells that did not change as they are
// (here a byte changed behind its back, which the contract forbids, to
// show it), and writes every byte given 0.
func TestUpdateObsRewritesOnlyChangedCells(t *testing.T) {
	g := phase2(t, &Config{Size: SizeSmall})
	row := g.spec.NewObsBuffers()
	v := g.UpdateObs(0, row, 0)
	step(g, CommandAction(g.n, CodeSingle, 0, 0), CommandAction(g.n, CodeSingle, 0, 0))
	far := PlaneOppUnknown*g.n*g.n + (g.n-1)*g.n + g.n - 1 // cell (n-1, n-1), not shot at
	row[0][far] = 7
	g.UpdateObs(0, row, v)
	if row[0][far] != 7 {
		t.Errorf("an unchanged cell was rewritten with the row's own version")
	}
	want := g.spec.NewObsBuffers()
	g.WriteObs(0, want)
	row[0][far] = want[0][far]
	if !bytes.Equal(row[0], want[0]) {
		t.Errorf("the shot cell was not brought up to date")
	}
	row[0][far] = 7
	g.UpdateObs(0, row, 0)
	if row[0][far] != want[0][far] {
		t.Errorf("a write from version 0 left a byte as it was")
	}
}
