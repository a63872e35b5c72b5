//go:build !unix

package proctree

import "os/exec"

// treeSys is empty where botarena knows no process groups.
type treeSys struct{}

// start starts the run's process.
func (t *Tree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	t.withMarker(cmd)
	return cmd, cmd.Start()
}

// Kill kills the bot's process alone.
func (t *Tree) Kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.proc != nil {
		t.proc.Kill()
	}
}

func (t *Tree) release() {}
