//go:build linux

package proctree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// treeSys is the Linux state of a run: its cgroup, if it has one.
type treeSys struct {
	cg string // the run's cgroup folder; "" for none
	fd int    // an open descriptor of cg, for clone3's CLONE_INTO_CGROUP
}

var (
	// cgroupsOff turns the cgroup way off: set when it turned out not to
	// work here, and by tests of the /proc walk.
	cgroupsOff  atomic.Bool
	cgroupSeq   atomic.Uint64
	cgroupOnce  sync.Once
	cgroupBaseP string // botarena's own cgroup folder, if writable
)

// cgroupBase returns the folder of botarena's own cgroup in a cgroup v2
// hierarchy, where runs get cgroups of their own, or "" where there is
// none that botarena may write.
func cgroupBase() string {
	if cgroupsOff.Load() {
		return ""
	}
	cgroupOnce.Do(func() { cgroupBaseP = findCgroupBase() })
	return cgroupBaseP
}

// findCgroupBase finds botarena's cgroup v2 folder (the "0::" line of
// /proc/self/cgroup under the cgroup2 mount of /proc/self/mountinfo) and
// checks that botarena may move processes out of it (write its
// cgroup.procs), as CLONE_INTO_CGROUP into a child requires.
func findCgroupBase() string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	var own string
	for line := range strings.Lines(string(data)) {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "0::"); ok {
			own = p
		}
	}
	if own == "" || strings.HasSuffix(own, " (deleted)") {
		return ""
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		fields := strings.Fields(pre)
		if len(fields) < 5 {
			continue
		}
		root, mnt := unescapeMount(fields[3]), unescapeMount(fields[4])
		rel, ok := strings.CutPrefix(own, root)
		if !ok || (rel != "" && root != "/" && !strings.HasPrefix(rel, "/")) {
			continue
		}
		dir := filepath.Join(mnt, rel)
		const wOK = 2 // access(2)'s W_OK
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || syscall.Access(filepath.Join(dir, "cgroup.procs"), wOK) != nil {
			continue
		}
		return dir
	}
	return ""
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// openCgroup makes the run's cgroup, a child of botarena's, with
// cgroup.kill (Linux 5.14). It reports false where there is none to make;
// a failure other than a name clash turns cgroups off for good.
func (s *treeSys) openCgroup() bool {
	base := cgroupBase()
	if base == "" {
		return false
	}
	dir := filepath.Join(base, fmt.Sprintf("botarena-bot-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		if !errors.Is(err, os.ErrExist) {
			cgroupsOff.Store(true)
		}
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		os.Remove(dir)
		cgroupsOff.Store(true)
		return false
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(dir)
		cgroupsOff.Store(true)
		return false
	}
	s.cg, s.fd = dir, fd
	return true
}

