package bomberman

import (
	"math/bits"
	"testing"
)

// FuzzStep plays random games and checks the invariants of the state after
// every step.
func FuzzStep(f *testing.F) {
	f.Add(uint64(1), uint8(2), false, []byte{5, 0, 3, 3, 0, 0, 6, 6, 9, 255, 5, 5})
	f.Add(uint64(2), uint8(4), true, []byte("\x05\x05\x05\x05\x03\x02\x01\x04\x00\x00\x00\x00\x06\x06\x06\x06"))
	f.Add(uint64(203279916), uint8(10), false, make([]byte, 600))
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, console bool, actions []byte) {
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		cfg := &Config{Players: n, MaxRounds: 1 + int(seed%500)}
		if console {
			for s := range n {
				cfg.ConsoleSeats = append(cfg.ConsoleSeats, s)
			}
		}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		fuzzPlay(t, g, actions, nil)
	})
}

// fuzzPlay steps g with the fuzzer's actions, one byte a seat a step
// (0..6 mostly; the rest out of range, negative included), until they run
// out or the game ends. After every step it checks the state's invariants
// and each seat's reward (-1..1) and flags (not both set; a dead seat
// terminated), then calls seat, if not nil, for every seat.
func fuzzPlay(t *testing.T, g *Game, actions []byte, seat func(s int)) {
	t.Helper()
	n := g.nPlayers
	acts := make([]int32, n)
	rewards := make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	for len(actions) >= n && !g.Done() {
		for s := range n {
			acts[s] = int32(int8(actions[s])) % 10
		}
		actions = actions[n:]
		g.Step(acts, rewards, term, trunc)
		checkInvariants(t, g)
		for s := range n {
			if rewards[s] < -1 || rewards[s] > 1 || (term[s] && trunc[s]) {
				t.Fatalf("seat %d: reward %v, terminated %v, truncated %v", s, rewards[s], term[s], trunc[s])
			}
			if g.players[s].Killed && !term[s] {
				t.Fatalf("dead seat %d not terminated", s)
			}
			if seat != nil {
				seat(s)
			}
		}
	}
}

// checkInvariants fails the test if the state of g is inconsistent.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	var onMap [MaxPlayers]int
	for y := 1; y <= g.height; y++ {
		for x := 1; x <= g.width; x++ {
			c := g.cells[g.index(x, y)]
			if c.Entity == PlayerEntity {
				s := int(c.Player)
				if s >= g.nPlayers {
					t.Fatalf("(%d,%d) holds seat %d of %d", x, y, s, g.nPlayers)
				}
				p := g.players[s]
				if p.Killed || p.X != x || p.Y != y {
					t.Fatalf("(%d,%d) holds seat %d, which is killed=%v at (%d,%d)", x, y, s, p.Killed, p.X, p.Y)
				}
				onMap[s]++
			}
			if c.bomb != 0 {
				b := g.bombs[c.bomb-1]
				if !b.live || b.X != x || b.Y != y {
					t.Fatalf("(%d,%d) points at bomb slot %d: %+v", x, y, c.bomb-1, b)
				}
			}
			if bits.OnesCount16(c.touched) > g.nPlayers {
				t.Fatalf("(%d,%d) touched by %b", x, y, c.touched)
			}
		}
	}
	for s := range g.nPlayers {
		p := g.players[s]
		if !g.InBounds(p.X, p.Y) {
			t.Fatalf("seat %d off the map at (%d,%d)", s, p.X, p.Y)
		}
		if want := 1; p.Killed {
			if onMap[s] != 0 {
				t.Fatalf("dead seat %d still on the map", s)
			}
		} else if onMap[s] != want {
			t.Fatalf("alive seat %d on the map %d times", s, onMap[s])
		}
		if p.BombRadius < 1 || p.BombBag < 1 {
			t.Fatalf("seat %d radius %d bag %d", s, p.BombRadius, p.BombBag)
		}
		if n := g.bombsOnMap(s); n > p.BombBag {
			t.Fatalf("seat %d has %d bombs with bag %d", s, n, p.BombBag)
		}
		touched := 0
		for i := range g.width * g.height {
			if g.cells[i].Touched(s) {
				touched++
			}
		}
		if touched != p.Touched {
			t.Fatalf("seat %d touched count %d, cells say %d", s, p.Touched, touched)
		}
	}
	for b, bomb := range g.bombs {
		if !bomb.live {
			continue
		}
		if !g.InBounds(bomb.X, bomb.Y) || int(g.cells[g.index(bomb.X, bomb.Y)].bomb) != b+1 {
			t.Fatalf("bomb slot %d at (%d,%d) not on its cell", b, bomb.X, bomb.Y)
		}
		if bomb.Exploding || bomb.Timer < 1 || bomb.Radius < 1 || bomb.Owner >= g.nPlayers {
			t.Fatalf("bomb slot %d after a step: %+v", b, bomb)
		}
	}
}
