package battlebots

import (
	"testing"
	"unsafe"
)

// TestGameHotLines: what a step reads of a Game lies in its first two
// cache lines (the 56 bytes after the malloc header, then one line), the
// mine bits in the third, so that a pool stepping more games than the
// caches hold misses two lines a game, three while mines lie.
func TestGameHotLines(t *testing.T) {
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if m := uintptr(unsafe.Pointer(g)) % 64; m != 8 {
		t.Skipf("this runtime puts a Game %d bytes past a cache line, not the 8 its layout is tuned for", m)
	}
	line := func(off uintptr) uintptr { return (8 + off) / 64 }
	for _, f := range []struct {
		name string
		off  uintptr
		size uintptr
		want uintptr
	}{
		{"lo", unsafe.Offsetof(g.lo), unsafe.Sizeof(g.lo), 0},
		{"maxRounds", unsafe.Offsetof(g.maxRounds), unsafe.Sizeof(g.maxRounds), 0},
		{"nBullets, nMissiles", unsafe.Offsetof(g.nBullets), 2 * unsafe.Sizeof(g.nBullets), 0},
		{"nMines", unsafe.Offsetof(g.nMines), unsafe.Sizeof(g.nMines), 0},
		{"paralysed, round", unsafe.Offsetof(g.paralysed), 2 * unsafe.Sizeof(g.round), 0},
		{"bots", unsafe.Offsetof(g.bots), unsafe.Sizeof(g.bots), 1},
		{"done, truncatedEnd", unsafe.Offsetof(g.done), 2, 1},
		{"hpReward", unsafe.Offsetof(g.hpReward), unsafe.Sizeof(g.hpReward), 1},
		{"marks", unsafe.Offsetof(g.marks), unsafe.Sizeof(g.marks), 1},
		{"nDead", unsafe.Offsetof(g.nDead), unsafe.Sizeof(g.nDead), 2},
		{"mineBits", unsafe.Offsetof(g.mineBits), unsafe.Sizeof(g.mineBits), 2},
		{"deadBits", unsafe.Offsetof(g.deadBits), unsafe.Sizeof(g.deadBits), 2},
	} {
		if a, b := line(f.off), line(f.off+f.size-1); a != f.want || b != f.want {
			t.Errorf("%s: lines %d to %d, want line %d", f.name, a, b, f.want)
		}
	}
}
