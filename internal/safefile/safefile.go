// Package safefile opens files that a user, a client or a bot named,
// without letting the file hang or exhaust the process: a FIFO, a device
// or a socket is refused before anything blocks on it, and a regular file
// over a size limit is refused before it is read.
//
// It is the one place that opens such files; the viewer's replays, league
// stores and policy files go through it. It also resolves the folders a
// server serves files from ([ResolveDir]), and writes the files others
// read while they change (a league's chart and live table, a recording)
// so that they appear whole or not at all ([Create], [WriteFile]).
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the errors of [Open] and [Check] for a path
// that is not a regular file (a FIFO, a device, a socket, a folder).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the errors of [Open] and [Check] for a regular
// file over the size limit.
var ErrTooLarge = errors.New("over the size limit")

// Error is what [Open] and [Check] return for a file they refuse. Its
// message names the file by Name, which is the name the caller gave
// (callers pass a name relative to the folder they serve, so that the
// server's own paths never reach a client).
type Error struct {
	Name  string
	Size  int64 // the file's size, for ErrTooLarge
	Limit int64 // the limit, for ErrTooLarge
	Err   error // ErrNotRegular, ErrTooLarge or the error of the system call
}

func (e *Error) Error() string {
	switch e.Err {
	case ErrNotRegular:
		return fmt.Sprintf("%s: not a regular file", e.Name)
	case ErrTooLarge:
		return fmt.Sprintf("%s: %d bytes, over the %d-byte limit", e.Name, e.Size, e.Limit)
	}
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		// The path error repeats the full path; keep only its cause.
		return fmt.Sprintf("%s: %v", e.Name, pe.Err)
	}
	return fmt.Sprintf("%s: %v", e.Name, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Open opens path for reading without blocking: it opens with O_NONBLOCK
// (so a FIFO without a writer returns at once instead of blocking in
// open), then checks the open file with fstat and refuses anything but a
// regular file of at most maxBytes bytes (maxBytes <= 0: no limit). The
// returned file reads like any file (O_NONBLOCK does not change reads of
// regular files), and its FileInfo is that of the open file, so a path
// swapped after the check cannot slip through. name is the file's name in
// errors (see [Error]). The caller closes the file.
func Open(path, name string, maxBytes int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &Error{Name: name, Err: err}
	}
	fi, err := f.Stat()
	if err == nil {
		err = check(name, fi, maxBytes)
	} else {
		err = &Error{Name: name, Err: err}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the whole of a file checked as [Open] checks it; the
// limit bounds what is allocated, even if the file grows after the check.
func ReadFile(path, name string, maxBytes int64) ([]byte, error) {
	f, fi, err := Open(path, name, maxBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := fi.Size()
	r := io.Reader(f)
	if maxBytes > 0 {
		r = io.LimitReader(f, maxBytes+1)
	}
	data := make([]byte, 0, size+1)
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{Name: name, Err: err}
		}
		if maxBytes > 0 && int64(len(data)) > maxBytes {
			return nil, &Error{Name: name, Size: int64(len(data)), Limit: maxBytes, Err: ErrTooLarge}
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
	return data, nil
}

// Check stats path (following links) and refuses anything but a regular
// file of at most maxBytes bytes (maxBytes <= 0: no limit), without
// opening it. For files another library opens itself (a bbolt store):
// check first, then let it open.
func Check(path, name string, maxBytes int64) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &Error{Name: name, Err: err}
	}
	if err := check(name, fi, maxBytes); err != nil {
		return nil, err
	}
	return fi, nil
}

func check(name string, fi fs.FileInfo, maxBytes int64) error {
	if !fi.Mode().IsRegular() {
		return &Error{Name: name, Err: ErrNotRegular}
	}
	if maxBytes > 0 && fi.Size() > maxBytes {
		return &Error{Name: name, Size: fi.Size(), Limit: maxBytes, Err: ErrTooLarge}
	}
	return nil
}
