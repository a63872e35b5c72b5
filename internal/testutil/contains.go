package testutil

import (
	"fmt"
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

// WantErr fails t (Fatal) unless err is what a case of a table test wants:
// nil when want is "", otherwise an error whose text contains want. It
// reports whether an error was wanted, when the case has nothing more to
// check:
//
//	if testutil.WantErr(t, err, tc.err) {
//		return
//	}
func WantErr(t testing.TB, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error %v, want one containing %q", err, want)
	}
	return want != ""
}

// WantPanic fails t, without stopping it, unless f panics with a value
// whose text (as fmt's %v prints it) contains want; want "" accepts any
// panic. call names what f does in the message ("SetPlayerInfo(-1)").
func WantPanic(t testing.TB, call, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		switch r := recover(); {
		case r == nil:
			t.Errorf("%s did not panic", call)
		case !strings.Contains(fmt.Sprint(r), want):
			t.Errorf("%s: panic %v, want one containing %q", call, r, want)
		}
	}()
	f()
}
