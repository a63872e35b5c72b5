package bomberman

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

// pictureCellRect returns the pixel rectangle of map cell (x, y), 1-based,
// in g's pictures, as Paint lays them out.
func pictureCellRect(g *Game, x, y int) image.Rectangle {
	_, _, board := pictureLayout(&g.cfg)
	cell := pictureCell(g.cfg.Side())
	if m := max(g.width, g.height); m*cell > board {
		cell = max(1, board/m)
	}
	c := pic.Canvas{Cell: cell, Border: pictureBorder + (board-max(g.width, g.height)*cell)/2}
	return c.CellRect(x-1, y-1)
}

// centre returns the colour at the centre of r.
func centre(img *image.RGBA, r image.Rectangle) color.RGBA {
	return img.RGBAAt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// countColour counts the pixels of r that have colour want.
func countColour(img *image.RGBA, r image.Rectangle, want color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == want {
				n++
			}
		}
	}
	return n
}

// playRandomly steps g rounds times with random actions, mostly legal by
// the mask, resetting with the next seed when a game ends, and calls visit
// after every step.
func playRandomly(t *testing.T, g *Game, seed uint64, rounds int, visit func()) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	testutil.StepRandomly(g, rounds, func(_ int, mask []uint8) int32 {
		if a := rng.IntN(NumActions); mask[a] != 0 && (Action(a) != PlaceBomb || rng.IntN(3) == 0) {
			return int32(a)
		}
		return int32(DoNothing)
	}, func() { seed++; g.Reset(seed) }, visit)
}

func TestPictureSizeDependsOnlyOnTheConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		want    image.Point
	}{
		{"two_players", 2, image.Pt(352, 380)},
		{"four_players", 4, image.Pt(352, 380)},
		{"five_players", 5, image.Pt(512, 540)},
		{"eight_players", 8, image.Pt(512, 568)},
		{"twelve_players", 12, image.Pt(508, 564)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, &Config{Players: tc.players})
			if got := PictureSize(&g.cfg); got != tc.want {
				t.Fatalf("PictureSize = %v, want %v", got, tc.want)
			}
			if tc.want.X%2 != 0 || tc.want.Y%2 != 0 {
				t.Errorf("size %v is not even", tc.want)
			}
			testutil.PaintSize(t, g, tc.players, tc.want, 0)
			playRandomly(t, g, 3, 120, func() {
				if g.Round()%40 == 0 {
					testutil.PaintSize(t, g, tc.players, tc.want, g.Round())
				}
			})
		})
	}
	t.Run("loaded_map_larger_than_the_config", func(t *testing.T) {
		rows := make([]string, MaxSide)
		for y := range rows {
			row := bytes.Repeat([]byte{'.'}, MaxSide)
			if y == 0 {
				row[0], row[MaxSide-1] = 'A', 'B'
			}
			if y == MaxSide-1 {
				row[MaxSide-1] = '#'
			}
			rows[y] = string(row)
		}
		g := board(t, rows...) // 2 players: the config's side is 21
		img := g.Paint(-1)
		if want := PictureSize(&g.cfg); img.Rect.Size() != want {
			t.Fatalf("size %v, want %v", img.Rect.Size(), want)
		}
		if got := centre(img, pictureCellRect(g, MaxSide, MaxSide)); got != pic.ColorWall {
			t.Errorf("the last cell, a wall, is %v, want %v", got, pic.ColorWall)
		}
	})
}

func TestPaintChangesWithTheState(t *testing.T) {
	g := mustNew(t, &Config{Players: 4})
	g.Reset(5)
	before := g.Paint(-1)
	same := g.Paint(-1)
	if !bytes.Equal(before.Pix, same.Pix) {
		t.Fatal("two pictures of one state differ")
	}
	playRandomly(t, g, 5, 8, func() {})
	if after := g.Paint(-1); bytes.Equal(before.Pix, after.Pix) {
		t.Error("the picture did not change in 8 rounds")
	}
}

