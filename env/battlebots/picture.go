package battlebots

import (
	"image"
	"image/color"

	pic "github.com/botarena/botarena/env/picture"
)

var _ pic.Painter = (*Game)(nil)

// Picture geometry, in pixels: square board cells, a margin around the
// board, and the status strip under it.
const (
	paintCell   = 32
	paintBorder = 4
	paintStrip  = 28
)

// Picture colours beyond the shared palette.
var (
	colorBullet  = pic.ColorText
	colorMissile = pic.ColorFire
	colorEMP     = pic.ColorPowerUp
)

// picture is the geometry of a bout's picture: the arena and a ring of
// wall cells around it, then the status strip.
type picture struct {
	lo   int // the lowest in-bounds coordinate (g.lo)
	side int // board cells per side: the arena plus the wall ring
}

func (g *Game) picture() picture {
	return picture{lo: g.lo, side: Side - g.lo + 2}
}

// size returns the picture's width and height; both are even.
func (p picture) size() (w, h int) {
	w = p.side*paintCell + 2*paintBorder
	return w, w + paintStrip
}

// stripTop returns the top of the status strip's swatches.
func (p picture) stripTop() int { return paintBorder + p.side*paintCell + (paintStrip-16)/2 }

// cell returns the board cell (col, row) of arena cell (x, y).
func (p picture) cell(x, y int) (col, row int) { return x - p.lo + 1, y - p.lo + 1 }

// centre returns the pixel at the centre of arena cell (x, y).
func (p picture) centre(x, y int) image.Point {
	col, row := p.cell(x, y)
	return image.Pt(paintBorder+col*paintCell+paintCell/2, paintBorder+row*paintCell+paintCell/2)
}

// pictureLegend is the key of [Game.Paint]'s marks (the kit's Legend).
var pictureLegend = []pic.LegendEntry{
	{Colour: pic.ColorWall, Mark: "cell", Meaning: "arena wall"},
	{Colour: colorBullet, Mark: "streak", Meaning: "bullet, pointing where it flies"},
	{Colour: colorMissile, Mark: "streak", Meaning: "missile, pointing where it flies"},
	{Colour: pic.ColorBomb, Mark: "dot", Meaning: "landmine, ringed in its layer's colour (grey once dead)"},
	{Colour: colorEMP, Mark: "ring", Meaning: "EMP: movement paralysed"},
	{Colour: pic.ColorDeadShade, Mark: "disc", Meaning: "a bot below 1 HP"},
}

// Paint draws the bout as seat sees it (see [pic.Painter]): the arena
// inside a ring of wall cells, with the same orientation for both seats
// (y grows downwards, as in "arena.txt"); each bot as a disc in its seat
// colour ([pic.SeatColor]: bot1 red, bot2 blue) holding its HP, grey
// inside a seat-coloured ring once below 1 HP, in a cyan halo while an EMP
// paralyses the movement phases; bullets (white) and missiles (orange) as
// a short streak pointing where they fly; landmines as black dots in a ring
// of their layer's colour (grey once dead). Seat -1 (the referee) sees
// every mine; seat 0 or 1 only its own, as its observation does, and its
// bot is framed in white. Under the board, a strip shows each bot's colour,
// an HP bar of 10 segments and the HP, then the EMP counter (cyan, when
// paralysed) and the rounds played. Seats outside -1..1 are treated as -1.
//
// The picture is 360×388 pixels for the default 9×9 arena and 392×420 for
// the 10×10 one, whatever the state. Paint allocates the image and does not
// modify the game; it is not safe for concurrent use with Step.
func (g *Game) Paint(seat int) *image.RGBA {
	seat = pic.ViewSeat(seat, 2)
	p := g.picture()
	w, h := p.size()
	c := pic.NewCanvasSize(image.Pt(w, h), paintCell, paintBorder, pic.ColorFloor)
	for row := range p.side {
		for col := range p.side {
			colour := pic.ColorFloor
			if row == 0 || col == 0 || row == p.side-1 || col == p.side-1 {
				colour = pic.ColorWall
			}
			c.Fill(col, row, colour)
		}
	}
	g.paintMines(c, p, seat)
	for s := range 2 {
		g.paintBot(c, p, s, seat)
	}
	for i := range g.nBullets {
		paintProjectile(c, p, g.bullets[i], 0.11, colorBullet)
	}
	for i := range g.nMissiles {
		paintProjectile(c, p, g.missiles[i], 0.14, colorMissile)
	}
	g.paintStrip(c, p, seat)
	return c.Img
}

