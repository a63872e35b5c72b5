package portalbomber

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/botarena/botarena/internal/testutil"
)

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a row
// per seat kept up to date by UpdateObs, and checks every row against
// WriteObs after every step: over random play (bombs, portals, bought
// blocks, the apocalypse's fire), with rows that miss a step, rows updated
// twice, a copy of the game (an agent's look-ahead, which counts its
// versions on from the original's) stepped and written in between, other boards loaded with
// LoadNative, and resets in the middle of a game.
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	early := DefaultConfig()
	early.ApocalypseAfter = 10
	for _, cfg := range []*Config{DefaultConfig(), VariantConfig(), early} {
		for seed := range uint64(12) {
			g := testutil.MustNew(t, New, cfg)
			g.Reset(seed)
			rng := rand.New(rand.NewPCG(seed, 13))
			rows := testutil.NewObsRows(g, rng)
			other := g.spec.NewObsBuffers()
			acts := make([]int32, Seats)
			var r [Seats]float32
			var te, tr [Seats]bool
			inPlace := 0
			rows.Before = func(s int, have uint64) {
				if have != 0 && have == g.obs.ver[s] {
					inPlace++
				}
			}
			rows.Between = func(s int) {
				if rng.IntN(20) == 0 {
					c := *g // a look-ahead steps and writes another row, numbering on from g's count
					c.Step(acts, r[:], te[:], tr[:])
					c.UpdateObs(s, other, 0)
				}
			}
			randomGame(t, g, seed, 300, func(step int) {
				rows.Sync(t, "%+v seed %d step %d", cfg, seed, step)
				switch rng.IntN(100) {
				case 0:
					g.Reset(rng.Uint64())
				case 1: // another board, loaded
					o, _ := New(cfg)
					o.Reset(rng.Uint64())
					data, err := o.AppendNative(nil, FormatStateJSON, 0)
					if err != nil {
						t.Fatal(err)
					}
					if err := g.LoadNative(data); err != nil {
						t.Fatal(err)
					}
				}
			})
			if inPlace < 10 {
				t.Errorf("%+v seed %d: only %d of the rows' updates started from the row's own version", cfg, seed, inPlace)
			}
		}
	}
}

// TestUpdateObsLeavesTheBlockValues: given the row's own version, UpdateObs
// leaves the block values plane as it is (here a byte changed behind its
// back, which the contract forbids, to show it), and writes every byte
// given 0.
func TestUpdateObsLeavesTheBlockValues(t *testing.T) {
	g := bare(t)
	testutil.WantUpdateKeepsUnchanged(t, g, func() {
		play(t, g, []Action{PlaceBomb, MoveRight}, []Action{MoveLeft}).rounds(2)
	}, PlaneBlockValue*g.n*g.n+5)
}

// TestUpdateObsOutgrowingTheRecord: a write that sets more bytes than the
// record of marks holds (trails of both seats and fire on every cell) is
// recorded as such, and the next update from its version writes the row
// in full.
func TestUpdateObsOutgrowingTheRecord(t *testing.T) {
	g := bare(t)
	row, want := g.spec.NewObsBuffers(), g.spec.NewObsBuffers()
	for i := range g.n * g.n {
		c := &g.cells[i]
		c.trails = [3]Trail{{1, TrailH}, {2, TrailV}}
		g.seq++
		c.trailSeq = g.seq
		g.listCell(i)
		g.setFire(i)
	}
	g.marksChanged() // as the engine does when it places trails
	v := g.UpdateObs(1, row, 0)
	if g.obs.n[1] >= 0 {
		t.Fatalf("%d marks recorded for %d set bytes", g.obs.n[1], 2*g.n*g.n+2)
	}
	for i := range g.n * g.n {
		g.cells[i] = cell{hard: g.cells[i].hard, soft: g.cells[i].soft}
	}
	g.nMarked, g.nFire = 0, 0 // as clearBoard leaves them
	g.marksChanged()
	g.UpdateObs(1, row, v)
	g.WriteObs(1, want)
	if !bytes.Equal(row[0], want[0]) {
		t.Errorf("the update after an overflow left old marks")
	}
}