// closeCgroup closes the run's cgroup and removes it (it must be empty).
func (s *treeSys) closeCgroup() {
	if s.cg == "" {
		return
	}
	syscall.Close(s.fd)
	for range 100 {
		if err := syscall.Rmdir(s.cg); err == nil || !errors.Is(err, syscall.EBUSY) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.cg = ""
}

// start starts the run in a process group of its own and, where cgroups
// work, in a cgroup of its own. If starting in the cgroup fails and
// starting without one works, cgroups are turned off for good.
func (t *Tree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	t.withMarker(cmd)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if !t.sys.openCgroup() {
		return cmd, cmd.Start()
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, t.sys.fd
	err := cmd.Start()
	if err == nil {
		return cmd, nil
	}
	t.sys.closeCgroup()
	retry := newCmd()
	t.withMarker(retry)
	retry.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := retry.Start(); err != nil {
		return retry, err // the command itself cannot start
	}
	cgroupsOff.Store(true)
	return retry, nil
}

// Kill kills every process of the run (see [Tree]).
func (t *Tree) Kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid <= 0 {
		return
	}
	syscall.Kill(-t.pid, syscall.SIGKILL)
	if t.sys.cg != "" {
		if err := os.WriteFile(filepath.Join(t.sys.cg, "cgroup.kill"), []byte("1"), 0); err == nil {
			return
		}
	}
	t.walkKill()
}

// release waits (up to 2 s) for the run's cgroup to empty and removes it.
func (t *Tree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sys.cg == "" {
		return
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		ev, err := os.ReadFile(filepath.Join(t.sys.cg, "cgroup.events"))
		if err != nil || bytes.Contains(ev, []byte("populated 0")) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	t.sys.closeCgroup()
}

// procStat is what botarena reads of a process from /proc/PID/stat.
type procStat struct {
	pid, ppid, pgid int
	state           byte   // R, S, D, Z...
	start           uint64 // start time in clock ticks since boot: with pid, the process's identity
}

func (p procStat) dead() bool { return p.state == 'Z' || p.state == 'X' || p.state == 'x' }

// readStat reads /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return procStat{}, false
	}
	f := strings.Fields(string(data[i+2:]))
	if len(f) < 20 || f[0] == "" {
		return procStat{}, false
	}
	p := procStat{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, true
}

// listProcs reads the stat of every process.
func listProcs() []procStat {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	out := make([]procStat, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		if p, ok := readStat(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// hasMarker reports whether the environment pid started with holds the
// run's RunEnv value. Processes of other users cannot be read, and are not
// the run's.
func (t *Tree) hasMarker(pid int, buf *bytes.Buffer) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	defer f.Close()
	buf.Reset()
	buf.WriteByte(0)
	if _, err := io.Copy(buf, f); err != nil {
		return false
	}
	buf.WriteByte(0)
	return bytes.Contains(buf.Bytes(), []byte("\x00"+t.marker+"\x00"))
}

// members returns the live processes of the run among procs: the bot's
// process, its process group, the processes carrying the run's marker, and
// all their descendants; never botarena itself.
func (t *Tree) members(procs []procStat, self int, buf *bytes.Buffer) []procStat {
	children := map[int][]int{}
	byPid := make(map[int]procStat, len(procs))
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p.pid)
		byPid[p.pid] = p
	}
	in := map[int]bool{self: true}
	var out []procStat
	var add func(pid int)
	add = func(pid int) {
		if in[pid] {
			return
		}
		in[pid] = true
		if p, ok := byPid[pid]; ok && !p.dead() {
			out = append(out, p)
		}
		for _, c := range children[pid] {
			add(c)
		}
	}
	for _, p := range procs {
		if p.pid == t.pid || p.pgid == t.pid {
			add(p.pid)
		}
	}
	for _, p := range procs {
		if !in[p.pid] && !p.dead() && t.hasMarker(p.pid, buf) {
			add(p.pid)
		}
	}
	return out
}

// maxWalks bounds the /proc walks of one kill: each kills what the last
// one's processes forked before they died.
const maxWalks = 100

// walkKill kills the run's processes found by walking /proc, again until a
// walk finds none it has not killed, then reaps those of them whose
// parent is botarena.
func (t *Tree) walkKill() {
	self := os.Getpid()
	killed := map[int]uint64{}
	var recs []procStat
	var buf bytes.Buffer
	for range maxWalks {
		n := 0
		for _, p := range t.members(listProcs(), self, &buf) {
			if s, ok := killed[p.pid]; ok && s == p.start {
				continue
			}
			syscall.Kill(p.pid, syscall.SIGKILL)
			killed[p.pid] = p.start
			if p.pid != t.pid { // the bot's own process is cmd.Wait's to reap
				recs = append(recs, p)
			}
			n++
		}
		if n == 0 {
			break
		}
	}
	reapKilled(recs, killed, self)
}

// reapKilled waits (up to 500 ms) for the killed processes to die, and
// reaps those that are botarena's children: orphans reparented to it, as
// when it runs as PID 1 in a container. A zombie whose parent is another
// killed process is waited for, since it may be reparented to botarena
// next.
func reapKilled(recs []procStat, killed map[int]uint64, self int) {
	deadline := time.Now().Add(500 * time.Millisecond)
	for len(recs) > 0 {
		left := recs[:0]
		for _, r := range recs {
			p, ok := readStat(r.pid)
			switch {
			case !ok || p.start != r.start: // gone
			case p.dead() && p.ppid == self:
				var ws syscall.WaitStatus
				syscall.Wait4(r.pid, &ws, syscall.WNOHANG, nil)
			case p.dead():
				if _, dying := killed[p.ppid]; dying {
					left = append(left, r)
				}
			default:
				left = append(left, r)
			}
		}
		recs = left
		if len(recs) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
