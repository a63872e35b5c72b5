package portalbomber

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
)

// randomGame plays a game with random (mostly legal) moves and calls check
// after every step.
func randomGame(t testing.TB, g *Game, seed uint64, steps int, check func(step int)) {
	rng := rand.New(rand.NewPCG(seed, 1))
	acts := make([]int32, Seats)
	r := make([]float32, Seats)
	te, tr := make([]bool, Seats), make([]bool, Seats)
	for k := 0; k < steps && !g.Done(); k++ {
		for s := range Seats {
			acts[s] = int32(rng.IntN(NumActions + 1))
		}
		g.Step(acts, r, te, tr)
		check(k)
	}
}

func TestDeterminism(t *testing.T) {
	for _, name := range []string{"portalbomber", "portalbomber/variant"} {
		t.Run(name, func(t *testing.T) {
			a, _ := env.Make(name, nil)
			b, _ := env.Make(name, nil)
			ga, gb := a.(*Game), b.(*Game)
			ga.Reset(42)
			gb.Reset(42)
			var ja, jb []byte
			rng := rand.New(rand.NewPCG(9, 9))
			acts := make([]int32, Seats)
			r := make([]float32, Seats)
			te, tr := make([]bool, Seats), make([]bool, Seats)
			obsA, obsB := a.Spec().NewObsBuffers(), b.Spec().NewObsBuffers()
			for k := 0; k < 2000 && !ga.Done(); k++ {
				for s := range Seats {
					acts[s] = int32(rng.IntN(NumActions))
				}
				ga.Step(acts, r, te, tr)
				gb.Step(acts, r, te, tr)
				ja, _ = ga.AppendNative(ja[:0], FormatStateJSON, 1)
				jb, _ = gb.AppendNative(jb[:0], FormatStateJSON, 1)
				if !bytes.Equal(ja, jb) {
					t.Fatalf("step %d: states differ", k)
				}
				ga.WriteObs(0, obsA)
				gb.WriteObs(0, obsB)
				if !bytes.Equal(obsA[0], obsB[0]) || !bytes.Equal(obsA[1], obsB[1]) {
					t.Fatalf("step %d: observations differ", k)
				}
			}
			if !ga.Done() {
				t.Error("a random game did not end in 2000 steps")
			}
			gb.Reset(43)
			ga.Reset(42)
			ja, _ = ga.AppendNative(ja[:0], FormatStateJSON, 0)
			jb, _ = gb.AppendNative(jb[:0], FormatStateJSON, 0)
			if bytes.Equal(ja, jb) {
				t.Error("seeds 42 and 43 give the same board")
			}
		})
	}
}

// checkInvariants asserts what every reachable state satisfies, and that
// the state JSON loads back to the same JSON.
func checkInvariants(t testing.TB, g *Game) {
	t.Helper()
	n := g.n
	for s := range Seats {
		p := g.Player(s)
		if p.Alive != g.inBoard(p.X, p.Y) {
			t.Fatalf("seat %d alive %v at (%d,%d)", s, p.Alive, p.X, p.Y)
		}
		if p.Alive && (g.Hard(p.X, p.Y) || g.Soft(p.X, p.Y)) {
			t.Fatalf("seat %d inside a block", s)
		}
		if p.Coins < 0 || p.BombCount < 0 {
			t.Fatalf("seat %d: %+v", s, p)
		}
	}
	bombs := 0
	for i := range n * n {
		c := &g.cells[i]
		if c.bombSeq != 0 {
			bombs++
			if c.bombTick < 1 || c.bombTick > BombTicks || c.hard || c.soft {
				t.Fatalf("bad bomb at %d: %+v", i, c)
			}
		}
		if c.hard && c.soft {
			t.Fatalf("hard and soft at %d", i)
		}
	}
	if bombs != int(g.nBombs) {
		t.Fatalf("%d bombs on cells, %d listed", bombs, g.nBombs)
	}
	// Every cell with a seat's trail or a portal entry is in marked, once,
	// every cell with fire in fire, once, and every cell with a trail
	// entry in one of them.
	seen := make(map[uint16]bool, g.nMarked)
	for _, m := range g.marked[:g.nMarked] {
		if seen[m] || !g.cells[m].listed {
			t.Fatalf("cell %d in marked twice or not flagged listed", m)
		}
		seen[m] = true
	}
	seatTrails := 0
	burning := make(map[uint16]bool, g.nFire)
	for _, f := range g.fire[:g.nFire] {
		if burning[f] || g.cells[f].trails[2].Type != TrailFire {
			t.Fatalf("cell %d in fire twice or without fire", f)
		}
		burning[f] = true
	}
	for i := range n * n {
		c := &g.cells[i]
		fire := c.trails[2].Type == TrailFire
		seatTrail := c.trails[0].Type != NoTrail || c.trails[1].Type != NoTrail
		if seatTrail {
			seatTrails++
		}
		if c.listed != seen[uint16(i)] || ((seatTrail || c.portalSeq != 0) && !c.listed) ||
			fire != burning[uint16(i)] || (c.trailSeq != 0 && !c.listed && !fire) {
			t.Fatalf("cell %d: trailSeq %d, portalSeq %d, listed %v, in marked %v, fire %v, in fire %v",
				i, c.trailSeq, c.portalSeq, c.listed, seen[uint16(i)], fire, burning[uint16(i)])
		}
	}
	if seatTrails != int(g.seatTrails) {
		t.Fatalf("%d cells with a seat's trail, seatTrails %d", seatTrails, g.seatTrails)
	}
	for seat := range Seats {
		js, err := g.AppendNative(nil, FormatStateJSON, seat)
		if err != nil {
			t.Fatal(err)
		}
		h := *g
		if err := h.LoadNative(js); err != nil {
			t.Fatalf("state does not load back: %v\n%s", err, js)
		}
		js2, _ := h.AppendNative(nil, FormatStateJSON, seat)
		if !bytes.Equal(js, js2) {
			t.Fatalf("round trip differs:\n%s\n%s", js, js2)
		}
	}
}

