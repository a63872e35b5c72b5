package portalbomber

import (
	"image"
	"image/color"

	pic "github.com/botarena/botarena/env/picture"
)

var _ pic.Painter = (*Game)(nil)

// Picture geometry, in pixels.
const (
	paintBorder = 4
	// paintTarget is the board width the cell size aims at; cells are an
	// even number of pixels from paintMinCell to paintMaxCell.
	paintTarget  = 320
	paintMinCell = 12
	paintMaxCell = 32
	// paintRow is the height of one seat's row in the status strip.
	paintRow = 18
	// paintIcon is the size of the strip's swatches and icons.
	paintIcon = 12
)

// The portal colours, as in Portal.
var (
	colorOrangePortal = color.RGBA{0xff, 0x8a, 0x00, 0xff}
	colorBluePortal   = color.RGBA{0x1e, 0x9b, 0xff, 0xff}
	portalColors      = [2]color.RGBA{colorOrangePortal, colorBluePortal}
)

// picture is the geometry of a game's picture, a function of the board
// side only: the n×n board, then a status strip of one row per seat.
type picture struct {
	n, cell int
	w, h    int // both even
	stripY  int // top of the status strip
}

func (g *Game) picture() picture {
	p := picture{n: g.n}
	p.cell = min(max(paintTarget/g.n&^1, paintMinCell), paintMaxCell)
	p.w = g.n*p.cell + 2*paintBorder
	p.stripY = paintBorder + g.n*p.cell + 4
	p.h = p.stripY + Seats*paintRow + paintBorder
	return p
}

// rect returns the pixels of board cell (x, y).
func (p picture) rect(x, y int) image.Rectangle {
	px, py := paintBorder+x*p.cell, paintBorder+y*p.cell
	return image.Rect(px, py, px+p.cell, py+p.cell)
}

// pictureLegend is the key of [Game.Paint]'s marks (the kit's Legend).
var pictureLegend = []pic.LegendEntry{
	{Colour: pic.ColorWall, Mark: "cell", Meaning: "hard block"},
	{Colour: pic.ColorSoftWall, Mark: "cell", Meaning: "soft block"},
	{Colour: pic.ColorFire, Mark: "cell", Meaning: "explosion trail"},
	{Colour: pic.ColorDanger, Mark: "cell", Meaning: "apocalypse fire"},
	{Colour: pic.ColorBomb, Mark: "disc", Meaning: "bomb, ringed in its owner's colour, with its tick"},
	{Colour: colorOrangePortal, Mark: "streak", Meaning: "orange portal"},
	{Colour: colorBluePortal, Mark: "streak", Meaning: "blue portal"},
	{Colour: pic.ColorText, Mark: "dot", Meaning: "the side a player faces"},
}

// Paint draws the game as seat sees it (see [pic.Painter]; the game has no
// hidden information, so every seat sees the same board, with its own
// player framed in white). The board, (0,0) at the top left as in
// "board.txt": hard blocks grey, soft blocks brown; explosion trails
// orange; apocalypse fire as an ember (an orange dot) on a dark red cell,
// or on the block it burns; bombs as black discs ringed in their owner's
// seat colour showing their tick; players as discs in their seat colour
// ([pic.SeatColor]) with a white dot on the side they face (a player on a
// bomb is drawn smaller inside the bomb's ring, the tick in the cell's
// corner); portals as bars on the face of their block, orange or blue, with
// a square of the owner's colour in the middle. Under the board, one row
// per seat: a swatch of its colour (grey inside once dead; a white bar to
// its left when the seat is to move, underlined for the viewing seat), its
// coins (a gold coin), bombs available (a black bomb), range (an orange
// cross) and pierce (a cyan arrow), and, on seat 0's row, the moveNumber.
// Seats outside -1..1 are treated as -1.
//
// The picture's size depends only on the board side: cells are 28 pixels
// on the default 11×11 board (316×356 pixels) and 18 on the 17×17 variant
// (314×354). Paint allocates the image and does not modify the game; it
// is not safe for concurrent use with Step.
func (g *Game) Paint(seat int) *image.RGBA {
	seat = pic.ViewSeat(seat, Seats)
	p := g.picture()
	c := pic.NewCanvasSize(image.Pt(p.w, p.h), p.cell, paintBorder, pic.ColorFloor)
	n := g.n
	for y := range n {
		for x := range n {
			g.paintCell(c, p, x, y)
		}
	}
	// Portals after every block, so that no neighbour covers them.
	for y := range n {
		for x := range n {
			g.paintPortals(c, p, x, y)
		}
	}
	for s := range Seats {
		g.paintPlayer(c, p, s, seat)
	}
	g.paintStrip(c, p, seat)
	return c.Img
}

