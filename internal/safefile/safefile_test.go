package safefile_test

import (
	"errors"
	"io"
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

// TestWriteFileReplacesWholeOrNotAtAll: WriteFile puts the new content at
// the path with mode 0644; when write fails, the old file stays as it was
// and its error comes back; either way no temporary file is left.
func TestWriteFileReplacesWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("write failed")
	for _, tc := range []struct {
		name  string
		write func(w io.Writer) error
		err   error
		want  string
	}{
		{"write_fails", func(w io.Writer) error { io.WriteString(w, "half"); return bad }, bad, "old"},
		{"write_succeeds", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, nil, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := safefile.WriteFile(path, tc.write); !errors.Is(err, tc.err) {
				t.Fatalf("WriteFile = %v, want %v", err, tc.err)
			}
			if got, err := os.ReadFile(path); err != nil || string(got) != tc.want {
				t.Errorf("the file holds %q (%v), want %q", got, err, tc.want)
			}
			if fi, err := os.Stat(path); err != nil || (tc.err == nil && fi.Mode().Perm() != 0o644) {
				t.Errorf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
			}
			if names, _ := filepath.Glob(filepath.Join(dir, "*")); len(names) != 1 {
				t.Errorf("the folder holds %q, want the file alone", names)
			}
			if names, _ := filepath.Glob(filepath.Join(dir, ".*")); len(names) != 0 {
				t.Errorf("temporary files left: %q", names)
			}
		})
	}
}

// TestPendingAbortLeavesThePath: an aborted Pending file never appears.
func TestPendingAbortLeavesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	p, err := safefile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteString("partial"); err != nil {
		t.Fatal(err)
	}
	p.Abort()
	if names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(names) != 0 {
		t.Errorf("after Abort the folder holds %q, want nothing", names)
	}
	if names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(names) != 0 {
		t.Errorf("after Abort the folder holds %q, want nothing", names)
	}
}