func TestInvariantsAndRoundTrip(t *testing.T) {
	for _, cfg := range []*Config{DefaultConfig(), VariantConfig()} {
		g, _ := New(cfg)
		for seed := range uint64(6) {
			g.Reset(seed)
			randomGame(t, g, seed, 3000, func(int) { checkInvariants(t, g) })
		}
	}
}

func FuzzStep(f *testing.F) {
	f.Add(uint64(1), []byte{9, 0, 1, 0, 3, 0, 10, 0})
	f.Add(uint64(7), []byte{7, 10, 8, 11, 3, 3, 12, 15})
	f.Fuzz(func(t *testing.T, seed uint64, actions []byte) {
		cfg := DefaultConfig()
		if seed%3 == 0 {
			cfg = VariantConfig()
		}
		g, _ := New(cfg)
		g.Reset(seed)
		acts := make([]int32, Seats)
		r := make([]float32, Seats)
		te, tr := make([]bool, Seats), make([]bool, Seats)
		for i := 0; i+1 < len(actions); i += 2 {
			acts[0], acts[1] = int32(actions[i])%20-1, int32(actions[i+1])%20-1
			g.Step(acts, r, te, tr)
			checkInvariants(t, g)
		}
	})
}

func FuzzLoadNative(f *testing.F) {
	g := bare(f)
	m := play(f, g, []Action{TurnRight, OrangePortal, TurnDown, BluePortal, MoveRight, PlaceBomb, MoveLeft}, nil)
	for range 12 {
		m.step()
		js, _ := g.AppendNative(nil, FormatStateJSON, 0)
		f.Add(js)
	}
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h := bare(t)
		before, _ := h.AppendNative(nil, FormatStateJSON, 0)
		if err := h.LoadNative(data); err != nil {
			after, _ := h.AppendNative(nil, FormatStateJSON, 0)
			if !bytes.Equal(before, after) {
				t.Fatal("a failed load changed the game")
			}
			return
		}
		checkInvariants(t, h)
		acts := []int32{0, 0}
		r := make([]float32, Seats)
		te, tr := make([]bool, Seats), make([]bool, Seats)
		for range 12 {
			h.Step(acts, r, te, tr)
		}
	})
}

func TestZeroAllocs(t *testing.T) {
	shaped := DefaultConfig()
	shaped.CoinsReward, shaped.DangerReward = 0.01, 0.01
	for _, cfg := range []*Config{DefaultConfig(), VariantConfig(), shaped} {
		g, _ := New(cfg)
		obs := g.Spec().NewObsBuffers()
		mask := make([]uint8, NumActions)
		acts := make([]int32, Seats)
		r := make([]float32, Seats)
		te, tr := make([]bool, Seats), make([]bool, Seats)
		rows := [Seats][][]byte{g.Spec().NewObsBuffers(), g.Spec().NewObsBuffers()}
		var ver [Seats]uint64
		ver[0] = g.UpdateObs(0, rows[0], 0) // makes the record
		seed := uint64(0)
		k := 0
		allocs := testing.AllocsPerRun(2000, func() {
			if g.Done() {
				seed++
				g.Reset(seed)
			}
			k++
			acts[0], acts[1] = int32(k%NumActions), int32((k*7)%NumActions)
			g.Step(acts, r, te, tr)
			for s := range Seats {
				g.WriteObs(s, obs)
				ver[s] = g.UpdateObs(s, rows[s], ver[s])
				g.WriteMask(s, mask)
			}
			_, _ = g.Outcome()
		})
		if allocs != 0 {
			t.Errorf("size %d: %v allocations per step", cfg.Size, allocs)
		}
	}
}

func TestMask(t *testing.T) {
	g := bare(t)
	mask := make([]uint8, NumActions)
	g.WriteMask(1, mask)
	for a, m := range mask {
		if (a == 0) != (m == 1) {
			t.Fatalf("seat 1 (not to move): mask %v", mask)
		}
	}
	g.WriteMask(0, mask)
	want := []uint8{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}
	if !bytes.Equal(mask, want) {
		t.Errorf("seat 0 mask %v, want %v", mask, want)
	}
}
