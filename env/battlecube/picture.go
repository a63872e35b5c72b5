package battlecube

import (
	"image"
	"image/color"
	"math"

	pic "github.com/botarena/botarena/env/picture"
)

var _ pic.Painter = (*Game)(nil)

// Picture geometry, in pixels.
const (
	paintBorder = 4
	// paintTarget is the board width the cell size aims at; cells are
	// paintMinCell to paintMaxCell pixels.
	paintTarget  = 320
	paintMinCell = 2
	paintMaxCell = 14
	// paintMinWidth keeps the status strip usable for tiny cubes.
	paintMinWidth = 160
	// Status strip rows: a seat swatch and its gap.
	paintStripRow  = 14
	paintSwatch    = 10
	paintSwatchGap = 3
)

// colorSmallBomb is a bomb's cell when cells are too small for a disc.
var colorSmallBomb = color.RGBA{0xa8, 0x3c, 0x3c, 0xff}

// picture is the geometry of a game's picture, a function of the config
// only: the cube's z-layers as E×E boards tiled cols per row, one empty
// cell around and between them, then the status strip.
type picture struct {
	edge       int
	cols, rows int // layer tiles per row, rows of tiles
	cell       int // pixels per cube cell
	w, h       int // picture size, both even
	stripY     int // top of the status strip
	swatchX    int // left of the first seat swatch
	perRow     int // seat swatches per strip row
}

// picture returns the game's picture geometry.
func (g *Game) picture() picture {
	e := g.edge
	p := picture{edge: e}
	p.cols = int(math.Ceil(math.Sqrt(float64(e))))
	p.rows = (e + p.cols - 1) / p.cols
	gridCols, gridRows := p.cols*(e+1)+1, p.rows*(e+1)+1
	p.cell = min(max(paintTarget/gridCols, paintMinCell), paintMaxCell)
	p.w = max(gridCols*p.cell+2*paintBorder, paintMinWidth)
	p.w += p.w & 1
	p.stripY = paintBorder + gridRows*p.cell + 2
	p.swatchX = paintBorder + pic.NumberWidth(g.maxTicks, 2) + 10
	p.perRow = max((p.w-paintBorder-p.swatchX)/(paintSwatch+paintSwatchGap), 1)
	stripRows := (g.n + p.perRow - 1) / p.perRow
	p.h = p.stripY + stripRows*paintStripRow + paintBorder
	p.h += p.h & 1
	return p
}

// cellOf returns the canvas cell (col, row) of cube cell (x, y, z).
func (p picture) cellOf(x, y, z int) (col, row int) {
	tx, ty := z%p.cols, z/p.cols
	return 1 + tx*(p.edge+1) + x, 1 + ty*(p.edge+1) + y
}

// rect returns the pixels of cube cell (x, y, z).
func (p picture) rect(x, y, z int) image.Rectangle {
	col, row := p.cellOf(x, y, z)
	px, py := paintBorder+col*p.cell, paintBorder+row*p.cell
	return image.Rect(px, py, px+p.cell, py+p.cell)
}

// marker draws a disc of radius rad pixels (at least the cell's), outlined
// in black, centred on cube cell (x, y, z): bots drawn larger than the
// small cells of big cubes, so that they stay visible.
func (p picture) marker(c *pic.Canvas, x, y, z int, rad float64, colour color.RGBA) {
	r := p.rect(x, y, z)
	cx, cy := float64(r.Min.X)+float64(p.cell)/2, float64(r.Min.Y)+float64(p.cell)/2
	rad = max(rad, float64(p.cell)/2)
	c.DiscAt(cx, cy, rad+1, pic.ColorBomb)
	c.DiscAt(cx, cy, rad, colour)
}

// pictureLegend is the key of [Game.Paint]'s marks (the kit's Legend).
var pictureLegend = []pic.LegendEntry{
	{Colour: pic.ColorBomb, Mark: "disc", Meaning: "bomb (on a dark red cell)"},
	{Colour: pic.ColorFire, Mark: "cell", Meaning: "collision of the last tick: a bomb going off, bots crashing"},
	{Colour: pic.ColorDeadShade, Mark: "disc", Meaning: "lost bot, with a dot of its colour"},
}