// paintCell draws cell (x, y): its block or floor, trail, fire and bomb.
func (g *Game) paintCell(c *pic.Canvas, p picture, x, y int) {
	cl := &g.cells[g.idx(x, y)]
	fire := cl.trails[2].Type == TrailFire
	switch {
	case cl.hard:
		c.Fill(x, y, pic.ColorWall)
	case cl.soft:
		c.Fill(x, y, pic.ColorSoftWall)
	case cl.trails[0].Type != NoTrail || cl.trails[1].Type != NoTrail:
		c.Fill(x, y, pic.ColorFire)
	case fire:
		c.Fill(x, y, pic.ColorDanger)
	default:
		c.Fill(x, y, pic.ColorFloor)
	}
	if fire {
		c.Disc(x, y, 0.4, pic.ColorFire)
	}
	if cl.bombSeq == 0 {
		return
	}
	if g.playerAt(x, y) >= 0 {
		return // paintPlayer draws the bomb on the player
	}
	paintBomb(c, x, y, int(cl.bombOwner), int(cl.bombTick), 1)
}

// paintBomb draws a bomb of owner with tick in cell (x, y), its ring
// frac of the cell wide.
func paintBomb(c *pic.Canvas, x, y, owner, tick int, frac float64) {
	c.Disc(x, y, 0.86*frac, pic.SeatColor(owner))
	c.Disc(x, y, 0.7*frac, pic.ColorBomb)
	if frac == 1 {
		c.NumberIn(x, y, tick, pic.ColorText)
		return
	}
	c.NumberAt(x, y, max(1, c.Cell/14), tick, pic.ColorText)
}

// playerAt returns the seat of the player on (x, y), or -1.
func (g *Game) playerAt(x, y int) int {
	for s := range Seats {
		if pl := &g.players[s]; pl.Alive && int(pl.X) == x && int(pl.Y) == y {
			return s
		}
	}
	return -1
}

// paintPortals draws the portals on the faces of block (x, y).
func (g *Game) paintPortals(c *pic.Canvas, p picture, x, y int) {
	cl := &g.cells[g.idx(x, y)]
	if cl.portalSeq == 0 {
		return
	}
	r := p.rect(x, y)
	t := max(3, p.cell/5)  // bar thickness
	m := max(1, p.cell/10) // bar inset from the corners
	o := max(3, p.cell/4)  // owner mark
	for dir, f := range cl.portals {
		if f.owner == 0 {
			continue
		}
		var bar image.Rectangle
		switch dir {
		case Left:
			bar = image.Rect(r.Min.X, r.Min.Y+m, r.Min.X+t, r.Max.Y-m)
		case Up:
			bar = image.Rect(r.Min.X+m, r.Min.Y, r.Max.X-m, r.Min.Y+t)
		case Right:
			bar = image.Rect(r.Max.X-t, r.Min.Y+m, r.Max.X, r.Max.Y-m)
		case Down:
			bar = image.Rect(r.Min.X+m, r.Max.Y-t, r.Max.X-m, r.Max.Y)
		}
		c.Rect(bar.Inset(-1).Intersect(r), pic.ColorBomb)
		c.Rect(bar, portalColors[f.color&1])
		mid := bar.Min.Add(bar.Max).Div(2)
		mark := image.Rect(mid.X-o/2, mid.Y-o/2, mid.X-o/2+o, mid.Y-o/2+o)
		c.Rect(mark.Inset(-1), pic.ColorBomb)
		c.Rect(mark, pic.SeatColor(int(f.owner)-1))
	}
}

