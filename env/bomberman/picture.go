package bomberman

import (
	"image"
	"image/color"

	pic "github.com/botarena/botarena/env/picture"
)

var _ pic.Painter = (*Game)(nil)

// Picture geometry, in pixels. The board is the map side's cells
// ([Config.Side]) of pictureCell(side) pixels inside a border; the status
// strip below it holds one slot for the round and one per seat, as many
// slots to a line as fit.
const (
	pictureBorder = 8
	slotWidth     = 64
	slotHeight    = 28
	// digitScale magnifies the status strip's 3×5 font: 6×10 pixel digits.
	digitScale = 2
)

// pictureCell returns the cell size for a map side: 16 pixels up to side
// 31 (boards of 336 and 496 pixels), 12 for side 41 (492 pixels).
func pictureCell(side int) int {
	if side > 31 {
		return 12
	}
	return 16
}

// pictureLayout returns the picture's size for cfg and the board's size in
// pixels (a square), all even.
func pictureLayout(cfg *Config) (width, height, board int) {
	side := cfg.Side()
	board = side * pictureCell(side)
	width = board + 2*pictureBorder
	perLine := max(1, (width-2*pictureBorder)/slotWidth)
	lines := (cfg.Players + 1 + perLine - 1) / perLine
	height = board + 2*pictureBorder + lines*slotHeight
	return width, height, board
}

// PictureSize returns the size in pixels of the pictures [Game.Paint]
// draws for cfg: 352×380 for 2–4 players (the 21×21 map), 512×540 for 5–6
// and 512×568 for 7–8 (31×31), 508×564 for 9–12 (41×41). Both are even.
func PictureSize(cfg *Config) image.Point {
	w, h, _ := pictureLayout(cfg)
	return image.Pt(w, h)
}

// pictureLegend is the key of [Game.Paint]'s marks (the kit's Legend).
var pictureLegend = []pic.LegendEntry{
	{Colour: pic.ColorWall, Mark: "cell", Meaning: "indestructible wall"},
	{Colour: pic.ColorSoftWall, Mark: "cell", Meaning: "destructible wall"},
	{Colour: pic.ColorFire, Mark: "cell", Meaning: "blast of the last round"},
	{Colour: pic.ColorDanger, Mark: "cell", Meaning: "a bomb's blast will reach it"},
	{Colour: pic.ColorBomb, Mark: "disc", Meaning: "bomb, ringed in its owner's colour, with its timer"},
	{Colour: pic.ColorPowerUp, Mark: "cell", Meaning: "power-up: bomb bag or blast radius"},
	{Colour: pic.ColorCoin, Mark: "disc", Meaning: "super power-up"},
	{Colour: pic.ColorDeadShade, Mark: "disc", Meaning: "dead player"},
}

// Paint draws the game into a new picture of [PictureSize] for the game's
// config, implementing [pic.Painter]. The map fills the top, one square
// per cell, north at the top:
//
//   - indestructible walls in [pic.ColorWall], destructible walls in
//     [pic.ColorSoftWall], floor in [pic.ColorFloor];
//   - cells a blast reached in the last round (map.txt's '*') in
//     [pic.ColorFire]; floor a bomb's blast will reach (the observation's
//     danger plane) in [pic.ColorDanger];
//   - visible power-ups in [pic.ColorPowerUp] (bomb bag: a square; blast
//     radius: a cross) and the super power-up as an [pic.ColorCoin] disc;
//   - bombs as [pic.ColorBomb] discs ringed in the owner's
//     [pic.SeatColor], with the timer written on them;
//   - alive players as discs in their seat colour, framing the cell when
//     they stand on a bomb; dead players as an [pic.ColorDeadShade] disc
//     with a dot of their colour at the cell they died on.
//
// The status strip below has the round (and a bar for the rounds played of
// the game's cap), then per seat in seat order: a swatch of its colour
// (grey when dead) with its points, the bombs left in its bag and its
// blast radius, as map.txt lists them.
//
// Every seat sees the same picture; seat -1 (and any seat outside
// 0..Players()-1) also sees the power-ups hidden under destructible walls,
// as a small mark in the wall's corner, which bots never see. A map loaded
// with [Game.LoadNative] that is larger than the config's side is drawn
// with smaller cells, so the size never changes. Paint does not modify the
// game; it allocates and is not safe for concurrent use with Step.
func (g *Game) Paint(seat int) *image.RGBA {
	referee := pic.ViewSeat(seat, g.nPlayers) < 0
	width, height, board := pictureLayout(&g.cfg)
	cell := pictureCell(g.cfg.Side())
	if m := max(g.width, g.height); m*cell > board {
		cell = max(1, board/m)
	}
	c := &pic.Canvas{
		Img:    image.NewRGBA(image.Rect(0, 0, width, height)),
		Cell:   cell,
		Border: pictureBorder + (board-max(g.width, g.height)*cell)/2,
	}
	c.Rect(c.Img.Rect, pic.ColorFloor)

	danger := g.dangerCopy()
	for y := 1; y <= g.height; y++ {
		for x := 1; x <= g.width; x++ {
			g.paintGround(c, x, y, danger[g.index(x, y)] != 0, referee)
		}
	}
	for s := range g.nPlayers {
		p := &g.players[s]
		if !p.Killed || !g.InBounds(p.X, p.Y) {
			continue
		}
		if cl := g.cells[g.index(p.X, p.Y)]; cl.Entity != NoEntity || cl.bomb != 0 {
			continue
		}
		c.Disc(p.X-1, p.Y-1, 0.7, pic.ColorDeadShade)
		c.Disc(p.X-1, p.Y-1, 0.25, pic.SeatColor(s))
	}
	for y := 1; y <= g.height; y++ {
		for x := 1; x <= g.width; x++ {
			g.paintOccupant(c, x, y)
		}
	}
	g.paintStatus(c, board+2*pictureBorder)
	return c.Img
}

