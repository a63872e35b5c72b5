package safefile

import (
	"io"
	"os"
	"path/filepath"
)

// Pending is a file that appears at its path only once it is whole: it is
// written to a new temporary file in the path's folder (a name nothing
// else has taken, so not a FIFO put there in advance) and [Pending.Commit]
// renames it over the path, so a reader sees the old file or the whole new
// one. Not safe for concurrent use.
type Pending struct {
	*os.File
	path string
}

// Create starts a [Pending] file for path: the temporary file
// ".BASE.tmp*" beside it, open for writing.
func Create(path string) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	return &Pending{File: f, path: path}, nil
}

// Commit makes the file readable by everyone (mode 0644), closes it and
// renames it over the path. On an error the temporary file is removed.
func (p *Pending) Commit() error {
	err := p.Chmod(0o644)
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.Name())
	}
	return err
}

// Abort closes and removes the temporary file; the path is left as it was.
func (p *Pending) Abort() {
	p.Close()
	os.Remove(p.Name())
}

// WriteFile writes path with write through a [Pending] file: it appears
// whole once write returns nil, and is left as it was when write or the
// commit fails, which WriteFile returns.
func WriteFile(path string, write func(w io.Writer) error) error {
	p, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(p); err != nil {
		p.Abort()
		return err
	}
	return p.Commit()
}
