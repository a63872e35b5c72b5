package battleships

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"reflect"
	"testing"

	pic "github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/internal/testutil"
)

// paintCellRect returns the pixel rectangle of cell (x, y) of seat's map in
// g's pictures, as Paint lays them out.
func paintCellRect(g *Game, seat, x, y int) image.Rectangle {
	col, row := g.cellAt(seat*(g.n+1), x, y)
	c := pic.Canvas{Cell: pictureCell, Border: pictureBorder}
	return c.CellRect(col, row)
}

// Where in a cell a check looks: the centre (discs: shots, shield hits),
// the background (clear of discs and frames) or the edge (frames).
const (
	atCentre = iota
	atBackground
	atEdge
)

// paintPixel returns the colour of img at where in r.
func paintPixel(img *image.RGBA, r image.Rectangle, where int) color.RGBA {
	switch where {
	case atBackground:
		return img.RGBAAt(r.Min.X+3, r.Min.Y+3)
	case atEdge:
		return img.RGBAAt(r.Min.X, r.Min.Y+r.Dy()/2)
	}
	return img.RGBAAt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// paintNew returns a game of cfg reset with seed.
func paintNew(t *testing.T, cfg *Config, seed uint64) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	return g
}

// paintStep processes one step with actions a (seat 0) and b (seat 1).
func paintStep(t *testing.T, g *Game, a, b int32) {
	t.Helper()
	var r [Seats]float32
	var te, tr [Seats]bool
	g.Step([]int32{a, b}, r[:], te[:], tr[:])
}

// paintCells returns seat's ship cells and water cells, in map order.
func paintCells(g *Game, seat int) (ships, water [][2]int) {
	for x := range g.n {
		for y := range g.n {
			if g.At(seat, x, y).Occupied() {
				ships = append(ships, [2]int{x, y})
			} else {
				water = append(water, [2]int{x, y})
			}
		}
	}
	return ships, water
}

// paintRandomly plays g with random legal actions (resetting with the next
// seed when a game ends) and calls visit after every step.
func paintRandomly(t *testing.T, g *Game, seed uint64, steps int, visit func()) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	testutil.StepRandomly(g, steps, func(_ int, mask []uint8) int32 { return testutil.RandomLegal(rng, mask) },
		func() { seed++; g.Reset(seed) }, visit)
}

func TestPictureSizeDependsOnlyOnTheConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want image.Point
	}{
		{"small", Config{Size: SizeSmall}, image.Pt(316, 238)},
		{"medium", Config{Size: SizeMedium}, image.Pt(436, 298)},
		{"large", Config{Size: SizeLarge}, image.Pt(596, 378)},
		{"small_learn", Config{Size: SizeSmall, Placement: PlacementLearn}, image.Pt(316, 238)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := paintNew(t, &tc.cfg, 1)
			if got := PictureSize(&g.cfg); got != tc.want {
				t.Fatalf("PictureSize = %v, want %v", got, tc.want)
			}
			if tc.want.X%2 != 0 || tc.want.Y%2 != 0 {
				t.Errorf("size %v is not even", tc.want)
			}
			testutil.PaintSize(t, g, Seats, tc.want, 0)
			steps := 0
			paintRandomly(t, g, 1, 150, func() {
				if steps++; steps%25 == 0 {
					testutil.PaintSize(t, g, Seats, tc.want, steps)
				}
			})
		})
	}
}

func TestPaintChangesWithTheState(t *testing.T) {
	g := paintNew(t, &Config{Size: SizeSmall}, 2)
	before := [Seats + 1][]byte{}
	for seat := -1; seat < Seats; seat++ {
		before[seat+1] = g.Paint(seat).Pix
	}
	paintRandomly(t, g, 2, 3, func() {})
	for seat := -1; seat < Seats; seat++ {
		if bytes.Equal(before[seat+1], g.Paint(seat).Pix) {
			t.Errorf("Paint(%d) did not change in 3 rounds", seat)
		}
	}
}

