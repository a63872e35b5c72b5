// Package picture draws botarena's games: the [Painter] interface every
// game's env implements (Gymnasium's "rgb_array" render mode, the web
// viewer, videos), the [Canvas] of square cells the games draw on, the
// palette that makes the five games look like one product, and the
// [LegendEntry] marks a viewer's key lists.
package picture

import (
	"image"
	"image/color"
)

// Painter is implemented by every registered game: it draws the state as a
// picture, for videos (Gymnasium's "rgb_array" render mode), viewers and
// debugging. Each game draws its own picture beside its rules.
//
// Paint is not on the hot path: it allocates a new image on every call and
// is not safe for concurrent use with Step.
type Painter interface {
	// Paint draws the game as seat sees it (-1: the full state, as a
	// referee or spectator sees it) into a new image. A game whose seats
	// see everything draws the same picture for every seat. The picture's
	// size depends only on the game's config, never on the state, so that
	// the frames of one episode make a video. Seats outside -1..Seats-1
	// are treated as -1.
	Paint(seat int) *image.RGBA
}

// LegendEntry is one mark of a game's picture and what it stands for, for
// the key a viewer draws beside the board (a game's kit lists them for the web viewer).
type LegendEntry struct {
	// Colour is the mark's colour.
	Colour color.RGBA
	// Mark is its shape, one of [LegendMarks]: a filled cell, a disc, a
	// ring, a small dot, a frame round a cell, a short streak, a cross.
	Mark string
	// Meaning says what the mark stands for, in a few words.
	Meaning string
}

// LegendMarks are the shapes a [LegendEntry] may have.
var LegendMarks = []string{"cell", "disc", "ring", "dot", "frame", "streak", "cross"}

// Palette colours shared by the games' pictures, so that the five games
// look like one product: a dark floor, light walls, one colour per seat.
var (
	ColorFloor     = color.RGBA{0x20, 0x24, 0x2b, 0xff}
	ColorGrid      = color.RGBA{0x2c, 0x31, 0x3a, 0xff}
	ColorWall      = color.RGBA{0x9a, 0xa0, 0xa8, 0xff}
	ColorSoftWall  = color.RGBA{0x8b, 0x5e, 0x3c, 0xff}
	ColorDanger    = color.RGBA{0x5a, 0x2a, 0x2a, 0xff}
	ColorFire      = color.RGBA{0xff, 0x9f, 0x1c, 0xff}
	ColorBomb      = color.RGBA{0x10, 0x10, 0x10, 0xff}
	ColorPowerUp   = color.RGBA{0x4c, 0xc9, 0xf0, 0xff}
	ColorCoin      = color.RGBA{0xff, 0xd1, 0x66, 0xff}
	ColorHidden    = color.RGBA{0x14, 0x16, 0x1a, 0xff}
	ColorText      = color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	ColorDeadShade = color.RGBA{0x55, 0x55, 0x55, 0xff}
)

// seatColors are distinct, colour-blind-friendly hues for up to 12 seats;
// seats beyond them cycle.
var seatColors = [...]color.RGBA{
	{0xe6, 0x39, 0x46, 0xff}, // red
	{0x45, 0x7b, 0xff, 0xff}, // blue
	{0x2a, 0x9d, 0x8f, 0xff}, // teal
	{0xe9, 0xc4, 0x6a, 0xff}, // sand
	{0xb5, 0x65, 0xd8, 0xff}, // purple
	{0xf4, 0xa2, 0x61, 0xff}, // orange
	{0x8a, 0xc9, 0x26, 0xff}, // lime
	{0xff, 0x70, 0xa6, 0xff}, // pink
	{0x00, 0xb4, 0xd8, 0xff}, // cyan
	{0xc0, 0xc0, 0xc0, 0xff}, // silver
	{0x9c, 0x66, 0x44, 0xff}, // brown
	{0x6a, 0x4c, 0x93, 0xff}, // indigo
}

