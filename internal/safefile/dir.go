package safefile

import (
	"fmt"
	"os"
	"path/filepath"
)

// ResolveDir returns path made absolute with its symbolic links resolved,
// or an error when it is empty or not an existing folder: for a server to
// check at start a folder it is told to serve files from (bots, leagues),
// and to compare later paths with what it returns. what names the folder
// in the error, which reads "<what>: empty path", "<what> <path>: <the
// cause>" or "<what> <path>: not a folder", path as given.
func ResolveDir(what, path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%s: empty path", what)
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, path, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s %s: not a folder", what, path)
	}
	return abs, nil
}