func TestPaintColours(t *testing.T) {
	type check struct {
		view, seat int // the picture's seat, the map's seat
		cell       [2]int
		where      int
		want       color.RGBA
	}
	for _, tc := range []struct {
		name string
		// setup plays the game; it returns the checks.
		setup func(t *testing.T, g *Game) []check
	}{
		{"own_ships_in_seat_colour", func(t *testing.T, g *Game) []check {
			a, _ := paintCells(g, 0)
			b, _ := paintCells(g, 1)
			return []check{
				{-1, 0, a[0], atCentre, pic.SeatColor(0)},
				{0, 0, a[0], atCentre, pic.SeatColor(0)},
				{-1, 1, b[0], atCentre, pic.SeatColor(1)},
				{1, 1, b[0], atCentre, pic.SeatColor(1)},
			}
		}},
		{"opponent_ships_hidden", func(t *testing.T, g *Game) []check {
			a, wa := paintCells(g, 0)
			b, _ := paintCells(g, 1)
			return []check{
				{1, 0, a[0], atCentre, pic.ColorHidden},
				{1, 0, wa[0], atCentre, pic.ColorHidden},
				{0, 1, b[0], atCentre, pic.ColorHidden},
			}
		}},
		{"water", func(t *testing.T, g *Game) []check {
			_, wa := paintCells(g, 0)
			return []check{{-1, 0, wa[0], atCentre, pic.ColorFloor}, {0, 0, wa[0], atCentre, pic.ColorFloor}}
		}},
		{"hit_ship", func(t *testing.T, g *Game) []check {
			a, _ := paintCells(g, 0)
			paintStep(t, g, 0, CommandAction(g.n, CodeSingle, a[0][0], a[0][1]))
			return []check{
				{-1, 0, a[0], atCentre, pic.ColorFire},
				{0, 0, a[0], atCentre, pic.ColorFire},
				{1, 0, a[0], atCentre, pic.ColorFire},
				{0, 0, a[0], atBackground, pic.SeatColor(0)},
				{1, 0, a[0], atBackground, pic.ColorDanger},
			}
		}},
		{"missed_shot", func(t *testing.T, g *Game) []check {
			_, wa := paintCells(g, 0)
			paintStep(t, g, 0, CommandAction(g.n, CodeSingle, wa[0][0], wa[0][1]))
			return []check{
				{1, 0, wa[0], atCentre, pic.ColorWall},
				{1, 0, wa[0], atBackground, pic.ColorFloor},
				{-1, 0, wa[0], atCentre, pic.ColorWall},
			}
		}},
		{"shield_and_shield_hit", func(t *testing.T, g *Game) []check {
			a, _ := paintCells(g, 0)
			for range ShieldChargeTime {
				paintStep(t, g, 0, 0)
			}
			if p := g.Player(0); p.Shield.Charges != 1 {
				t.Fatalf("shield charges %d after %d rounds, want 1", p.Shield.Charges, ShieldChargeTime)
			}
			x, y := a[0][0], a[0][1]
			paintStep(t, g, CommandAction(g.n, CodeShield, x, y), CommandAction(g.n, CodeSingle, x, y))
			if !g.At(0, x, y).ShieldHit {
				t.Fatal("the shot did not hit the shield")
			}
			return []check{
				{-1, 0, a[0], atEdge, pic.ColorPowerUp},
				{0, 0, a[0], atEdge, pic.ColorPowerUp},
				{1, 0, a[0], atEdge, pic.ColorHidden}, // the shield's extent is A's secret
				{-1, 0, a[0], atCentre, pic.ColorPowerUp},
				{0, 0, a[0], atCentre, pic.ColorPowerUp},
				{1, 0, a[0], atCentre, pic.ColorPowerUp},
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := paintNew(t, &Config{Size: SizeSmall}, 3)
			checks := tc.setup(t, g)
			for _, ch := range checks {
				img := g.Paint(ch.view)
				r := paintCellRect(g, ch.seat, ch.cell[0], ch.cell[1])
				if got := paintPixel(img, r, ch.where); got != ch.want {
					t.Errorf("Paint(%d), map %d, cell %v, place %d: %v, want %v", ch.view, ch.seat, ch.cell, ch.where, got, ch.want)
				}
			}
		})
	}
}

func TestPaintShowsPendingShipsToTheirSeat(t *testing.T) {
	g := paintNew(t, &Config{Size: SizeSmall, Placement: PlacementLearn}, 4)
	mask := make([]uint8, g.spec.Actions)
	g.WriteMask(0, mask)
	first := int32(-1)
	for a, m := range mask {
		if m != 0 && a > 0 {
			first = int32(a)
			break
		}
	}
	if first < 0 {
		t.Fatal("no legal placement")
	}
	paintStep(t, g, first, 0)
	if g.PendingShips(0) != 1 {
		t.Fatalf("pending ships %d, want 1", g.PendingShips(0))
	}
	sh := g.pend[0].ships[0]
	r := paintCellRect(g, 0, int(sh.X), int(sh.Y))
	for _, tc := range []struct {
		name string
		view int
		want color.RGBA
	}{
		{"own_view", 0, pic.SeatColor(0)},
		{"referee", -1, pic.SeatColor(0)},
		{"opponent_view", 1, pic.ColorHidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := paintPixel(g.Paint(tc.view), r, atEdge); got != tc.want {
				t.Errorf("pending ship's edge %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPaintGreysAKilledPlayer(t *testing.T) {
	g := paintNew(t, &Config{Size: SizeSmall}, 5)
	frame := func() color.RGBA {
		r := paintCellRect(g, 0, 0, g.n-1) // the top left cell of A's map
		return g.Paint(-1).RGBAAt(r.Min.X-3, r.Min.Y-3)
	}
	if got := frame(); got != pic.SeatColor(0) {
		t.Fatalf("A's frame %v, want %v", got, pic.SeatColor(0))
	}
	a, _ := paintCells(g, 0)
	for _, c := range a {
		paintStep(t, g, CommandAction(g.n, CodeSingle, 0, 0), CommandAction(g.n, CodeSingle, c[0], c[1]))
	}
	if !g.Player(0).Killed {
		t.Fatal("A survived the loss of its fleet")
	}
	if got := frame(); got != pic.ColorDeadShade {
		t.Errorf("killed A's frame %v, want %v", got, pic.ColorDeadShade)
	}
	r := paintCellRect(g, 0, a[0][0], a[0][1])
	if got := paintPixel(g.Paint(-1), r, atBackground); got != pic.ColorDeadShade {
		t.Errorf("a sunk ship's cell %v, want %v", got, pic.ColorDeadShade)
	}
}

func TestPaintHidesTheOpponentsSecrets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rounds int
		// secret changes what A's state.json does not show of B.
		secret func(g *Game, b *Player)
	}{
		{"fleet_position", 0, func(g *Game, b *Player) {
			fleet := RandomFleet(rand.New(rand.NewPCG(99, 1)), g.n)
			for i := range b.cells[:g.n*g.n] {
				b.cells[i].Ship = 0
			}
			for k, sh := range fleet {
				b.Ships[k].X, b.Ships[k].Y, b.Ships[k].Dir = sh.X, sh.Y, sh.Dir
				for a := range ShipType(k).Len() {
					b.cells[(int(sh.X)+dirDX[sh.Dir]*a)*g.n+int(sh.Y)+dirDY[sh.Dir]*a].Ship = uint8(k + 1)
				}
			}
		}},
		{"energy_shots_and_shield", 12, func(g *Game, b *Player) {
			b.Energy += 40
			b.ShotsFired += 3
			b.ShotsHit++
			b.Shield.Charges, b.Shield.Active = 1, true
			for i := range b.cells[:g.n*g.n] {
				b.cells[i].Shielded = !b.cells[i].ShieldHit
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := paintNew(t, &Config{Size: SizeMedium}, 6)
			paintRandomly(t, g, 6, tc.rounds, func() {})
			other := *g
			tc.secret(&other, &other.players[1])
			for _, v := range []struct {
				seat int
				same bool
			}{{0, true}, {1, false}, {-1, false}} {
				same := bytes.Equal(g.Paint(v.seat).Pix, other.Paint(v.seat).Pix)
				if same != v.same {
					t.Errorf("Paint(%d) unchanged by B's secrets: %v, want %v", v.seat, same, v.same)
				}
			}
		})
	}
	t.Run("seats_out_of_range_are_the_referee", func(t *testing.T) {
		g := paintNew(t, &Config{Size: SizeSmall}, 7)
		testutil.PaintOutOfRange(t, g, 2)
	})
}

func TestPaintDoesNotChangeTheGame(t *testing.T) {
	g := paintNew(t, &Config{Size: SizeSmall, Placement: PlacementLearn}, 8)
	paintRandomly(t, g, 8, 12, func() {})
	value := *g
	testutil.PaintKeepsState(t, g, 12)
	if !reflect.DeepEqual(value, *g) {
		t.Error("the Game value changed")
	}
}

func TestMapTxtForTheRefereeHoldsBothPlayers(t *testing.T) {
	g := paintNew(t, &Config{Size: SizeSmall}, 9)
	paintStep(t, g, CommandAction(g.n, CodeSingle, 1, 1), CommandAction(g.n, CodeSingle, 2, 2))
	a, errA := g.AppendNative(nil, FormatMapTxt, 0)
	b, errB := g.AppendNative(nil, FormatMapTxt, 1)
	full, err := g.AppendNative([]byte("prefix"), FormatMapTxt, -1)
	if errA != nil || errB != nil || err != nil {
		t.Fatalf("errors: %v, %v, %v", errA, errB, err)
	}
	want := append(append(append([]byte("prefix"), a...), "\r\n"...), b...)
	if !bytes.Equal(full, want) {
		t.Errorf("seat -1's map.txt:\n%s\nwant A's, an empty line, B's:\n%s", full, want)
	}
	if _, err := g.AppendNative(nil, FormatMapTxt, 2); err == nil {
		t.Error("seat 2: no error")
	}
}
