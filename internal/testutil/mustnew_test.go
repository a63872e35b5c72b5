package testutil_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestMustNewFailsOnlyOnAnError: a constructor's game comes back; its
// error fails the test.
func TestMustNewFailsOnlyOnAnError(t *testing.T) {
	double := func(n int) (int, error) {
		if n < 0 {
			return 0, errors.New("negative")
		}
		return 2 * n, nil
	}
	for n, wantFailed := range map[int]bool{3: false, -1: true} {
		r := &fatalRecorder{TB: t}
		got := 0
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			got = testutil.MustNew(r, double, n)
		}()
		wg.Wait()
		if r.failed != wantFailed || (!wantFailed && got != 2*n) {
			t.Errorf("MustNew(%d): %d, failed %v; want %d, failed %v", n, got, r.failed, 2*n, wantFailed)
		}
	}
}
