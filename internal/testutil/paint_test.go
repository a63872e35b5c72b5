package testutil

import (
	"image"
	"testing"
)

// seatPainter paints a 1×1 picture whose first byte tells the seat; with
// clamp it treats the seats outside -1..seats-1 as -1.
type seatPainter struct {
	seats int
	clamp bool
}

func (p seatPainter) Paint(seat int) *image.RGBA {
	if p.clamp && (seat < -1 || seat >= p.seats) {
		seat = -1
	}
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Pix[0] = byte(seat + 10)
	return img
}

// errorRecorder records an Errorf.
type errorRecorder struct {
	testing.TB
	failed bool
}

func (r *errorRecorder) Helper()               {}
func (r *errorRecorder) Errorf(string, ...any) { r.failed = true }

func TestPaintOutOfRangeFailsOnlyWhenAnOutsideSeatIsNotTheReferee(t *testing.T) {
	for _, tc := range []struct {
		name    string
		painter seatPainter
		fail    bool
	}{
		{"outside_seats_drawn_as_the_referee", seatPainter{seats: 2, clamp: true}, false},
		{"outside_seats_drawn_as_themselves", seatPainter{seats: 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &errorRecorder{TB: t}
			PaintOutOfRange(r, tc.painter, 2)
			if r.failed != tc.fail {
				t.Errorf("failed %v, want %v", r.failed, tc.fail)
			}
		})
	}
}
