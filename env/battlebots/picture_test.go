package battlebots

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/internal/testutil"
)

// paintBout plays a bout of random actions (seeded) and calls f after
// Reset and after every round.
func paintBout(t *testing.T, g *Game, seed uint64, f func()) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2))
	g.Reset(seed)
	f()
	testutil.StepRandomly(g, g.Spec().MaxSteps, func(int, []uint8) int32 { return int32(r.IntN(NumActions)) }, nil, f)
}

// TestPaintSizeDependsOnlyOnConfig: every picture of a bout, for every
// seat (out-of-range ones included), has the documented size of its arena.
func TestPaintSizeDependsOnlyOnConfig(t *testing.T) {
	tests := []struct {
		arena string
		want  image.Point
	}{
		{Arena9x9, image.Pt(360, 388)},
		{Arena10x10, image.Pt(392, 420)},
	}
	for _, tt := range tests {
		t.Run("arena_"+tt.arena, func(t *testing.T) {
			g, err := New(&Config{Arena: tt.arena, MaxRounds: 25})
			if err != nil {
				t.Fatal(err)
			}
			paintBout(t, g, 5, func() { testutil.PaintSize(t, g, 2, tt.want, g.Round()) })
		})
	}
}

// TestPaintFollowsTheState: a round that moves a bot changes the picture.
func TestPaintFollowsTheState(t *testing.T) {
	g, _ := New(DefaultConfig())
	before := g.Paint(-1)
	playCommands(t, g, [][2]string{{"E", "NO"}})
	if bytes.Equal(before.Pix, g.Paint(-1).Pix) {
		t.Error("the picture did not change after bot1 moved")
	}
}

// paintState is a referee view with every kind of thing on the board:
// bot1 (Y) at (3,3), bot2 (X) at (6,6) below 1 HP, a bullet, a missile,
// bot1's mine at (8,2), bot2's mines at (2,8) and, dead, at (8,8), and the
// EMP counter at 2.
const paintState = `..........
..........
..........
...Y......
..........
..........
......X...
..........
..........
..........
Y hp=10
X hp=0
B x=5 y=2 dir=E
M x=2 y=7 dir=N
L x=8 y=2 by=Y
L x=2 y=8 by=X
L x=8 y=8 by=X dead
P paralysed=2
R round=12
`

// TestPaintColours checks what known cells show, as each seat sees them.
func TestPaintColours(t *testing.T) {
	g, _ := New(DefaultConfig())
	if err := g.LoadNative([]byte(paintState)); err != nil {
		t.Fatal(err)
	}
	p := g.picture()
	ref, bot1, bot2 := g.Paint(-1), g.Paint(0), g.Paint(1)
	// below returns the pixel k pixels below the centre of (x, y).
	below := func(x, y, k int) image.Point { return p.centre(x, y).Add(image.Pt(0, k)) }
	cellMin := func(x, y int) image.Point {
		col, row := p.cell(x, y)
		return image.Pt(paintBorder+col*paintCell, paintBorder+row*paintCell)
	}
	stripY := p.stripTop()
	tests := []struct {
		name string
		img  *image.RGBA
		at   image.Point
		want color.RGBA
	}{
		{"wall_ring", ref, image.Pt(paintBorder+1, paintBorder+1), pic.ColorWall},
		{"floor", ref, below(5, 5, 0), pic.ColorFloor},
		{"bot1_in_seat_colour", ref, below(3, 3, 8), pic.SeatColor(0)},
		{"dead_bot2_is_grey", ref, below(6, 6, 8), pic.ColorDeadShade},
		{"dead_bot2_keeps_a_ring_of_its_colour", ref, below(6, 6, 11), pic.SeatColor(1)},
		{"emp_halo", ref, below(3, 3, 14), colorEMP},
		{"bullet_is_white", ref, below(5, 2, 0), colorBullet},
		{"missile_is_orange", ref, below(2, 7, 0), colorMissile},
		{"referee_sees_bot1_mine", ref, below(8, 2, 6), pic.SeatColor(0)},
		{"referee_sees_bot2_mine", ref, below(2, 8, 6), pic.SeatColor(1)},
		{"dead_mine_is_grey", ref, below(8, 8, 6), pic.ColorDeadShade},
		{"bot1_sees_its_mine", bot1, below(8, 2, 6), pic.SeatColor(0)},
		{"bot1_does_not_see_bot2_mine", bot1, below(2, 8, 6), pic.ColorFloor},
		{"bot2_sees_its_mine", bot2, below(2, 8, 6), pic.SeatColor(1)},
		{"bot2_does_not_see_bot1_mine", bot2, below(8, 2, 6), pic.ColorFloor},
		{"referee_frames_nobody", ref, cellMin(3, 3), pic.ColorFloor},
		{"bot1_framed_for_seat_0", bot1, cellMin(3, 3), pic.ColorText},
		{"bot2_framed_for_seat_1", bot2, cellMin(6, 6), pic.ColorText},
		{"strip_swatch_bot1", ref, image.Pt(paintBorder+8, stripY+8), pic.SeatColor(0)},
		{"strip_hp_bar_full", ref, image.Pt(paintBorder+20+9*7+2, stripY+8), pic.SeatColor(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.img.RGBAAt(tt.at.X, tt.at.Y); got != tt.want {
				t.Errorf("pixel %v: %v, want %v", tt.at, got, tt.want)
			}
		})
	}
	testutil.PaintOutOfRange(t, g, 2)
}

// TestPaintLeavesStateUnchanged: painting every seat changes no view.
func TestPaintLeavesStateUnchanged(t *testing.T) {
	g, _ := New(&Config{MaxRounds: 15})
	paintBout(t, g, 9, func() { testutil.PaintKeepsState(t, g, g.Round()) })
}