// SeatColor returns seat's colour in every game's picture.
func SeatColor(seat int) color.RGBA {
	if seat < 0 {
		return ColorText
	}
	return seatColors[seat%len(seatColors)]
}

// ViewSeat returns the seat a [Painter] draws for when asked for seat in
// a game of seats seats: seat itself when it is one of them, else -1 (the
// referee's view), as Paint treats seats outside -1..seats-1.
func ViewSeat(seat, seats int) int {
	if seat < 0 || seat >= seats {
		return -1
	}
	return seat
}

// Canvas is an RGBA picture drawn as a grid of square cells, Cell pixels
// wide, with a margin of Border pixels around the grid. Games use it to
// draw their boards; cells are addressed (col, row) from the top left.
// Drawing outside the grid is clipped.
type Canvas struct {
	Img    *image.RGBA
	Cell   int
	Border int
}

// NewCanvas returns a canvas of cols×rows cells of cell pixels with a
// border of border pixels, filled with [ColorFloor]. It panics if a size is
// not positive.
func NewCanvas(cols, rows, cell, border int) *Canvas {
	if cols <= 0 || rows <= 0 || cell <= 0 || border < 0 {
		panic("picture: NewCanvas: sizes must be positive")
	}
	return NewCanvasSize(image.Pt(cols*cell+2*border, rows*cell+2*border), cell, border, ColorFloor)
}

// NewCanvasSize returns a canvas of size pixels, filled with background,
// whose cells are cell pixels with a border of border pixels: for pictures
// with more than the grid (a status strip under the board). It panics if
// the size or cell is not positive or border is negative.
func NewCanvasSize(size image.Point, cell, border int, background color.RGBA) *Canvas {
	if size.X <= 0 || size.Y <= 0 || cell <= 0 || border < 0 {
		panic("picture: NewCanvasSize: sizes must be positive")
	}
	img := image.NewRGBA(image.Rectangle{Max: size})
	c := &Canvas{Img: img, Cell: cell, Border: border}
	c.Rect(img.Rect, background)
	return c
}

// CellRect returns the pixel rectangle of cell (col, row).
func (c *Canvas) CellRect(col, row int) image.Rectangle {
	x, y := c.Border+col*c.Cell, c.Border+row*c.Cell
	return image.Rect(x, y, x+c.Cell, y+c.Cell)
}

// Rect fills r (clipped to the picture) with col.
func (c *Canvas) Rect(r image.Rectangle, col color.RGBA) {
	r = r.Intersect(c.Img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		off := c.Img.PixOffset(r.Min.X, y)
		for x := r.Min.X; x < r.Max.X; x++ {
			c.Img.Pix[off], c.Img.Pix[off+1], c.Img.Pix[off+2], c.Img.Pix[off+3] = col.R, col.G, col.B, col.A
			off += 4
		}
	}
}

// Fill fills cell (col, row) with colour, leaving a one-pixel grid line
// on its right and bottom edges when the cell is larger than 4 pixels.
func (c *Canvas) Fill(col, row int, colour color.RGBA) {
	r := c.CellRect(col, row)
	if c.Cell > 4 {
		c.Rect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y), ColorGrid)
		r.Max = r.Max.Sub(image.Pt(1, 1))
	}
	c.Rect(r, colour)
}

// Swatch draws seat's square of size pixels at pixel (x, y) (top left),
// as the games' status strips show each seat: in [SeatColor], grey
// ([ColorDeadShade]) from inset pixels in once the seat is out, and for
// the viewing seat a [ColorText] bar two pixels high one pixel under it.
func (c *Canvas) Swatch(x, y, size, inset, seat int, out, viewing bool) {
	sw := image.Rect(x, y, x+size, y+size)
	c.Rect(sw, SeatColor(seat))
	if out {
		c.Rect(sw.Inset(inset), ColorDeadShade)
	}
	if viewing {
		c.Rect(image.Rect(x, y+size+1, x+size, y+size+3), ColorText)
	}
}

// Inset fills a square inside cell (col, row), margin pixels in from each
// edge.
func (c *Canvas) Inset(col, row, margin int, colour color.RGBA) {
	c.Rect(c.CellRect(col, row).Inset(margin), colour)
}

