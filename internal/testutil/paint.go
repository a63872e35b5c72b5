package testutil

import (
	"image"
	"testing"
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
