package testutil_test

import (
	"image"
	"runtime"
	"sync"
	"testing"

	"github.com/botarena/botarena/internal/testgame"
	"github.com/botarena/botarena/internal/testutil"
)

// scribbler is a test game whose Paint changes the state.
type scribbler struct{ *testgame.Game }

func (s scribbler) Paint(seat int) *image.RGBA {
	s.Round++
	return s.Game.Paint(seat)
}

// fatalRecorder records a Fatalf and ends the goroutine, as testing.T does.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatalf(string, ...any) {
	r.failed = true
	runtime.Goexit()
}

func TestPaintKeepsStateFailsOnlyWhenPaintChangesTheState(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scribble bool
	}{{"keeps", false}, {"changes", true}} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := testgame.New(&testgame.Config{Players: 2})
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(1)
			r := &fatalRecorder{TB: t}
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				if tc.scribble {
					testutil.PaintKeepsState(r, scribbler{g}, 0)
				} else {
					testutil.PaintKeepsState(r, g, 0)
				}
			}()
			wg.Wait()
			if r.failed != tc.scribble {
				t.Errorf("failed %v, want %v", r.failed, tc.scribble)
			}
		})
	}
}
