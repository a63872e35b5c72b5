//go:build unix

package agents

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the bot in its own process group, so that a kill
// reaches everything it started.
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the bot's process group (SIGKILL).
func killProcessGroup(c *exec.Cmd) {
	if c.Process != nil && c.Process.Pid > 0 {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}
