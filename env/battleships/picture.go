package battleships

import (
	"image"

	pic "github.com/botarena/botarena/env/picture"
)

var _ pic.Painter = (*Game)(nil)

// Picture geometry, in pixels: a header line, then the two maps side by
// side, one cell column apart, then each player's status under its map.
const (
	pictureCell   = 20
	pictureBorder = 8
	// statusHeight holds four lines of 6×10 digits under each map.
	statusHeight = 62
	// digitScale magnifies the 3×5 font of the header and status lines.
	digitScale = 2
)

// PictureSize returns the size in pixels of the pictures [Game.Paint]
// draws for cfg: 316×238 (small, 7×7), 436×298 (medium, the default) and
// 596×378 (large, 14×14). Both are even.
func PictureSize(cfg *Config) image.Point {
	n := cfg.MapSize()
	return image.Pt((2*n+1)*pictureCell+2*pictureBorder, (n+1)*pictureCell+2*pictureBorder+statusHeight)
}

// pictureLegend is the key of [Game.Paint]'s marks (the kit's Legend).
var pictureLegend = []pic.LegendEntry{
	{Colour: pic.ColorFloor, Mark: "cell", Meaning: "water"},
	{Colour: pic.ColorHidden, Mark: "cell", Meaning: "the opponent's cell, not shot yet (a seat's view)"},
	{Colour: pic.ColorFire, Mark: "disc", Meaning: "hit on a ship"},
	{Colour: pic.ColorWall, Mark: "dot", Meaning: "miss"},
	{Colour: pic.ColorDanger, Mark: "cell", Meaning: "the opponent's damaged ship cell (a seat's view)"},
	{Colour: pic.ColorDeadShade, Mark: "cell", Meaning: "sunk ship"},
	{Colour: pic.ColorPowerUp, Mark: "frame", Meaning: "shield; a disc where it stopped a shot"},
}

// Paint draws the game as seat sees it into a new picture of
// [PictureSize] for the game's config, implementing [pic.Painter]. Player
// A's map (seat 0) is on the left and B's on the right, in every view,
// each framed in its player's [pic.SeatColor] ([pic.ColorDeadShade] once
// the player is killed), north at the top as map.txt prints it. The header
// line has the round, one pip per phase (one in placement, two in battle),
// and a bar for the rounds played of the game's cap.
//
// A map whose fleet the view may see (the seat's own map; both for seat
// -1) shows water in [pic.ColorFloor], ship cells in the owner's seat
// colour (sunk ships in [pic.ColorDeadShade]), the ships chosen so far in
// a learn-mode placement round as outlines, shots as an [pic.ColorFire]
// disc on a ship and a grey dot on water, the active shield's cells framed
// in [pic.ColorPowerUp] and shots it stopped as an [pic.ColorPowerUp] disc.
// The opponent's map in a seat's view shows only what that seat's
// state.json shows: unshot cells in [pic.ColorHidden], misses as a dot on
// [pic.ColorFloor], damaged ship cells as a fire disc on
// [pic.ColorDanger], and shield hits; never the ships themselves or the
// shield's extent.
//
// Under each map: the player's points (a coin); its energy (a fire square)
// and shield charges (a ring, filled while the shield is active); the hits
// and shots it fired (a fire disc, a white ring); and its fleet in list
// order, one bar per ship of the ship's length, grey once sunk. A seat's
// view leaves out the opponent's energy, shield, hits and shots, which its
// state.json hides. Seats outside 0..1 are treated as -1. Paint does not
// modify the game; it allocates and is not safe for concurrent use with
// Step.
func (g *Game) Paint(seat int) *image.RGBA {
	seat = pic.ViewSeat(seat, Seats)
	c := pic.NewCanvasSize(PictureSize(&g.cfg), pictureCell, pictureBorder, pic.ColorFloor)
	g.paintHeader(c)
	for s := range Seats {
		full := seat < 0 || seat == s
		col0 := s * (g.n + 1)
		g.paintMap(c, s, col0, full)
		g.paintStatus(c, s, c.Border+col0*c.Cell, full)
	}
	return c.Img
}

// paintHeader draws the round, the phase pips and the round bar.
func (g *Game) paintHeader(c *pic.Canvas) {
	x, y := c.Border, c.Border
	x = c.Number(x, y, digitScale, g.round, pic.ColorText) + 4
	for range g.phase {
		c.DiscAt(float64(x)+3, float64(y)+5, 3, pic.ColorText)
		x += 8
	}
	x += 6
	right := c.Img.Rect.Dx() - c.Border
	if right-x < 8 {
		return
	}
	c.Rect(image.Rect(x, y+3, right, y+7), pic.ColorGrid)
	if total := g.maxRound + 1; total > 0 {
		c.Rect(image.Rect(x, y+3, x+(right-x)*min(g.round, total)/total, y+7), pic.ColorText)
	}
}

