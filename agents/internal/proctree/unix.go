//go:build unix && !linux

package proctree

import (
	"os/exec"
	"syscall"
)

// treeSys is empty where only process groups are available.
type treeSys struct{}

// start starts the run in a process group of its own.
func (t *Tree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	t.withMarker(cmd)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, cmd.Start()
}

// Kill kills the run's process group with SIGKILL.
func (t *Tree) Kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid > 0 {
		syscall.Kill(-t.pid, syscall.SIGKILL)
	}
}

func (t *Tree) release() {}
