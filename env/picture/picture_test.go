package picture

import (
	"bytes"
	"image"
	"image/color"
	"testing"
)

func TestNumberWidthIsWhatNumberDraws(t *testing.T) {
	for _, tc := range []struct {
		n, scale, want int
	}{{0, 1, 3}, {9, 1, 3}, {10, 1, 7}, {123, 2, 22}, {-5, 1, 3}} {
		c := NewCanvasSize(image.Pt(100, 20), 10, 0, ColorFloor)
		if got := NumberWidth(tc.n, tc.scale); got != tc.want {
			t.Errorf("NumberWidth(%d, %d) = %d, want %d", tc.n, tc.scale, got, tc.want)
		}
		// Number returns the x after the last digit's blank column.
		if end := c.Number(0, 0, tc.scale, tc.n, ColorText); end != tc.want+tc.scale {
			t.Errorf("Number(%d) at scale %d ends at %d, want %d", tc.n, tc.scale, end, tc.want+tc.scale)
		}
	}
}

func TestNewCanvasSizeFillsTheBackground(t *testing.T) {
	c := NewCanvasSize(image.Pt(30, 18), 8, 2, ColorHidden)
	if c.Img.Rect != image.Rect(0, 0, 30, 18) || c.Cell != 8 || c.Border != 2 {
		t.Fatalf("canvas %v cell %d border %d", c.Img.Rect, c.Cell, c.Border)
	}
	for _, p := range []image.Point{{0, 0}, {29, 17}, {15, 9}} {
		if got := c.Img.RGBAAt(p.X, p.Y); got != ColorHidden {
			t.Errorf("pixel %v is %v, want the background %v", p, got, ColorHidden)
		}
	}
	if got, want := NewCanvas(3, 2, 8, 2).Img.Rect, image.Rect(0, 0, 28, 20); got != want {
		t.Errorf("NewCanvas(3, 2, 8, 2) is %v, want %v", got, want)
	}
}

func TestViewSeatTreatsOutOfRangeSeatsAsTheReferee(t *testing.T) {
	for _, tc := range []struct{ seat, seats, want int }{
		{-1, 2, -1}, {0, 2, 0}, {1, 2, 1}, {2, 2, -1}, {-2, 2, -1}, {11, 12, 11}, {12, 12, -1}, {0, 1, 0},
	} {
		if got := ViewSeat(tc.seat, tc.seats); got != tc.want {
			t.Errorf("ViewSeat(%d, %d) = %d, want %d", tc.seat, tc.seats, got, tc.want)
		}
	}
}

func TestNumberInIsNumberAtItsScale(t *testing.T) {
	for _, n := range []int{0, 7, 42, 1000} {
		a, b := NewCanvas(2, 1, 32, 4), NewCanvas(2, 1, 32, 4)
		a.NumberIn(1, 0, n, ColorText)
		scale := max(1, min(32*6/10/5, 32*8/10/NumberWidth(n, 1)))
		b.NumberAt(1, 0, scale, n, ColorText)
		if !bytes.Equal(a.Img.Pix, b.Img.Pix) {
			t.Errorf("%d: NumberIn differs from NumberAt at scale %d", n, scale)
		}
		if bytes.Equal(a.Img.Pix, NewCanvas(2, 1, 32, 4).Img.Pix) {
			t.Errorf("%d: nothing drawn", n)
		}
	}
}

func TestSwatchShowsOutAndViewingSeats(t *testing.T) {
	for _, tc := range []struct {
		name         string
		out, viewing bool
	}{{"in_play", false, false}, {"out", true, false}, {"viewing", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCanvasSize(image.Pt(20, 20), 4, 0, ColorFloor)
			c.Swatch(2, 2, 10, 3, 1, tc.out, tc.viewing)
			centre := ColorDeadShade
			if !tc.out {
				centre = SeatColor(1)
			}
			under := ColorFloor
			if tc.viewing {
				under = ColorText
			}
			for _, ch := range []struct {
				p    image.Point
				want color.RGBA
			}{{image.Pt(2, 2), SeatColor(1)}, {image.Pt(7, 7), centre}, {image.Pt(6, 13), under}, {image.Pt(6, 12), ColorFloor}} {
				if got := c.Img.RGBAAt(ch.p.X, ch.p.Y); got != ch.want {
					t.Errorf("pixel %v is %v, want %v", ch.p, got, ch.want)
				}
			}
		})
	}
}