// Paint draws the game as seat sees it (see [pic.Painter]; every seat sees
// everything). The cube is drawn as its Edge z-layers, z = 0, 1, ... left
// to right and top to bottom, ceil(√Edge) per row, each an Edge×Edge board
// with x to the right and y downwards, labelled with its z when cells are
// 7 pixels or more. On them: bots in play as discs in their seat colour
// ([pic.SeatColor]); lost bots, at the cell where they were lost, as grey
// discs with a dot of their colour (bots lost outside the cube, or before
// a loaded state, are not on the board); bombs as black discs on dark red
// cells; the cells of the last tick's collisions (a bomb going off, bots
// crashing) in orange; a seat's own bot framed in white. Cells under 6
// pixels (edges above 12) are too small for discs: bombs fill their cell
// in red, and bots are outlined discs a little larger than their cell
// (lost ones plain grey), so that they stay visible. Under the board, a
// strip shows the tick about to be processed (currentTick) and one swatch
// per seat in seat order: its colour while in play, grey inside a border
// of its colour once lost, the viewing seat's underlined. Seats outside
// -1..Players-1 are treated as -1.
//
// The picture's size depends only on Edge, Players and MaxTicks: cells
// shrink from 14 to 2 pixels as the edge grows, so that the default cube
// (edge 8, 4 players, 1000 ticks) gives 316×332 pixels and the largest,
// edge 32, 406×422. Paint allocates the image and does not modify the
// game; it is not safe for concurrent use with Step.
func (g *Game) Paint(seat int) *image.RGBA {
	seat = pic.ViewSeat(seat, g.n)
	p := g.picture()
	c := pic.NewCanvasSize(image.Pt(p.w, p.h), p.cell, paintBorder, pic.ColorHidden)
	big := p.cell >= 6
	e := p.edge
	for z := range e {
		for y := range e {
			for x := range e {
				col, row := p.cellOf(x, y, z)
				c.Fill(col, row, pic.ColorFloor)
			}
		}
		if p.cell >= 7 {
			r := p.rect(0, 0, z)
			c.Number(r.Min.X, r.Min.Y-p.cell+(p.cell-5)/2, 1, z, pic.ColorWall)
		}
	}
	for i := range g.nGroups {
		gr := &g.groups[i]
		if g.inCube(gr.x, gr.y, gr.z) {
			col, row := p.cellOf(gr.x, gr.y, gr.z)
			c.Fill(col, row, pic.ColorFire)
		}
	}
	for _, it := range g.items {
		x, y, z := int(it.X), int(it.Y), int(it.Z)
		if g.exploded(it) || !g.inCube(x, y, z) {
			continue
		}
		col, row := p.cellOf(x, y, z)
		if big {
			c.Fill(col, row, pic.ColorDanger)
			c.Disc(col, row, 0.62, pic.ColorBomb)
		} else {
			c.Fill(col, row, colorSmallBomb)
		}
	}
	for s := range g.n {
		pl := &g.players[s]
		if pl.InPlay || pl.Cause == CauseEarlier || !g.inCube(pl.X, pl.Y, pl.Z) {
			continue
		}
		col, row := p.cellOf(pl.X, pl.Y, pl.Z)
		if big {
			c.Disc(col, row, 0.8, pic.ColorDeadShade)
			c.Disc(col, row, 0.35, pic.SeatColor(s))
		} else {
			p.marker(c, pl.X, pl.Y, pl.Z, 2.5, pic.ColorDeadShade)
		}
	}
	for s := range g.n {
		pl := &g.players[s]
		if !pl.InPlay || !g.inCube(pl.X, pl.Y, pl.Z) {
			continue
		}
		col, row := p.cellOf(pl.X, pl.Y, pl.Z)
		if big {
			c.Disc(col, row, 0.9, pic.SeatColor(s))
		} else {
			p.marker(c, pl.X, pl.Y, pl.Z, 3.5, pic.SeatColor(s))
		}
	}
	if seat >= 0 && big {
		if pl := &g.players[seat]; g.inCube(pl.X, pl.Y, pl.Z) && (pl.InPlay || pl.Cause != CauseEarlier) {
			col, row := p.cellOf(pl.X, pl.Y, pl.Z)
			c.Frame(col, row, 1, pic.ColorText)
		}
	}
	g.paintStrip(c, p, seat)
	return c.Img
}

// paintStrip draws the status strip: currentTick, then one swatch per
// seat.
func (g *Game) paintStrip(c *pic.Canvas, p picture, seat int) {
	c.Number(paintBorder, p.stripY+2, 2, g.tick, pic.ColorText)
	for s := range g.n {
		x := p.swatchX + s%p.perRow*(paintSwatch+paintSwatchGap)
		y := p.stripY + s/p.perRow*paintStripRow
		c.Swatch(x, y, paintSwatch, 2, s, !g.players[s].InPlay, s == seat)
	}
}
