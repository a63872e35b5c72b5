package battleships

import (
	"testing"
)

// FuzzStep drives arbitrary actions (including out-of-range ones) and
// checks invariants: no panic, energy ≥ 0, points consistent with hits,
// the round cap respected.
func FuzzStep(f *testing.F) {
	f.Add(uint64(1), []byte{1, 2, 3, 4, 200, 0, 9})
	f.Add(uint64(7), []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		cfg := &Config{Size: SizeSmall}
		if seed%2 == 0 {
			cfg.Placement = PlacementLearn
		}
		g, _ := New(cfg)
		g.Reset(seed)
		acts := make([]int32, 2)
		var r [2]float32
		var te, tr [2]bool
		for i := 0; i+3 < len(data) && !g.done; i += 4 {
			acts[0] = int32(data[i])<<8 | int32(data[i+1])
			acts[1] = int32(data[i+2])<<8 | int32(data[i+3]) - 100
			if g.phase == 1 && g.learn && data[i]%2 == 0 {
				f := RandomFleet(g.r, g.n)
				k := g.pend[0].n % NumShips
				acts[0] = PlaceAction(g.n, int(f[k].X), int(f[k].Y), f[k].Dir)
			}
			g.Step(acts, r[:], te[:], tr[:])
			for s := range Seats {
				p := &g.players[s]
				if p.Energy < 0 {
					t.Fatalf("seat %d energy %d", s, p.Energy)
				}
				if !p.Killed && p.Points%10 != 0 {
					t.Fatalf("points %d", p.Points)
				}
				if p.ShotsHit > p.ShotsFired*5 {
					t.Fatalf("hits %d > 5 × shots %d", p.ShotsHit, p.ShotsFired)
				}
			}
			if g.round > g.maxRound+1 {
				t.Fatalf("round %d past the cap", g.round)
			}
		}
	})
}

// FuzzParseCommand feeds arbitrary place.txt / command.txt text in both
// phases: never a panic, and the action is always in range.
func FuzzParseCommand(f *testing.F) {
	f.Add([]byte("1,3,4\r\n"))
	f.Add([]byte("Submarine 0 0 North\nDestroyer 1 0 North\nBattleship 2 0 North\nCarrier 3 0 North\nCruiser 4 0 North\n"))
	f.Add([]byte("8,-2147483648,2147483647"))
	g1, _ := New(&Config{Placement: PlacementLearn})
	g2, _ := New(&Config{})
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, g := range []*Game{g1, g2} {
			a, _ := g.ParseCommand(0, text)
			if a < 0 || int(a) >= g.spec.Actions {
				t.Fatalf("action %d out of range", a)
			}
			back := g.AppendCommand(nil, 0, a)
			if g.phase == 2 {
				if b, _ := g.ParseCommand(0, back); b != a {
					t.Fatalf("%q → %d → %q → %d", text, a, back, b)
				}
			}
		}
	})
}

// FuzzLoadNative feeds mutated state.json: never a panic, and whatever
// loads writes back identically.
func FuzzLoadNative(f *testing.F) {
	g, _ := New(&Config{Size: SizeSmall})
	good, _ := g.AppendNative(nil, FormatStateJSON, -1)
	f.Add(good)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, _ := New(&Config{Size: SizeSmall})
		if err := h.LoadNative(data); err != nil {
			return
		}
		out, _ := h.AppendNative(nil, FormatStateJSON, -1)
		k, _ := New(&Config{Size: SizeSmall})
		if err := k.LoadNative(out); err != nil {
			t.Fatalf("re-load: %v", err)
		}
		again, _ := k.AppendNative(nil, FormatStateJSON, -1)
		if string(again) != string(out) {
			t.Fatal("not stable")
		}
		var r [2]float32
		var te, tr [2]bool
		k.Step([]int32{1, 2}, r[:], te[:], tr[:])
	})
}
