package testutil

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// PythonScript returns the absolute path of the Python script at path
// (relative to the test's package folder), skipping the test where python3
// is not installed.
func PythonScript(t testing.TB, path string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
