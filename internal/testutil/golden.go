// Package testutil holds helpers shared by botarena's tests: golden files
// regenerated with -update.
package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: golden files are rewritten instead of compared.
var Update = flag.Bool("update", false, "rewrite golden files in testdata/ instead of comparing")

// Golden compares got with the file testdata/name (relative to the test's
// package directory) and fails the test with the first differing line. With
// -update it writes got to the file instead.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run the test with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gotLines, wantLines := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(gotLines), len(wantLines)) {
		var g, w []byte
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if !bytes.Equal(g, w) {
			t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q\n(run with -update if the change is intended)", path, i+1, g, w)
		}
	}
	t.Fatalf("%s differs (%d bytes, want %d)", path, len(got), len(want))
}
