//go:build !linux

package vecenv

// adviseHugePages does nothing outside Linux and reports false (see
// hugepage_linux.go).
func adviseHugePages([]byte) bool { return false }