// TestUpdateObsShowsABoughtBlock: a block bought between two updates from
// the row's own version appears in the row's soft plane.
func TestUpdateObsShowsABoughtBlock(t *testing.T) {
	g := bare(t)
	g.players[0].Coins = 100
	g.players[1].Coins = 100
	rows := [Seats][][]byte{g.spec.NewObsBuffers(), g.spec.NewObsBuffers()}
	var have [Seats]uint64
	for s := range Seats {
		have[s] = g.UpdateObs(s, rows[s], 0)
	}
	softBefore := bytes.Count(rows[0][0][PlaneSoft*g.n*g.n:][:g.n*g.n], []byte{1})
	m := play(t, g, []Action{TurnRight, BuyBlock}, []Action{TurnLeft, BuyBlock})
	m.rounds(2)
	want := g.spec.NewObsBuffers()
	for s := range Seats {
		have[s] = g.UpdateObs(s, rows[s], have[s])
		g.WriteObs(s, want)
		if !bytes.Equal(rows[s][0], want[0]) {
			t.Errorf("seat %d: the row differs from WriteObs after the purchase", s)
		}
	}
	if n := bytes.Count(want[0][PlaneSoft*g.n*g.n:][:g.n*g.n], []byte{1}); n <= softBefore {
		t.Fatalf("no block was bought (%d soft blocks before, %d after)", softBefore, n)
	}
}

// TestGameLayout: what a pool step reads of a Game lies in few cache
// lines: the counters, the config's hot fields and the seats' UpdateObs
// records fill lines 0 and 1, both players line 3 (after line 2's board
// records), their portals the two lines after, the mark offsets one (and
// three more the offsets past each seat's first 16), and the cells start
// one, in the Game that New allocates. The runtime (Go 1.26) puts a Game
// 8 bytes past a line (its malloc header): fields start a line at offsets
// 56 modulo 64. Fails when a field added to
// Game moves them off; a runtime that places a Game otherwise skips the
// test, saying so (then change the padding and the order of the fields).
func TestGameLayout(t *testing.T) {
	g := bare(t)
	if m := uintptr(unsafe.Pointer(g)) % 64; m != 8 {
		t.Skipf("this runtime puts a Game %d bytes past a cache line, not the 8 its layout is tuned for", m)
	}
	for _, f := range []struct {
		name     string
		from, to uintptr
		lines    uintptr
	}{
		{"line 0: n ... killedBy", 0, unsafe.Offsetof(g.obs), 0},
		{"line 1: obs ... moveOrder", unsafe.Offsetof(g.obs), unsafe.Offsetof(g.boardCells), 1},
		{"line 2: boardCells ... coinsReward", unsafe.Offsetof(g.boardCells), unsafe.Offsetof(g.players), 1},
		{"players", unsafe.Offsetof(g.players), unsafe.Offsetof(g.portals), 1},
		{"portals", unsafe.Offsetof(g.portals), unsafe.Offsetof(g.obsAt), 2},
		{"obsAt", unsafe.Offsetof(g.obsAt), unsafe.Offsetof(g.obsMore), 1},
		{"obsMore", unsafe.Offsetof(g.obsMore), unsafe.Offsetof(g.obsMore) + unsafe.Sizeof(g.obsMore), 3},
	} {
		a := uintptr(unsafe.Pointer(g)) + f.from
		if f.lines == 0 { // the first line, after the malloc header
			if f.to != 56 {
				t.Errorf("%s: %d bytes, want the 56 of the Game's first line", f.name, f.to)
			}
			continue
		}
		if a%64 != 0 || f.to-f.from != 64*f.lines {
			t.Errorf("%s: %d bytes at %#x, want %d cache line(s)", f.name, f.to-f.from, a, f.lines)
		}
	}
	if n := unsafe.Sizeof(player{}); n != 32 {
		t.Errorf("a player takes %d bytes, want 32 (both players in one line)", n)
	}
	if n := unsafe.Sizeof(cell{}); n != 32 {
		t.Errorf("a cell takes %d bytes, want 32", n)
	}
	if a := uintptr(unsafe.Pointer(&g.cells)); a%64 != 0 {
		t.Errorf("the cells start at %#x (Game %#x + %d), not a cache line", a, uintptr(unsafe.Pointer(g)), unsafe.Offsetof(g.cells))
	}
}
