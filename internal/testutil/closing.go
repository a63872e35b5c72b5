package testutil

import (
	"io"
	"testing"
)

// Closing is the end of opening something a test uses: it fails t when
// err is not nil, and otherwise registers c's closing (its error ignored)
// with t.Cleanup and returns c, as in
//
//	c, err := client.Dial(addr)
//	return testutil.Closing(t, c, err)
func Closing[C io.Closer](t testing.TB, c C, err error) C {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
