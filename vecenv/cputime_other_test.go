//go:build !unix

package vecenv_test

// processCPU returns -1: this system's CPU time is not read.
func processCPU() int64 { return -1 }