// paintPlayer draws seat s's player, if alive, facing its orientation.
func (g *Game) paintPlayer(c *pic.Canvas, p picture, s, seat int) {
	pl := g.Player(s)
	if !pl.Alive || !g.inBoard(pl.X, pl.Y) {
		return
	}
	cl := &g.cells[g.idx(pl.X, pl.Y)]
	onBomb := cl.bombSeq != 0
	frac, d, rad := 0.78, 0.24, 0.09 // disc; facing dot's distance and radius, in cells
	if onBomb {
		frac, d, rad = 0.96, 0.37, 0.07
	}
	c.Disc(pl.X, pl.Y, frac, pic.SeatColor(s))
	if onBomb {
		paintBomb(c, pl.X, pl.Y, int(cl.bombOwner), int(cl.bombTick), 0.66)
	}
	r := p.rect(pl.X, pl.Y)
	cell := float64(p.cell)
	cx, cy := float64(r.Min.X)+cell/2, float64(r.Min.Y)+cell/2
	o := pl.Orientation & 3
	c.DiscAt(cx+float64(dirDX[o])*d*cell, cy+float64(dirDY[o])*d*cell, max(1.5, cell*rad), pic.ColorText)
	if s == seat {
		c.Frame(pl.X, pl.Y, 2, pic.ColorText)
	}
}

// paintStrip draws one row per seat: swatch, coins, bombs, range, pierce;
// and the moveNumber at the right of seat 0's row.
func (g *Game) paintStrip(c *pic.Canvas, p picture, seat int) {
	toMove := -1
	if !g.cfg.Simultaneous && !g.Done() {
		toMove = g.ToMove()
	}
	for s := range Seats {
		pl := g.Player(s)
		y := p.stripY + s*paintRow
		x := paintBorder + 5
		if s == toMove {
			c.Rect(image.Rect(paintBorder, y, paintBorder+3, y+paintIcon), pic.ColorText)
		}
		c.Swatch(x, y, paintIcon, 3, s, !pl.Alive, s == seat)
		x += paintIcon + 8
		for k, v := range [4]int{pl.Coins, pl.BombCount, pl.BombRange, pl.BombPierce} {
			icon(c, x, y, k)
			x = c.Number(x+paintIcon+3, y+1, 2, v, pic.ColorText) + 8
		}
	}
	c.Number(p.w-paintBorder-pic.NumberWidth(g.moveNumber, 2), p.stripY+1, 2, g.moveNumber, pic.ColorWall)
}

// icon draws the strip's icon k at (x, y): 0 a coin, 1 a bomb, 2 range (a
// cross of fire), 3 pierce (an arrow).
func icon(c *pic.Canvas, x, y, k int) {
	h := float64(paintIcon) / 2
	cx, cy := float64(x)+h, float64(y)+h
	switch k {
	case 0:
		c.DiscAt(cx, cy, h, pic.ColorCoin)
		c.DiscAt(cx, cy, h-3, color.RGBA{0xd4, 0xa2, 0x3a, 0xff})
	case 1:
		c.DiscAt(cx, cy, h, pic.ColorWall)
		c.DiscAt(cx, cy, h-1.5, pic.ColorBomb)
	case 2:
		c.Rect(image.Rect(x, y+4, x+paintIcon, y+8), pic.ColorFire)
		c.Rect(image.Rect(x+4, y, x+8, y+paintIcon), pic.ColorFire)
	case 3:
		c.Rect(image.Rect(x, y+5, x+8, y+7), pic.ColorPowerUp)
		for i := range 6 {
			c.Rect(image.Rect(x+6+i, y+i, x+7+i, y+paintIcon-i), pic.ColorPowerUp)
		}
	}
}
