//go:build unix && !linux

package agents

import (
	"os/exec"
	"syscall"
)

// treeSys is empty where only process groups are available.
type treeSys struct{}

// start starts the run in a process group of its own.
func (t *procTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	t.withMarker(cmd)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, cmd.Start()
}

// killAll kills the run's process group with SIGKILL.
func (t *procTree) killAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid > 0 {
		syscall.Kill(-t.pid, syscall.SIGKILL)
	}
}

func (t *procTree) release() {}
