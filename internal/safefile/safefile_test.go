package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/botarena/botarena/internal/safefile"
)

// TestOpenRefusesWhatIsNotARegularFile checks that a FIFO without a
// writer, a folder and a missing file are refused at once (a plain open of
// the FIFO would block forever), that a file over the limit is refused,
// and that errors name the file by the name given, not by its path.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		max        int64
		want       error
	}{
		{"fifo", fifo, 0, safefile.ErrNotRegular},
		{"folder", dir, 0, safefile.ErrNotRegular},
		{"too large", big, 99, safefile.ErrTooLarge},
		{"missing", filepath.Join(dir, "nope"), 0, os.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, open := range []func() error{
				func() error { f, _, err := safefile.Open(tc.path, "shown", tc.max); f.Close(); return err },
				func() error { _, err := safefile.ReadFile(tc.path, "shown", tc.max); return err },
				func() error { _, err := safefile.Check(tc.path, "shown", tc.max); return err },
			} {
				err := open()
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "shown: ") || strings.Contains(msg, dir) {
					t.Fatalf("error %q does not name the file as given, or shows its folder", msg)
				}
			}
		})
	}
}

// TestReadFileReadsARegularFileWhole checks the ordinary case, at the
// limit and without one.
func TestReadFileReadsARegularFileWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := strings.Repeat("botarena", 1000)
	if err := os.WriteFile(path, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, max := range []int64{0, int64(len(want))} {
		got, err := safefile.ReadFile(path, "f", max)
		if err != nil || string(got) != want {
			t.Fatalf("limit %d: %d bytes, %v", max, len(got), err)
		}
	}
}

// TestResolveDir: a folder reached through a symbolic link resolves to its
// real absolute path; an empty path, a file and a missing path are refused
// with errors naming the folder by what and by the path as given.
func TestResolveDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real, link, file := filepath.Join(dir, "real"), filepath.Join(dir, "link"), filepath.Join(dir, "file")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := safefile.ResolveDir("bots folder", link); err != nil || got != real {
		t.Errorf("ResolveDir(link) = %q, %v; want %q", got, err, real)
	}
	for _, tc := range []struct{ path, want string }{
		{"", "bots folder: empty path"},
		{file, "bots folder " + file + ": not a folder"},
		{filepath.Join(dir, "missing"), "bots folder " + filepath.Join(dir, "missing") + ": "},
	} {
		if _, err := safefile.ResolveDir("bots folder", tc.path); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ResolveDir(%q): %v, want an error starting %q", tc.path, err, tc.want)
		}
	}
}
