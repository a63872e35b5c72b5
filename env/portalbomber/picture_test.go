package portalbomber

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/internal/testutil"
)

// paintGame plays up to steps random legal moves (seeded) and calls f after
// Reset and after every step.
func paintGame(t *testing.T, g *Game, seed uint64, steps int, f func()) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	g.Reset(seed)
	f()
	testutil.StepRandomly(g, steps, func(_ int, mask []uint8) int32 {
		if a := r.IntN(NumActions); mask[a] != 0 && r.IntN(2) == 0 {
			return int32(a)
		}
		return 0
	}, nil, f)
}

// TestPaintSizeDependsOnlyOnConfig: every picture of a game, for every
// seat (out-of-range ones included), has the size of the first: the
// documented one for the presets, even and at most a few hundred pixels
// for every board side.
func TestPaintSizeDependsOnlyOnConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  *Config
		want image.Point // zero: only the bounds are checked
	}{
		{"default", DefaultConfig(), image.Pt(316, 356)},
		{"variant", VariantConfig(), image.Pt(314, 354)},
		{"smallest", &Config{Size: MinSize, SoftDensity: 70, ApocalypseAfter: 10}, image.Point{}},
		{"largest", &Config{Size: MaxSize, SoftDensity: 70, ApocalypseAfter: 400}, image.Point{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			size := testutil.WantPaintSize(t, g, tt.want, 400)
			paintGame(t, g, 4, 40, func() { testutil.PaintSize(t, g, Seats, size, g.MoveNumber()) })
		})
	}
}

// TestPaintFollowsTheState: a move changes the picture.
func TestPaintFollowsTheState(t *testing.T) {
	g := bare(t)
	before := g.Paint(-1)
	play(t, g, []Action{MoveDown}, nil).step()
	if bytes.Equal(before.Pix, g.Paint(-1).Pix) {
		t.Error("the picture did not change after player 0 moved")
	}
}

