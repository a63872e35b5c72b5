package battlecube

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/internal/testutil"
)

// paintSteps plays up to steps ticks of random legal actions (the safe
// mask's, so that bots last) and calls f after Reset and after every tick.
func paintSteps(t *testing.T, g *Game, seed uint64, steps int, f func()) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	g.Reset(seed)
	f()
	testutil.StepRandomly(g, steps, func(_ int, mask []uint8) int32 {
		for {
			a := r.IntN(len(mask))
			if r.IntN(3) == 0 {
				a = r.IntN(int(NumFixedActions))
			}
			if mask[a] != 0 {
				return int32(a)
			}
		}
	}, nil, f)
}

// pixel returns img's colour at p.
func pixel(img *image.RGBA, p image.Point) color.RGBA { return img.RGBAAt(p.X, p.Y) }

// centre returns the centre pixel of cube cell (x, y, z).
func (p picture) centre(x, y, z int) image.Point {
	r := p.rect(x, y, z)
	return r.Min.Add(r.Max).Div(2)
}

// TestPaintSizeDependsOnlyOnConfig: every picture of an episode, for every
// seat (out-of-range ones included), has the size of the first; sizes are
// even and at most a few hundred pixels, and the default's is documented.
func TestPaintSizeDependsOnlyOnConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  func(*Config)
		want image.Point // zero: only the bounds are checked
	}{
		{"default", func(*Config) {}, image.Pt(316, 332)},
		{"edge_1_one_player", func(c *Config) { c.Edge, c.Players = 1, 1 }, image.Point{}},
		{"edge_3", func(c *Config) { c.Edge, c.Players = 3, 2 }, image.Point{}},
		{"edge_13_64_players", func(c *Config) { c.Edge, c.Players = 13, 64 }, image.Point{}},
		{"edge_32_max", func(c *Config) { c.Edge = MaxEdge }, image.Pt(406, 422)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.SafeMask = true
			tt.cfg(cfg)
			g, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			size := testutil.WantPaintSize(t, g, tt.want, 480)
			n := g.Players()
			seats := []int{-2, -1, 0, n - 1, n}
			steps := 25
			if cfg.Edge > 8 {
				steps = 8
			}
			paintSteps(t, g, 7, steps, func() {
				for _, seat := range seats {
					if got := g.Paint(seat).Rect.Size(); got != size {
						t.Fatalf("tick %d seat %d: size %v, want %v", g.Tick(), seat, got, size)
					}
				}
			})
		})
	}
}

// TestPaintFollowsTheState: a tick that moves bots changes the picture.
func TestPaintFollowsTheState(t *testing.T) {
	g, err := New(testConfig(1, 100, []string{"A", "B"}, [3]int{1, 1, 1}, [3]int{5, 5, 5}))
	if err != nil {
		t.Fatal(err)
	}
	before := g.Paint(-1)
	g.Step([]int32{int32(MovePlusX), int32(MovePlusZ)}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	after := g.Paint(-1)
	if bytes.Equal(before.Pix, after.Pix) {
		t.Error("the picture did not change after the bots moved")
	}
}

// TestPaintColours checks what known cells show.
func TestPaintColours(t *testing.T) {
	// Three bots; A bombs its own cell in the first tick and is lost there.
	g, err := New(testConfig(1, 100, []string{"A", "B", "C"}, [3]int{1, 2, 3}, [3]int{4, 4, 0}, [3]int{7, 7, 7}))
	if err != nil {
		t.Fatal(err)
	}
	g.Step([]int32{int32(BombAction(8, 1, 2, 3)), int32(BombAction(8, 6, 0, 5)), 0}, make([]float32, 3), make([]bool, 3), make([]bool, 3))
	if g.Player(0).InPlay || g.Done() {
		t.Fatal("setup: want A lost on its own bomb and the game going on")
	}
	p := g.picture()
	full, seat2 := g.Paint(-1), g.Paint(2)
	corner := func(x, y, z int) image.Point { return p.rect(x, y, z).Min.Add(image.Pt(1, 1)) }
	off := func(pt image.Point, dx int) image.Point { return pt.Add(image.Pt(dx, 0)) }
	tests := []struct {
		name string
		img  *image.RGBA
		at   image.Point
		want color.RGBA
	}{
		{"bot_in_play_in_seat_colour", full, p.centre(4, 4, 0), pic.SeatColor(1)},
		{"third_bot_in_seat_colour", full, p.centre(7, 7, 7), pic.SeatColor(2)},
		{"empty_cell_is_floor", full, p.centre(0, 0, 0), pic.ColorFloor},
		{"bomb_is_black", full, p.centre(6, 0, 5), pic.ColorBomb},
		{"bomb_cell_is_danger", full, corner(6, 0, 5), pic.ColorDanger},
		{"lost_bot_keeps_a_dot_of_its_colour", full, p.centre(1, 2, 3), pic.SeatColor(0)},
		{"lost_bot_is_grey", full, off(p.centre(1, 2, 3), p.cell*3/10), pic.ColorDeadShade},
		{"collision_cell_is_fire", full, corner(1, 2, 3), pic.ColorFire},
		{"no_frame_for_the_referee", full, p.rect(7, 7, 7).Min, pic.ColorFloor},
		{"own_bot_framed", seat2, p.rect(7, 7, 7).Min, pic.ColorText},
		{"other_bot_not_framed", seat2, p.rect(4, 4, 0).Min, pic.ColorFloor},
		{"swatch_in_play", full, image.Pt(p.swatchX+1*(paintSwatch+paintSwatchGap)+paintSwatch/2, p.stripY+paintSwatch/2), pic.SeatColor(1)},
		{"swatch_lost_is_grey", full, image.Pt(p.swatchX+paintSwatch/2, p.stripY+paintSwatch/2), pic.ColorDeadShade},
		{"swatch_lost_keeps_its_border", full, image.Pt(p.swatchX, p.stripY), pic.SeatColor(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pixel(tt.img, tt.at); got != tt.want {
				t.Errorf("pixel %v: %v, want %v", tt.at, got, tt.want)
			}
		})
	}
	testutil.PaintOutOfRange(t, g, g.Spec().Seats)
}

// TestPaintLeavesStateUnchanged: painting every seat changes no native
// format, the tick or the next step's outcome.
func TestPaintLeavesStateUnchanged(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SafeMask = true
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	paintSteps(t, g, 3, 10, func() {
		tick := g.Tick()
		testutil.PaintKeepsState(t, g, tick)
		if g.Tick() != tick {
			t.Fatalf("Paint changed the tick %d to %d", tick, g.Tick())
		}
	})
}
