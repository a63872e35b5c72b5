//go:build !unix

package agents

import "os/exec"

// treeSys is empty where botarena knows no process groups.
type treeSys struct{}

// start starts the run's process.
func (t *procTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	t.withMarker(cmd)
	return cmd, cmd.Start()
}

// killAll kills the bot's process alone.
func (t *procTree) killAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.proc != nil {
		t.proc.Kill()
	}
}

func (t *procTree) release() {}