// paintMines draws the landmines seat sees: all for -1, else its own.
func (g *Game) paintMines(c *pic.Canvas, p picture, seat int) {
	if g.nMines == 0 {
		return
	}
	for i, f := range g.mines {
		if f == 0 {
			continue
		}
		layer := 0
		if f&mineBot2 != 0 {
			layer = 1
		}
		if seat >= 0 && layer != seat {
			continue
		}
		ring := pic.SeatColor(layer)
		if f&mineDead != 0 {
			ring = pic.ColorDeadShade
		}
		col, row := p.cell(i%Side, i/Side)
		c.Disc(col, row, 0.5, ring)
		c.Disc(col, row, 0.3, pic.ColorBomb)
	}
}

// paintBot draws seat s's bot, framed when s is the viewing seat.
func (g *Game) paintBot(c *pic.Canvas, p picture, s, seat int) {
	b := g.bots[s]
	col, row := p.cell(b.X, b.Y)
	if g.paralysed > 0 {
		c.Disc(col, row, 0.98, colorEMP)
	}
	c.Disc(col, row, 0.82, pic.SeatColor(s))
	if b.HP < 1 {
		c.Disc(col, row, 0.62, pic.ColorDeadShade)
	}
	c.NumberIn(col, row, b.HP, pic.ColorText)
	if s == seat {
		c.Frame(col, row, 2, pic.ColorText)
	}
}

// paintProjectile draws a bullet or missile as three dots growing towards
// its direction of flight, the largest of radius frac cells.
func paintProjectile(c *pic.Canvas, p picture, q Projectile, frac float64, colour color.RGBA) {
	ctr := p.centre(q.X, q.Y)
	dx, dy := float64(dirDX[q.Dir]), float64(dirDY[q.Dir])
	if dx != 0 && dy != 0 {
		dx, dy = dx*0.75, dy*0.75 // diagonal streaks as long as straight ones
	}
	for k, t := range [3]float64{-0.3, 0, 0.3} {
		rad := frac * paintCell * float64(k+2) / 4
		c.DiscAt(float64(ctr.X)+dx*t*paintCell, float64(ctr.Y)+dy*t*paintCell, rad, colour)
	}
}

// paintStrip draws the status strip: per seat its colour (grey in a ring
// once below 1 HP), an HP bar and the HP; then, right-aligned, the EMP
// counter while paralysed and the rounds played.
func (g *Game) paintStrip(c *pic.Canvas, p picture, seat int) {
	y, x := p.stripTop(), paintBorder
	for s := range 2 {
		b := g.bots[s]
		c.Swatch(x, y, 16, 3, s, b.HP < 1, s == seat)
		x += 20
		for k := range StartHP {
			seg := pic.ColorGrid
			if k < b.HP {
				seg = pic.SeatColor(s)
			}
			c.Rect(image.Rect(x, y+3, x+5, y+13), seg)
			x += 7
		}
		x = c.Number(x+3, y+3, 2, b.HP, pic.ColorText) + 12
	}
	// Right-aligned: the rounds played, and the EMP counter before them.
	right := c.Img.Rect.Max.X - paintBorder
	x = right - pic.NumberWidth(g.round, 2)
	c.Number(x, y+3, 2, g.round, pic.ColorText)
	if g.paralysed > 0 {
		x -= 12 + 16 + 4 + pic.NumberWidth(g.paralysed, 2)
		c.Rect(image.Rect(x, y, x+16, y+16), colorEMP)
		c.Number(x+20, y+3, 2, g.paralysed, colorEMP)
	}
}
