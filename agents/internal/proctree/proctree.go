// Package proctree runs one run of an external bot's command as a tree of
// processes that can all be killed ([Start], [Tree]): the command-line bots
// (agents/cmdbot) and the Entelect bot folders (agents/entelect) start
// their processes through it, so that nothing a bot starts outlives its
// run.
package proctree

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
)

// RunEnv names the environment variable that every process of one run of
// an external bot inherits (cmd: bots, Entelect bot folders): its value,
// "PID.N", identifies the run, so that botarena can find the run's
// processes after they have left its process tree and process group
// (setsid, a double fork), on Linux without a usable cgroup.
const RunEnv = "BOTARENA_BOT_RUN"

var runSeq atomic.Uint64

// Tree is every process of one run of a bot's command: the process
// botarena starts and every process that one starts, in turn, whether it
// stays in the run's process group or leaves it (setsid, setpgid, a
// double-forked daemon). Finish kills them all:
//
//   - Linux with a writable cgroup v2 hierarchy (and cgroup.kill, Linux
//     5.14): the run starts in a cgroup of its own, a child of botarena's
//     cgroup; killing writes cgroup.kill, which no process of the run can
//     escape by forking, and the cgroup is removed once empty.
//   - Other Linux: the run's process group is killed, then /proc is walked
//     for the run's processes: the bot's descendants by parent, members of
//     its process group, and every process whose environment carries the
//     run's [RunEnv] value (those reparented to init or a subreaper after
//     their parent died), with their descendants, until a walk finds no
//     new one. Killed processes whose parent is botarena (botarena as PID
//     1 in a container) are reaped. A process that cleared its
//     environment and also left the process tree and group is not found.
//   - Other Unix systems: the run's process group is killed (SIGKILL).
//   - Elsewhere: the bot's process alone.
//
// Everything the run started is killed when Finish is called, after the
// bot's process exited as well as when it ran too long. A Tree is safe
// for concurrent use (a timer may kill while the owner waits).
type Tree struct {
	marker string // RunEnv=VALUE
	mu     sync.Mutex
	proc   *os.Process
	pid    int
	sys    treeSys // per-OS state
}

// Start starts the command newCmd returns as one run of a bot, with
// [RunEnv] added to its environment and in a cgroup or process group of
// its own (see [Tree]); newCmd may be called twice, when starting in a
// cgroup fails and the run is started without one. The caller waits for
// the command (cmd.Wait) and then calls Finish.
func Start(newCmd func() *exec.Cmd) (*exec.Cmd, *Tree, error) {
	t := &Tree{marker: fmt.Sprintf("%s=%d.%d", RunEnv, os.Getpid(), runSeq.Add(1))}
	cmd, err := t.start(newCmd)
	if err != nil {
		return cmd, nil, err
	}
	t.proc, t.pid = cmd.Process, cmd.Process.Pid
	return cmd, t, nil
}

// withMarker adds the run's RunEnv value to cmd's environment.
func (t *Tree) withMarker(cmd *exec.Cmd) {
	cmd.Env = append(cmd.Environ(), t.marker)
}

// Finish kills what is left of the run and releases what the run held (its
// cgroup). Call it after cmd.Wait returned.
func (t *Tree) Finish() {
	t.Kill()
	t.release()
}