// dangerCopy returns the danger plane (see [PlaneDanger]) for the current
// state, computed on a copy of the game so that the caches stay untouched.
func (g *Game) dangerCopy() []byte {
	cp := *g
	cp.fusesFresh = false
	danger := make([]byte, g.width*g.height)
	cp.writeDanger(danger, -1)
	return danger
}

// paintGround draws cell (x, y)'s background: wall, fire, danger or floor,
// and a visible power-up; for the referee, a hidden power-up's mark.
func (g *Game) paintGround(c *pic.Canvas, x, y int, danger, referee bool) {
	cl := &g.cells[g.index(x, y)]
	col, row := x-1, y-1
	switch {
	case cl.reached != 0:
		c.Fill(col, row, pic.ColorFire)
	case cl.Entity == IndestructibleWall:
		c.Fill(col, row, pic.ColorWall)
	case cl.Entity == DestructibleWall:
		c.Fill(col, row, pic.ColorSoftWall)
	case danger:
		c.Fill(col, row, pic.ColorDanger)
	default:
		c.Fill(col, row, pic.ColorFloor)
	}
	if cl.PowerUp == NoPowerUp {
		return
	}
	if cl.Entity != NoEntity {
		if referee {
			r := c.CellRect(col, row)
			m := max(1, c.Cell/8)
			s := max(2, c.Cell/4)
			c.Rect(image.Rect(r.Max.X-m-s-1, r.Min.Y+m, r.Max.X-m-1, r.Min.Y+m+s), powerUpColor(cl.PowerUp))
		}
		return
	}
	switch cl.PowerUp {
	case BombBagPowerUp:
		c.Inset(col, row, c.Cell*5/16, pic.ColorPowerUp)
	case BombRadiusPowerUp:
		r := c.CellRect(col, row)
		m, t := c.Cell/5, max(1, c.Cell/8)
		mid := c.Cell / 2
		c.Rect(image.Rect(r.Min.X+m, r.Min.Y+mid-t, r.Max.X-m, r.Min.Y+mid+t), pic.ColorPowerUp)
		c.Rect(image.Rect(r.Min.X+mid-t, r.Min.Y+m, r.Min.X+mid+t, r.Max.Y-m), pic.ColorPowerUp)
	case SuperPowerUp:
		diamond(c, col, row, pic.ColorCoin)
	}
}

