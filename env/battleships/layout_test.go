package battleships

import (
	"testing"
	"unsafe"
)

// TestLayout checks the cache-line layout the Game and Player comments
// state: each player starts a 64-byte line, its hot fields fill its first
// two lines, and the fields a Step reads before players (with the delta list's
// first four entries) lie in lines 1–5.
func TestLayout(t *testing.T) {
	const line = 64
	var g Game
	var p Player
	if s := unsafe.Sizeof(p); s%line != 0 {
		t.Errorf("Player is %d bytes, not a whole number of %d-byte lines", s, line)
	}
	if o := unsafe.Offsetof(g.players); o%line != 0 {
		t.Errorf("players at offset %d, not at a line", o)
	}
	if o := unsafe.Offsetof(p.Name); o != 2*line {
		t.Errorf("Player's hot fields end at %d, want %d", o, 2*line)
	}
	if o := unsafe.Offsetof(g.delta) + 4*unsafe.Sizeof(g.delta[0]); o > 6*line {
		t.Errorf("the hot fields and the delta list's first entries end at %d, past line 5", o)
	}
	if s := unsafe.Sizeof(g); s > 8192 {
		t.Errorf("Game is %d bytes, past its 8 KiB size class", s)
	}
	t.Logf("Game %d bytes, players at %d, delta at %d, moves at %d, changed at %d", unsafe.Sizeof(g), unsafe.Offsetof(g.players), unsafe.Offsetof(g.delta), unsafe.Offsetof(g.moves), unsafe.Offsetof(g.changed))
}
