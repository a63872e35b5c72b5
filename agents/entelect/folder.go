package entelect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Limits of an Entelect bot folder, which every match copies (see
// [Bot], "One copy of the bot folder per match"): a folder over
// either is refused when the agent is made, naming the limit.
const (
	// MaxBotFolder caps the bytes of the regular files of a bot folder
	// (512 MiB).
	MaxBotFolder = 512 << 20
	// MaxBotFolderEntries caps the files, folders and links of a bot
	// folder (100 000).
	MaxBotFolderEntries = 100_000
)

// errLinkOut is wrapped by the error for a symbolic link in a bot folder
// that leads out of it.
var errLinkOut = errors.New("leads out of the bot folder")

// folderEntry is one entry of a bot folder walk: a folder, a regular file
// or a symbolic link whose target (as the copy writes it) stays inside.
type folderEntry struct {
	rel    string      // path relative to the folder, OS separators
	mode   fs.FileMode // type and permissions
	size   int64       // regular files
	target string      // links: the target, relative to the link's folder
}

// walkBotFolder walks the bot folder root (a real path, without symbolic
// links) and calls visit for each folder, regular file and symbolic link
// inside, after checking the limits ([MaxBotFolder], [MaxBotFolderEntries])
// and that the link leads to a path inside root. Other entries (FIFOs,
// sockets, devices) are skipped: they have no content to copy. name is
// the folder as the user named it, for errors.
func walkBotFolder(root, name string, visit func(folderEntry) error) error {
	var total int64
	entries := 0
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("bot folder %s: %w", name, err)
		}
		if path == root {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if entries++; entries > MaxBotFolderEntries {
			return fmt.Errorf("bot folder %s has more than %d files and folders, the limit of the copy each match runs the bot from", name, MaxBotFolderEntries)
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("bot folder %s: %w", name, err)
		}
		e := folderEntry{rel: rel, mode: info.Mode()}
		switch {
		case d.IsDir():
		case info.Mode().IsRegular():
			e.size = info.Size()
			if total += e.size; total > MaxBotFolder {
				return fmt.Errorf("bot folder %s holds more than %d MiB, the limit of the copy each match runs the bot from: leave out what the bot does not need to run", name, MaxBotFolder>>20)
			}
		case info.Mode()&fs.ModeSymlink != 0:
			if e.target, err = linkInside(root, path); err != nil {
				return fmt.Errorf("bot folder %s: symbolic link %s %w: put what it points to inside the folder", name, rel, err)
			}
		default:
			return nil // a FIFO, socket or device: nothing to copy
		}
		return visit(e)
	})
}

// linkInside returns the target of the symbolic link at path (inside the
// real folder root) as a path relative to the link's folder, so that a
// copy of root points into the copy; errLinkOut for a link that leads
// out of root, directly or through another link.
func linkInside(root, path string) (string, error) {
	t, err := os.Readlink(path)
	if err != nil {
		return "", err
	}
	lexical := t
	if !filepath.IsAbs(t) {
		lexical = filepath.Join(filepath.Dir(path), t)
	}
	lexical = filepath.Clean(lexical)
	real, rerr := filepath.EvalSymlinks(path)
	switch {
	case rerr == nil && !within(root, real):
		return "", errLinkOut
	case rerr != nil && !within(root, lexical):
		return "", errLinkOut // dangling, and outside
	case rerr == nil && !within(root, lexical):
		// An absolute path into the folder by another name.
		lexical = real
	}
	return filepath.Rel(filepath.Dir(path), lexical)
}

// scanBotFolder checks the bot folder root against the limits of a copy
// (see [walkBotFolder]).
func scanBotFolder(root, name string) error {
	return walkBotFolder(root, name, func(folderEntry) error { return nil })
}

// copyBotFolder copies the bot folder src (a real path) to dst, which must
// not exist: folders, regular files with their permissions, and symbolic
// links that stay inside, as [walkBotFolder] finds them. Folders get owner
// rwx, so that the copy can be removed.
func copyBotFolder(dst, src, name string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.Mkdir(dst, st.Mode().Perm()|0o700); err != nil {
		return err
	}
	return walkBotFolder(src, name, func(e folderEntry) error {
		to := filepath.Join(dst, e.rel)
		switch {
		case e.mode.IsDir():
			return os.Mkdir(to, e.mode.Perm()|0o700)
		case e.mode&fs.ModeSymlink != 0:
			return os.Symlink(e.target, to)
		}
		return copyFile(to, filepath.Join(src, e.rel), e.mode.Perm(), e.size)
	})
}