// diamond draws a diamond (a square on its corner) inside cell (col, row).
func diamond(c *pic.Canvas, col, row int, colour color.RGBA) {
	r := c.CellRect(col, row)
	half := c.Cell * 3 / 8
	cx, cy := r.Min.X+c.Cell/2, r.Min.Y+c.Cell/2
	for dy := -half; dy < half; dy++ {
		w := half - abs(2*dy+1)/2
		c.Rect(image.Rect(cx-w, cy+dy, cx+w, cy+dy+1), colour)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// number writes n as [pic.Canvas.Number] does, with a minus sign when n
// is negative (points can be), and returns the x after the last digit.
func number(c *pic.Canvas, x, y, scale, n int, colour color.RGBA) int {
	if n < 0 {
		c.Rect(image.Rect(x, y+2*scale, x+3*scale, y+3*scale), colour)
		x += 4 * scale
		n = -n
	}
	return c.Number(x, y, scale, n, colour)
}

// powerUpColor is the colour of a power-up's icon.
func powerUpColor(p PowerUp) color.RGBA {
	if p == SuperPowerUp {
		return pic.ColorCoin
	}
	return pic.ColorPowerUp
}

// paintOccupant draws the bomb and the player on cell (x, y), if any.
func (g *Game) paintOccupant(c *pic.Canvas, x, y int) {
	cl := &g.cells[g.index(x, y)]
	col, row := x-1, y-1
	if cl.bomb != 0 {
		b := &g.bombs[cl.bomb-1]
		if cl.Entity == PlayerEntity {
			c.Frame(col, row, max(1, c.Cell/8), pic.SeatColor(int(cl.Player)))
		}
		c.Disc(col, row, 1, pic.SeatColor(b.Owner))
		c.Disc(col, row, 0.8, pic.ColorBomb)
		timer := max(b.Timer, 0)
		r := c.CellRect(col, row)
		s := fitScale(c.Cell, timer)
		w, h := (4*digitCount(timer)-1)*s, 5*s
		c.Number(r.Min.X+(c.Cell-w)/2, r.Min.Y+(c.Cell-h)/2, s, timer, pic.ColorText)
		return
	}
	if cl.Entity == PlayerEntity {
		c.Disc(col, row, 0.85, pic.SeatColor(int(cl.Player)))
	}
}

// digitCount returns the number of decimal digits of n ≥ 0.
func digitCount(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// fitScale returns the largest font scale at which n fits inside a cell
// of cell pixels with a margin, at least 1.
func fitScale(cell, n int) int {
	w := 4*digitCount(n) - 1
	s := 1
	for (w*(s+1)) <= cell-4 && 5*(s+1) <= cell-6 {
		s++
	}
	return s
}

// paintStatus draws the status strip, whose first line starts at pixel row
// top (below the board and its border).
func (g *Game) paintStatus(c *pic.Canvas, top int) {
	width := c.Img.Rect.Dx()
	perLine := max(1, (width-2*pictureBorder)/slotWidth)
	slot := func(i int) (x, y int) {
		return pictureBorder + (i%perLine)*slotWidth, top + (i/perLine)*slotHeight
	}
	// The round, and the share of the game's rounds processed.
	x, y := slot(0)
	c.Number(x, y, digitScale, g.round, pic.ColorText)
	barW := slotWidth - 12
	c.Rect(image.Rect(x, y+16, x+barW, y+20), pic.ColorGrid)
	if total := g.maxRound + 1; total > 0 {
		c.Rect(image.Rect(x, y+16, x+barW*min(g.round, total)/total, y+20), pic.ColorText)
	}
	for seat := range g.nPlayers {
		p := &g.players[seat]
		x, y := slot(seat + 1)
		text := pic.ColorText
		swatch := image.Rect(x, y, x+10, y+10)
		if p.Killed {
			text = pic.ColorWall
			c.Rect(swatch, pic.SeatColor(seat))
			c.Rect(swatch.Inset(2), pic.ColorDeadShade)
		} else {
			c.Rect(swatch, pic.SeatColor(seat))
		}
		number(c, x+14, y, digitScale, p.Points(), text)
		// Bombs left in the bag, then the blast radius.
		y += 14
		c.DiscAt(float64(x)+5, float64(y)+5, 5, text)
		c.DiscAt(float64(x)+5, float64(y)+5, 4, pic.ColorBomb)
		nx := c.Number(x+13, y, digitScale, p.BombBag-g.countBombs(seat), text)
		ix := nx + 2
		c.Rect(image.Rect(ix, y+4, ix+10, y+6), pic.ColorFire)
		c.Rect(image.Rect(ix+4, y, ix+6, y+10), pic.ColorFire)
		c.Number(ix+13, y, digitScale, p.BombRadius, text)
	}
}
