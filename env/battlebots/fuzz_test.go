package battlebots

import (
	"bytes"
	"testing"
)

// FuzzStep plays random bouts and checks the invariants after every step.
func FuzzStep(f *testing.F) {
	f.Add(false, []byte{3, 3, 3, 3, 9, 17, 25, 33, 33, 33, 0, 0, 12, 20})
	f.Add(true, []byte("\x04\x04\x04\x04\x04\x04\x21\x21\x1b\x1f\x0b\x13"))
	f.Add(false, bytes.Repeat([]byte{33, 0}, 20))
	f.Fuzz(func(t *testing.T, tenByTen bool, actions []byte) {
		cfg := &Config{MaxRounds: 1 + len(actions)/3}
		if tenByTen {
			cfg.Arena = Arena10x10
		}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		acts := make([]int32, 2)
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		for len(actions) >= 2 && !g.Done() {
			// 0..33 mostly; some out of range, negative included.
			acts[0], acts[1] = int32(int8(actions[0]))%40, int32(int8(actions[1]))%40
			actions = actions[2:]
			g.Step(acts, rewards, term, trunc)
			checkInvariants(t, g)
			if rewards[0] != -rewards[1] || rewards[0] < -1 || rewards[0] > 1 {
				t.Fatalf("rewards %v", rewards)
			}
			if term[0] != term[1] || trunc[0] != trunc[1] || (term[0] && trunc[0]) || (term[0] || trunc[0]) != g.Done() {
				t.Fatalf("flags %v %v, done %v", term, trunc, g.Done())
			}
			if g.Done() && !trunc[0] && g.Bot(0).HP >= 1 && g.Bot(1).HP >= 1 {
				t.Fatalf("terminated with both bots alive")
			}
			// The referee view loads back to the same state.
			ref, _ := g.AppendNative(nil, FormatArena, -1)
			h, _ := New(cfg)
			if err := h.LoadNative(ref); err != nil {
				t.Fatalf("referee view does not load: %v\n%s", err, ref)
			}
			if back, _ := h.AppendNative(nil, FormatArena, -1); !bytes.Equal(back, ref) {
				t.Fatalf("round trip:\n%s\nwant:\n%s", back, ref)
			}
		}
	})
}

func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	b1, b2 := g.Bot(0), g.Bot(1)
	if !g.InBounds(b1.X, b1.Y) || !g.InBounds(b2.X, b2.Y) {
		t.Fatalf("bot off the arena: %+v %+v", b1, b2)
	}
	if b1.X == b2.X && b1.Y == b2.Y {
		t.Fatalf("bots share a cell: %+v %+v", b1, b2)
	}
	if b1.HP > StartHP || b2.HP > StartHP {
		t.Fatalf("HP grew: %+v %+v", b1, b2)
	}
	if g.paralysed < 0 || g.paralysed > 2 {
		t.Fatalf("paralysis counter %d", g.paralysed)
	}
	// A bout cannot come near the list bounds.
	if g.nBullets > 8 || g.nMissiles > 10 {
		t.Fatalf("%d bullets, %d missiles in flight", g.nBullets, g.nMissiles)
	}
	for i := range g.nBullets {
		if p := g.bullets[i]; !g.InBounds(p.X, p.Y) || p.dead {
			t.Fatalf("bullet %+v", p)
		}
	}
	for i := range g.nMissiles {
		if p := g.missiles[i]; !g.InBounds(p.X, p.Y) || p.dead {
			t.Fatalf("missile %+v", p)
		}
	}
	n, dead := 0, 0
	for i, f := range g.mines {
		if f == 0 {
			continue
		}
		n++
		if f&mineDead != 0 {
			dead++
		}
		seat := int(f >> 2 & 1)
		if g.mineBits[seat][i>>6]&(1<<(i&63)) == 0 || g.mineBits[1-seat][i>>6]&(1<<(i&63)) != 0 ||
			(g.deadBits[i>>6]&(1<<(i&63)) != 0) != (f&mineDead != 0) {
			t.Fatalf("mine bitsets disagree at cell %d", i)
		}
		if f&mineLive == 0 || !g.InBounds(i%Side, i/Side) {
			t.Fatalf("mine cell %d flags %b", i, f)
		}
	}
	if n != g.nMines || dead != g.nDead {
		t.Fatalf("mine counts %d/%d, cells say %d/%d", g.nMines, g.nDead, n, dead)
	}
}

// FuzzParseCommand checks that the parser never panics, that ok matches
// the known commands, and that every accepted command round-trips.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"N", "B  E", " M SW\n", "L", "b e", "P", "NO", "", "\xff\xfe", "B\u2003NE"} {
		f.Add([]byte(s))
	}
	g, _ := New(DefaultConfig())
	f.Fuzz(func(t *testing.T, text []byte) {
		a, ok := g.ParseCommand(0, text)
		if a < 0 || a >= NumActions {
			t.Fatalf("action %d out of range", a)
		}
		if !ok && a != 0 {
			t.Fatalf("malformed %q gave action %d", text, a)
		}
		if ok {
			// The canonical form of an accepted command means the same.
			canon := g.AppendCommand(nil, 0, a)
			if b, ok2 := g.ParseCommand(0, canon); b != a || !ok2 {
				t.Fatalf("%q → %d → %q → %d", text, a, canon, b)
			}
		}
	})
}

// FuzzLoadNative checks that the loader never panics, leaves the game as it
// was on error, and that whatever it accepts renders and loads back the
// same.
func FuzzLoadNative(f *testing.F) {
	f.Add([]byte(specExample))
	f.Add([]byte(specExample + "L x=2 y=1 by=X dead\nP paralysed=1\nR round=7\n"))
	f.Add([]byte("..........\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, _ := New(DefaultConfig())
		before, _ := g.AppendNative(nil, FormatArena, -1)
		if err := g.LoadNative(data); err != nil {
			if after, _ := g.AppendNative(nil, FormatArena, -1); !bytes.Equal(after, before) {
				t.Fatal("a failed load changed the game")
			}
			return
		}
		ref, _ := g.AppendNative(nil, FormatArena, -1)
		h, _ := New(DefaultConfig())
		if err := h.LoadNative(ref); err != nil {
			t.Fatalf("re-load: %v\n%s", err, ref)
		}
		if back, _ := h.AppendNative(nil, FormatArena, -1); !bytes.Equal(back, ref) {
			t.Fatalf("round trip:\n%s\nwant:\n%s", back, ref)
		}
		acts := []int32{int32(len(data) % NumActions), int32(len(data) % 7)}
		h.Step(acts, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	})
}