// TestPaintColours checks what known cells show, on scripted games on the
// bare scenario board (forced soft blocks only).
func TestPaintColours(t *testing.T) {
	type probe struct {
		name string
		seat int                         // the seat painting
		at   func(p picture) image.Point // the pixel
		want color.RGBA
	}
	// Helpers placing a probe in cell (x, y): its centre moved by (dx, dy),
	// or its top-left pixel moved by (dx, dy).
	centre := func(x, y, dx, dy int) func(picture) image.Point {
		return func(p picture) image.Point {
			r := p.rect(x, y)
			return r.Min.Add(image.Pt(p.cell/2+dx, p.cell/2+dy))
		}
	}
	corner := func(x, y, dx, dy int) func(picture) image.Point {
		return func(p picture) image.Point { return p.rect(x, y).Min.Add(image.Pt(dx, dy)) }
	}
	// swatch returns seat s's strip swatch, moved by (dx, dy) from its
	// centre.
	swatch := func(s, dx, dy int) func(picture) image.Point {
		return func(p picture) image.Point {
			return image.Pt(paintBorder+5+paintIcon/2+dx, p.stripY+s*paintRow+paintIcon/2+dy)
		}
	}
	tests := []struct {
		name   string
		cfg    func(*Config)
		p0, p1 []Action
		rounds int
		probes []probe
	}{
		{
			name: "portals_and_a_bomb",
			// Player 0 shoots orange onto (3,1)'s left face and blue onto
			// (1,3)'s top; player 1 bombs (9,9) and steps up.
			p0:     []Action{TurnRight, OrangePortal, TurnDown, BluePortal},
			p1:     []Action{PlaceBomb, MoveUp},
			rounds: 4,
			probes: []probe{
				{"hard_block", -1, corner(0, 0, 1, 1), pic.ColorWall},
				{"soft_block", -1, centre(7, 9, 0, 0), pic.ColorSoftWall},
				{"floor", -1, centre(5, 5, 0, 0), pic.ColorFloor},
				{"player_0_in_seat_colour", -1, centre(1, 1, 0, 0), pic.SeatColor(0)},
				{"player_0_faces_down", -1, centre(1, 1, 0, 6), pic.ColorText},
				{"player_1_in_seat_colour", -1, centre(9, 8, 0, 0), pic.SeatColor(1)},
				{"bomb_is_black", -1, centre(9, 9, 0, 8), pic.ColorBomb},
				{"bomb_ringed_in_owner_colour", -1, centre(9, 9, 0, 11), pic.SeatColor(1)},
				{"orange_portal_on_the_left_face", -1, corner(3, 1, 1, 4), colorOrangePortal},
				{"orange_portal_owner_mark", -1, corner(3, 1, 2, 14), pic.SeatColor(0)},
				{"blue_portal_on_the_top_face", -1, corner(1, 3, 4, 1), colorBluePortal},
				{"referee_frames_nobody", -1, corner(1, 1, 0, 0), pic.ColorFloor},
				{"own_player_framed", 0, corner(1, 1, 0, 0), pic.ColorText},
				{"other_player_not_framed", 0, corner(9, 8, 0, 0), pic.ColorFloor},
				{"swatch_alive", -1, swatch(0, 0, 0), pic.SeatColor(0)},
			},
		},
		{
			name:   "player_on_its_bomb",
			p0:     []Action{PlaceBomb},
			rounds: 1,
			probes: []probe{
				{"player_around_the_bomb", -1, centre(1, 1, 0, 11), pic.SeatColor(0)},
				{"bomb_inside", -1, centre(1, 1, -4, 0), pic.ColorBomb},
			},
		},
		{
			name:   "suicide",
			p0:     []Action{PlaceBomb},
			rounds: 5,
			probes: []probe{
				{"trail_is_fire", -1, centre(2, 1, 0, 0), pic.ColorFire},
				{"dead_player_gone", -1, centre(1, 1, 0, 0), pic.ColorFire},
				{"swatch_dead_is_grey", -1, swatch(0, 0, 0), pic.ColorDeadShade},
				{"swatch_dead_keeps_its_border", -1, swatch(0, -5, -5), pic.SeatColor(0)},
				{"swatch_alive", -1, swatch(1, 0, 0), pic.SeatColor(1)},
			},
		},
		{
			name:   "apocalypse",
			cfg:    func(c *Config) { c.ApocalypseAfter = 0 },
			rounds: 1,
			probes: []probe{
				{"ember_on_the_burning_block", -1, centre(0, 10, 0, 0), pic.ColorFire},
				{"burning_block_stays_a_block", -1, corner(0, 10, 1, 1), pic.ColorWall},
				{"ember_on_the_mirror_cell", -1, centre(10, 0, 0, 0), pic.ColorFire},
				{"next_cell_not_burning", -1, centre(0, 9, 0, 0), pic.ColorWall},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := bare(t, tt.cfg)
			play(t, g, tt.p0, tt.p1).rounds(tt.rounds)
			p := g.picture()
			for _, pr := range tt.probes {
				at := pr.at(p)
				if got := g.Paint(pr.seat).RGBAAt(at.X, at.Y); got != pr.want {
					t.Errorf("%s: seat %d pixel %v: %v, want %v", pr.name, pr.seat, at, got, pr.want)
				}
			}
			// The seat to move has the white bar beside its swatch.
			img := g.Paint(-1)
			for s := range Seats {
				got := img.RGBAAt(paintBorder+1, p.stripY+s*paintRow+2) == pic.ColorText
				if want := !g.Done() && g.ToMove() == s; got != want {
					t.Errorf("seat %d: to-move bar %v, want %v", s, got, want)
				}
			}
			testutil.PaintOutOfRange(t, g, Seats)
		})
	}
}

// TestPaintLeavesStateUnchanged: painting every seat changes no native
// format.
func TestPaintLeavesStateUnchanged(t *testing.T) {
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	paintGame(t, g, 6, 30, func() { testutil.PaintKeepsState(t, g, g.MoveNumber()) })
}
