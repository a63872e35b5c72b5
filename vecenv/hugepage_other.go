//go:build !linux

package vecenv

// adviseHugePages does nothing outside Linux (see hugepage_linux.go).
func adviseHugePages([]byte) {}