// copyFile copies the regular file from to the new file to, at most size
// bytes (its size when the walk saw it: the folder's total stays bounded
// however it changes meanwhile). A file that is no longer regular is
// skipped; it is opened without blocking, so a FIFO put in its place
// cannot hang the copy.
func copyFile(to, from string, perm fs.FileMode, size int64) error {
	in, err := os.OpenFile(from, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(in, size)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// The runtime a BotType needs is checked by running it, once per program
// and process ([checkRuntime]): a command on PATH can be a shim that runs
// nothing (pyenv's python2 without Python 2 enabled) or another version.
var runtimeChecks struct {
	sync.Mutex
	m map[string]*runtimeCheck
}

type runtimeCheck struct {
	done chan struct{} // closed when out and err are set
	out  string
	err  error
}

// runtimeCheckTimeout bounds one check of a runtime: generous, since it
// runs once per process and a loaded machine starts a JVM slowly.
const runtimeCheckTimeout = time.Minute

// checkRuntime runs prog with args once per process (callers at the same
// time wait for the one run; a run that timed out is tried again by the
// next caller) and returns its stdout, or an error with the first line of
// its stderr. It is safe for concurrent use.
func checkRuntime(prog string, args ...string) (string, error) {
	key := prog + "\x00" + strings.Join(args, "\x00")
	runtimeChecks.Lock()
	c, ok := runtimeChecks.m[key]
	if !ok {
		c = &runtimeCheck{done: make(chan struct{})}
		if runtimeChecks.m == nil {
			runtimeChecks.m = map[string]*runtimeCheck{}
		}
		runtimeChecks.m[key] = c
	}
	runtimeChecks.Unlock()
	if ok {
		<-c.done
		return c.out, c.err
	}
	defer close(c.done)
	ctx, cancel := context.WithTimeout(context.Background(), runtimeCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("no answer within %s", runtimeCheckTimeout)
		runtimeChecks.Lock()
		delete(runtimeChecks.m, key)
		runtimeChecks.Unlock()
	case err != nil:
		if line := firstLine(stderr.Bytes()); line != "" {
			err = fmt.Errorf("%w: %s", err, line)
		}
	}
	c.out, c.err = stdout.String(), err
	return c.out, c.err
}

// firstLine returns the first non-blank line of out, cut to 200 bytes.
func firstLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return clipLine(l, 200)
		}
	}
	return ""
}

// clipLine cuts s to at most n bytes on a rune boundary, marking the cut.
func clipLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// pythonRuntime returns the interpreter of BotType Python2 or Python3
// (major 2 or 3): the one "python2" or "python3" on PATH runs, checked by
// running it (see [checkRuntime]).
func pythonRuntime(major int) (string, error) {
	prog := "python" + strconv.Itoa(major)
	fix := fmt.Sprintf("install Python %d so that %q on PATH runs it", major, prog)
	if major == 2 {
		fix += ` (with pyenv: "pyenv global <3.x> <2.7.x>"), or set "BotType": "Python3" in bot.json if the bot runs on Python 3`
	}
	p, err := exec.LookPath(prog)
	if err != nil {
		return "", fmt.Errorf("needs %s (Python %d), which is not installed here: %s", prog, major, fix)
	}
	out, err := checkRuntime(p, "-c", "import sys; print(sys.version_info[0]); print(sys.executable)")
	if err != nil {
		return "", fmt.Errorf("needs Python %d, and %q (%s) does not run here (%v): %s", major, prog, p, err, fix)
	}
	version, exe, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if version = strings.TrimSpace(version); version != strconv.Itoa(major) {
		return "", fmt.Errorf("needs Python %d, and %q (%s) runs Python %q: %s", major, prog, p, clipLine(version, 20), fix)
	}
	// The interpreter itself, not a wrapper such as a pyenv shim: a shim
	// slows every run.
	if exe = strings.TrimSpace(exe); exe != "" {
		return exe, nil
	}
	return p, nil
}

// runtimeOf returns the path of prog, checked by running it with args
// once (see [checkRuntime]); why names what prog is, for errors.
func runtimeOf(prog, why string, args ...string) (string, error) {
	p, err := exec.LookPath(prog)
	if err != nil {
		return "", fmt.Errorf("needs %s (%s), which is not installed here", prog, why)
	}
	if _, err := checkRuntime(p, args...); err != nil {
		return "", fmt.Errorf("needs %s (%s), and %q (%s) does not run here: %v", prog, why, prog, p, err)
	}
	return p, nil
}

// Bounds of the output quoted in a problem line: the last few non-blank
// lines of stdout and of stderr, each cut short.
const (
	tailLines     = 3
	tailLineBytes = 200
	tailRead      = 8 << 10 // read from the end of the output
)

// outputTail returns the last [tailLines] non-blank lines of the output
// file f (from its last 8 KiB), each cut to [tailLineBytes] bytes.
func outputTail(f *os.File) []string {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return nil
	}
	off := max(st.Size()-tailRead, 0)
	data := make([]byte, st.Size()-off)
	n, _ := f.ReadAt(data, off)
	data = data[:n]
	var lines []string
	for i, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
			if i == 0 && off > 0 {
				l = "..." + l // the end of a longer line
			}
			lines = append(lines, clipLine(l, tailLineBytes))
		}
	}
	return lines[max(len(lines)-tailLines, 0):]
}

// quoteLines renders lines for a problem line: quoted, " / " between.
func quoteLines(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, " / ")
}

// within reports whether path is dir or lies inside it; both are clean
// absolute paths.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}
