package web

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/botarena/botarena/internal/safefile"
)

// Files a request names are opened the way package safefile opens them,
// through the os.Root of their folder: with O_NONBLOCK, so that a FIFO (or
// a device) answers at once instead of blocking the request in open, then
// checked on the open file (fstat), refusing anything but a regular file
// (and a folder where one is wanted) and a file over its size limit.
// Errors are safefile's, naming the file relative to its folder.

// openIn opens the file name of root for reading without blocking, as
// described above: a regular file of at most maxBytes bytes (<= 0: no
// limit), or a folder when dirOK. The caller closes the file.
func openIn(root *os.Root, name string, maxBytes int64, dirOK bool) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &safefile.Error{Name: name, Err: err}
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		err = &safefile.Error{Name: name, Err: err}
	case fi.IsDir() && dirOK:
	case !fi.Mode().IsRegular():
		err = &safefile.Error{Name: name, Err: safefile.ErrNotRegular}
	case maxBytes > 0 && fi.Size() > maxBytes:
		err = &safefile.Error{Name: name, Size: fi.Size(), Limit: maxBytes, Err: safefile.ErrTooLarge}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readIn reads the regular file name of root, of at most maxBytes bytes,
// into a buffer of its size (openIn checks it); a file that grows while it
// is read is refused.
func readIn(root *os.Root, name string, maxBytes int64) ([]byte, error) {
	f, fi, err := openIn(root, name, maxBytes, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return data[:n], nil
	case err != nil:
		return nil, &safefile.Error{Name: name, Err: err}
	}
	return nil, fmt.Errorf("%s grew while it was read", name)
}

// rootFS is the folder dir ("." for the whole) of an os.Root as an fs.FS
// whose Open never blocks: it opens folders and regular files of at most
// max bytes only (openIn). Stat does not open, so that listing a replay's
// states (replay.States) neither blocks on nor refuses a FIFO: reading
// it does. fs.ReadDir and fs.WalkDir work through Open.
type rootFS struct {
	root *os.Root
	dir  string
	max  int64
}

func (r rootFS) name(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return path.Join(r.dir, name), nil
}

func (r rootFS) Open(name string) (fs.File, error) {
	full, err := r.name("open", name)
	if err != nil {
		return nil, err
	}
	f, _, err := openIn(r.root, full, r.max, true)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (r rootFS) Stat(name string) (fs.FileInfo, error) {
	full, err := r.name("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := r.root.Stat(full)
	if err != nil {
		return nil, &safefile.Error{Name: full, Err: err}
	}
	return fi, nil
}

// folderNames returns the ways the server's folders may be written in an
// error text (as given, absolute, links resolved), longest first.
func folderNames(dirs ...string) []string {
	var names []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		names = append(names, filepath.Clean(d))
		if abs, err := filepath.Abs(d); err == nil {
			names = append(names, abs)
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				names = append(names, real)
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(names)
}

// errText returns err's text for a client, with the server's folders cut
// out of the paths it names (a path inside one becomes relative to it).
func (s *Server) errText(err error) string {
	msg := err.Error()
	for _, d := range s.folders {
		if d == "." || d == string(filepath.Separator) {
			continue
		}
		msg = strings.ReplaceAll(msg, d+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, d, ".")
	}
	return msg
}
