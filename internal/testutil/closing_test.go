package testutil_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

type closer struct{ closed int }

func (c *closer) Close() error { c.closed++; return nil }

// TestClosingFailsOnAnErrorElseClosesAtTheEnd: an error fails the test
// and registers nothing; without one the value comes back, closed once
// when the test ends and not before.
func TestClosingFailsOnAnErrorElseClosesAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name       string
		err        error
		wantFailed bool
		wantClosed int
	}{
		{"opened", nil, false, 1},
		{"error", errors.New("refused"), true, 0},
	} {
		c, r := &closer{}, &fatalRecorder{}
		t.Run(tc.name, func(t *testing.T) {
			r.TB = t
			done := make(chan struct{})
			go func() {
				defer close(done)
				if got := testutil.Closing(r, c, tc.err); got != c {
					t.Errorf("Closing returned %p, want %p", got, c)
				}
			}()
			<-done
			if c.closed != 0 {
				t.Errorf("closed %d times before the test ended", c.closed)
			}
		})
		if r.failed != tc.wantFailed || c.closed != tc.wantClosed {
			t.Errorf("%s: failed %v, closed %d times; want %v, %d", tc.name, r.failed, c.closed, tc.wantFailed, tc.wantClosed)
		}
	}
}
