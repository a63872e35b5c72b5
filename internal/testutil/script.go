package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// ShScript writes an executable shell script named name, "#!/bin/sh" and
// body, into a temporary folder of t and returns its path: a bot's command
// for the tests of external bots.
func ShScript(t testing.TB, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