// Disc draws a filled circle centred in cell (col, row) whose radius is
// frac of half the cell (frac 1 touches the edges).
func (c *Canvas) Disc(col, row int, frac float64, colour color.RGBA) {
	r := c.CellRect(col, row)
	c.DiscAt(float64(r.Min.X)+float64(c.Cell)/2, float64(r.Min.Y)+float64(c.Cell)/2, frac*float64(c.Cell)/2, colour)
}

// DiscAt draws a filled circle of radius rad pixels centred at (cx, cy).
func (c *Canvas) DiscAt(cx, cy, rad float64, colour color.RGBA) {
	r := image.Rect(int(cx-rad), int(cy-rad), int(cx+rad)+1, int(cy+rad)+1)
	r = r.Intersect(c.Img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if dx*dx+dy*dy <= rad*rad {
				c.Img.SetRGBA(x, y, colour)
			}
		}
	}
}

// Frame draws a rectangle outline of the given thickness just inside cell
// (col, row).
func (c *Canvas) Frame(col, row, thickness int, colour color.RGBA) {
	r := c.CellRect(col, row)
	c.Rect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+thickness), colour)
	c.Rect(image.Rect(r.Min.X, r.Max.Y-thickness, r.Max.X, r.Max.Y), colour)
	c.Rect(image.Rect(r.Min.X, r.Min.Y, r.Min.X+thickness, r.Max.Y), colour)
	c.Rect(image.Rect(r.Max.X-thickness, r.Min.Y, r.Max.X, r.Max.Y), colour)
}

// digits is a 3×5 pixel font for 0–9, one row of 3 bits per line, most
// significant bit on the left.
var digits = [10][5]uint8{
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}

// Number writes the non-negative integer n at pixel (x, y) (top left) in a
// 3×5 pixel font magnified scale times, one blank column between digits.
// It returns the x just after the last digit. Negative numbers are drawn as
// 0.
func (c *Canvas) Number(x, y, scale, n int, colour color.RGBA) int {
	if n < 0 {
		n = 0
	}
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte(n % 10)
		n /= 10
		if n == 0 {
			break
		}
	}
	for _, d := range buf[i:] {
		for row, bits := range digits[d] {
			for col := range 3 {
				if bits&(4>>col) != 0 {
					px, py := x+col*scale, y+row*scale
					c.Rect(image.Rect(px, py, px+scale, py+scale), colour)
				}
			}
		}
		x += 4 * scale
	}
	return x
}

// NumberWidth returns the width in pixels of n as [Canvas.Number] draws it
// at scale (a negative n as 0).
func NumberWidth(n, scale int) int {
	digits := 1
	for ; n >= 10; n /= 10 {
		digits++
	}
	return (4*digits - 1) * scale
}

// NumberIn writes n centred in cell (col, row), as large as fits.
func (c *Canvas) NumberIn(col, row, n int, colour color.RGBA) {
	scale := max(1, min(c.Cell*6/10/5, c.Cell*8/10/NumberWidth(n, 1)))
	c.NumberAt(col, row, scale, n, colour)
}

// NumberAt writes n centred in cell (col, row) at scale ([Canvas.Number]).
func (c *Canvas) NumberAt(col, row, scale, n int, colour color.RGBA) {
	r := c.CellRect(col, row)
	c.Number(r.Min.X+(c.Cell-NumberWidth(n, scale))/2, r.Min.Y+(c.Cell-5*scale)/2, scale, n, colour)
}

// RGB returns img's pixels without alpha: height*width*3 bytes, row-major,
// the layout of a numpy uint8 array of shape (height, width, 3).
func RGB(img *image.RGBA) []byte {
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	out := make([]byte, 0, w*h*3)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := img.PixOffset(b.Min.X, y)
		for range w {
			out = append(out, img.Pix[off], img.Pix[off+1], img.Pix[off+2])
			off += 4
		}
	}
	return out
}
