package testutil

import (
	"strings"
	"testing"
)

// WantContains fails t, without stopping it, once for each of wants that
// got does not contain, naming what got is ("the summary", "log.txt")
// and showing got.
func WantContains(t testing.TB, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}