func TestPaintColours(t *testing.T) {
	// The fixture: B's bomb on (3,5) (timer 2, radius 1) threatens (3,4)
	// and (4,5); A's bomb on (2,1) explodes in the next round.
	fixture := func(t *testing.T) *Game {
		g := board(t,
			"A..+.",
			".#.#.",
			"..!..",
			"+#.#&",
			".$..B",
		)
		addBomb(t, g, 1, 3, 5, 1, 2)
		addBomb(t, g, 0, 2, 1, 1, 1)
		return g
	}
	type check struct {
		x, y int
		// want is the colour at the cell's centre, when set; has lists
		// colours the cell must show somewhere.
		want color.RGBA
		has  []color.RGBA
	}
	for _, tc := range []struct {
		name   string
		rounds int // rounds to play first, nobody acting
		checks []check
	}{
		{"indestructible_wall", 0, []check{{x: 2, y: 2, want: pic.ColorWall}}},
		{"destructible_wall", 0, []check{{x: 4, y: 1, want: pic.ColorSoftWall}}},
		{"floor", 0, []check{{x: 5, y: 2, want: pic.ColorFloor}}},
		{"players_in_seat_colours", 0, []check{{x: 1, y: 1, want: pic.SeatColor(0)}, {x: 5, y: 5, want: pic.SeatColor(1)}}},
		{"power_ups", 0, []check{{x: 5, y: 4, want: pic.ColorPowerUp}, {x: 3, y: 3, want: pic.ColorPowerUp}, {x: 2, y: 5, want: pic.ColorCoin}}},
		{"bombs_with_timer_in_owner_colour", 0, []check{
			{x: 3, y: 5, has: []color.RGBA{pic.ColorBomb, pic.ColorText, pic.SeatColor(1)}},
			{x: 2, y: 1, has: []color.RGBA{pic.ColorBomb, pic.ColorText, pic.SeatColor(0)}},
		}},
		{"danger_where_a_blast_will_reach", 0, []check{{x: 3, y: 4, want: pic.ColorDanger}, {x: 4, y: 5, want: pic.ColorDanger}}},
		{"fire_where_a_blast_reached", 1, []check{{x: 3, y: 1, want: pic.ColorFire}, {x: 2, y: 1, want: pic.ColorFire}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := fixture(t)
			for range tc.rounds {
				step(t, g)
			}
			img := g.Paint(-1)
			for _, ch := range tc.checks {
				r := pictureCellRect(g, ch.x, ch.y)
				if ch.want != (color.RGBA{}) {
					if got := centre(img, r); got != ch.want {
						t.Errorf("cell (%d,%d): centre %v, want %v", ch.x, ch.y, got, ch.want)
					}
				}
				for _, want := range ch.has {
					if countColour(img, r, want) == 0 {
						t.Errorf("cell (%d,%d) has no pixel of %v", ch.x, ch.y, want)
					}
				}
			}
		})
	}
}

func TestPaintGreysDeadPlayers(t *testing.T) {
	g := board(t,
		"A....",
		".....",
		"....B",
	)
	addBomb(t, g, 1, 2, 1, 1, 1)
	cell := pictureCellRect(g, 1, 1)
	alive := countColour(g.Paint(-1), cell, pic.SeatColor(0))
	step(t, g)
	if !g.Player(0).Killed {
		t.Fatal("the fixture's blast did not kill A")
	}
	img := g.Paint(-1)
	dead := countColour(img, cell, pic.SeatColor(0))
	if dead*4 > alive || countColour(img, cell, pic.ColorDeadShade) == 0 {
		t.Errorf("dead A's cell: %d pixels of its colour (alive: %d), %d grey; want a grey marker",
			dead, alive, countColour(img, cell, pic.ColorDeadShade))
	}
	// The status strip: A's swatch is grey inside, B's is its colour.
	_, _, b := pictureLayout(&g.cfg)
	top := b + 2*pictureBorder
	swatch := func(seat int) color.RGBA {
		return img.RGBAAt(pictureBorder+(seat+1)*slotWidth+5, top+5)
	}
	if got := swatch(0); got != pic.ColorDeadShade {
		t.Errorf("dead A's swatch %v, want %v", got, pic.ColorDeadShade)
	}
	if got := swatch(1); got != pic.SeatColor(1) {
		t.Errorf("B's swatch %v, want %v", got, pic.SeatColor(1))
	}
}

func TestPaintShowsHiddenPowerUpsOnlyToTheReferee(t *testing.T) {
	g := board(t,
		"A+..B",
	)
	g.cells[g.index(2, 1)].PowerUp = BombRadiusPowerUp
	cell := pictureCellRect(g, 2, 1)
	for _, tc := range []struct {
		name string
		seat int
		want bool
	}{
		{"referee", -1, true},
		{"seat_out_of_range", 2, true},
		{"seat_0", 0, false},
		{"seat_1", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := countColour(g.Paint(tc.seat), cell, pic.ColorPowerUp) > 0; got != tc.want {
				t.Errorf("Paint(%d) shows the hidden power-up: %v, want %v", tc.seat, got, tc.want)
			}
		})
	}
	t.Run("seats_out_of_range_are_the_referee", func(t *testing.T) { testutil.PaintOutOfRange(t, g, 2) })
}

func TestPaintDoesNotChangeTheGame(t *testing.T) {
	g := mustNew(t, &Config{Players: 4})
	g.Reset(9)
	playRandomly(t, g, 9, 30, func() {})
	copyBefore := *g
	testutil.PaintKeepsState(t, g, 30)
	if !reflect.DeepEqual(copyBefore, *g) {
		t.Error("the Game value changed")
	}
}
