//go:build linux

package proctree

// Exported for the external tests (linux_test.go).

// CgroupBase is cgroupBase.
var CgroupBase = cgroupBase

// CgroupsOff is cgroupsOff.
var CgroupsOff = &cgroupsOff

// LiveProcs returns the pids of the processes that are not zombies.
func LiveProcs() []int {
	var pids []int
	for _, p := range listProcs() {
		if !p.dead() {
			pids = append(pids, p.pid)
		}
	}
	return pids
}
