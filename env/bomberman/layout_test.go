package bomberman

import (
	"testing"
	"unsafe"
)

// TestGameRoundSpan: on the map of 2–4 players (21×21) everything a round
// and an observation touch of a Game lies in one span from its start to
// the end of the map's cells, within four 4 KiB pages, so that a pool of
// more games than the caches and the TLB hold misses as few pages a game
// as it can; what a round does not touch (the rest of the cells array,
// sized for the 41×41 map, the roundInfo.json records, the names) comes
// after it. A Cell keeps the per-cell marks of a round (shown, destroy)
// in its own 16 bytes.
func TestGameRoundSpan(t *testing.T) {
	var g Game
	if s := unsafe.Sizeof(Cell{}); s != 16 {
		t.Errorf("a Cell takes %d bytes, want 16", s)
	}
	side := SideFor(4)
	end := unsafe.Offsetof(g.cells) + uintptr(side*side)*unsafe.Sizeof(Cell{})
	if end > 4*4096 {
		t.Errorf("a %d×%d map's cells end %d bytes into the Game, past four 4 KiB pages", side, side, end)
	}
	for _, f := range []struct {
		name string
		off  uintptr
	}{
		{"scratch", unsafe.Offsetof(g.scratch)},
		{"delta", unsafe.Offsetof(g.delta)},
		{"bombs", unsafe.Offsetof(g.bombs)},
		{"players", unsafe.Offsetof(g.players)},
	} {
		if f.off > unsafe.Offsetof(g.cells) {
			t.Errorf("%s lies after the cells, outside the round's span", f.name)
		}
	}
}