// cellAt returns the canvas cell of map cell (x, y) for a map whose first
// column is col0: map.txt's orientation, y = N-1 in the first board row.
func (g *Game) cellAt(col0, x, y int) (col, row int) { return col0 + x, 1 + g.n - 1 - y }

// paintMap draws seat s's map at canvas column col0, with its fleet when
// full, else as its opponent knows it.
func (g *Game) paintMap(c *pic.Canvas, s, col0 int, full bool) {
	p := &g.players[s]
	n := g.n
	frame := pic.SeatColor(s)
	if p.Killed {
		frame = pic.ColorDeadShade
	}
	r0 := c.CellRect(col0, 1)
	r1 := c.CellRect(col0+n-1, n)
	outer := image.Rectangle{Min: r0.Min, Max: r1.Max}.Inset(-4)
	c.Rect(outer, frame)
	c.Rect(outer.Inset(2), pic.ColorFloor)
	for x := range n {
		for y := range n {
			cl := p.cells[x*n+y]
			col, row := g.cellAt(col0, x, y)
			switch {
			case full && cl.Ship != 0:
				colour := pic.SeatColor(s)
				if p.Ships[cl.Ship-1].Destroyed {
					colour = pic.ColorDeadShade
				}
				c.Fill(col, row, colour)
			case full:
				c.Fill(col, row, pic.ColorFloor)
			case cl.Hit && cl.Ship != 0:
				c.Fill(col, row, pic.ColorDanger)
			case cl.Hit:
				c.Fill(col, row, pic.ColorFloor)
			default:
				c.Fill(col, row, pic.ColorHidden)
			}
			if full && cl.Shielded {
				c.Frame(col, row, 2, pic.ColorPowerUp)
			}
			switch {
			case cl.Hit && cl.Ship != 0:
				c.Disc(col, row, 0.6, pic.ColorFire)
			case cl.Hit:
				c.Disc(col, row, 0.3, pic.ColorWall)
			}
			if cl.ShieldHit {
				c.Disc(col, row, 0.4, pic.ColorPowerUp)
			}
		}
	}
	if !full || g.phase != 1 {
		return
	}
	// A learn-mode placement round: the ships chosen so far, not yet on
	// the map.
	pd := &g.pend[s]
	for k := range int(pd.n) {
		sh := pd.ships[k]
		if !shipFits(ShipType(k), sh, n) {
			continue
		}
		for a := range ShipType(k).Len() {
			col, row := g.cellAt(col0, int(sh.X)+dirDX[sh.Dir]*a, int(sh.Y)+dirDY[sh.Dir]*a)
			c.Frame(col, row, 3, pic.SeatColor(s))
		}
	}
}

// paintStatus draws seat s's status lines under its map, starting at pixel
// column x0; full includes what only s itself (or the referee) sees.
func (g *Game) paintStatus(c *pic.Canvas, s, x0 int, full bool) {
	p := &g.players[s]
	text := pic.ColorText
	if p.Killed {
		text = pic.ColorWall
	}
	y := c.Border + (g.n+1)*c.Cell + 6
	icon := func(x, y int, f func(cx, cy float64)) { f(float64(x)+5, float64(y)+5) }

	// Points.
	icon(x0, y, func(cx, cy float64) { c.DiscAt(cx, cy, 5, pic.ColorCoin) })
	c.Number(x0+14, y, digitScale, p.Points, text)
	y += 14
	if full {
		// Energy and shield charges.
		c.Rect(image.Rect(x0+1, y+1, x0+9, y+9), pic.ColorFire)
		x := c.Number(x0+14, y, digitScale, p.Energy, text) + 8
		icon(x, y, func(cx, cy float64) {
			c.DiscAt(cx, cy, 5, pic.ColorPowerUp)
			if !p.Shield.Active {
				c.DiscAt(cx, cy, 3, pic.ColorFloor)
			}
		})
		c.Number(x+14, y, digitScale, p.Shield.Charges, text)
		// Hits and shots.
		y += 14
		x = x0
		icon(x, y, func(cx, cy float64) { c.DiscAt(cx, cy, 5, pic.ColorFire) })
		x = c.Number(x+14, y, digitScale, p.ShotsHit, text) + 8
		icon(x, y, func(cx, cy float64) {
			c.DiscAt(cx, cy, 5, pic.ColorText)
			c.DiscAt(cx, cy, 3, pic.ColorFloor)
		})
		c.Number(x+14, y, digitScale, p.ShotsFired, text)
		y += 14
	} else {
		y += 28
	}
	// The fleet.
	x := x0
	for k := range NumShips {
		colour := pic.SeatColor(s)
		if p.Ships[k].Destroyed {
			colour = pic.ColorDeadShade
		}
		w := ShipType(k).Len() * 6
		c.Rect(image.Rect(x, y+2, x+w, y+8), colour)
		x += w + 4
	}
}
