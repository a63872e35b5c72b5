//go:build !unix

package agents

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups are not available.
func ownGroup(*exec.Cmd) {}

// killGroup kills p alone where process groups are not available.
func killGroup(p *os.Process) error { return p.Kill() }
