package testutil

import (
	"bytes"
	"image"
	"testing"

	"github.com/botarena/botarena/env"
)

// PaintSize fails t unless g paints a picture whose bounds are
// (0,0)–size for every seat from -2 to seats, the seats out of range
// included (a game's pictures of one config all have one size, whatever
// the state and the seat). step names the state in the message.
func PaintSize(t testing.TB, g interface{ Paint(seat int) *image.RGBA }, seats int, size image.Point, step int) {
	t.Helper()
	for seat := -2; seat <= seats; seat++ {
		if got := g.Paint(seat).Rect; got != (image.Rectangle{Max: size}) {
			t.Fatalf("step %d: Paint(%d) is %v, want %v", step, seat, got, image.Rectangle{Max: size})
		}
	}
}

// WantPaintSize returns the size of g's picture for seat -1 and fails t
// unless both sides are even and at most most pixels and, when want is not
// zero, the size is want.
func WantPaintSize(t testing.TB, g interface{ Paint(seat int) *image.RGBA }, want image.Point, most int) image.Point {
	t.Helper()
	size := g.Paint(-1).Rect.Size()
	if size.X%2 != 0 || size.Y%2 != 0 || size.X > most || size.Y > most {
		t.Fatalf("size %v: want even sides of at most %d", size, most)
	}
	if want != (image.Point{}) && size != want {
		t.Errorf("size %v, want %v", size, want)
	}
	return size
}

// NativeFiles returns every native file of c for seat -1 and each of
// seats seats, format after format in c's order, concatenated: the state
// as its formats show it, to compare before and after something that must
// not change it.
func NativeFiles(c env.Codec, seats int) []byte {
	var b []byte
	for _, f := range c.NativeFormats() {
		for seat := -1; seat < seats; seat++ {
			b, _ = c.AppendNative(b, f, seat)
		}
	}
	return b
}

// PaintOutOfRange fails t unless g treats the seats outside -1..seats-1 as
// -1, as [picture.Painter] requires: Paint(-9), Paint(-2), Paint(seats) and
// Paint(seats+7) each draw the picture of Paint(-1).
func PaintOutOfRange(t testing.TB, g interface{ Paint(seat int) *image.RGBA }, seats int) {
	t.Helper()
	want := g.Paint(-1).Pix
	for _, seat := range []int{-9, -2, seats, seats + 7} {
		if !bytes.Equal(g.Paint(seat).Pix, want) {
			t.Errorf("Paint(%d) differs from Paint(-1): seats outside -1..%d must be treated as -1", seat, seats-1)
		}
	}
}

// PaintKeepsState fails t if painting g for every seat from -2 to its
// Spec's Seats changes any of its [NativeFiles]. step names the state in
// the message.
func PaintKeepsState(t testing.TB, g interface {
	env.Env
	env.Codec
	Paint(seat int) *image.RGBA
}, step int) {
	t.Helper()
	seats := g.Spec().Seats
	before := NativeFiles(g, seats)
	for seat := -2; seat <= seats; seat++ {
		g.Paint(seat)
	}
	if after := NativeFiles(g, seats); !bytes.Equal(before, after) {
		t.Fatalf("step %d: Paint changed the state:\n%s\nwant:\n%s", step, after, before)
	}
}
