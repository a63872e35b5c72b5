package vecenv

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the whole huge pages inside b with
// transparent huge pages (madvise MADV_HUGEPAGE), which the kernel's
// default THP mode ("madvise") grants only to memory that asks. A large
// pool's rows span tens or hundreds of MiB, written a few bytes here and
// there each step, and with 4 KiB pages nearly every row costs a TLB miss.
// Measured quietly (bench/2026-11-29-hugepages.txt), portal Bomberman's
// pools of 4,096 and 16,384 envs ran 1.14x and 1.23x faster with it, the
// other games within the noise (BattleBots 1.39x in one run, 0.86x in
// the next); the rows do get huge pages (AnonHugePages). It is a hint:
// it changes no byte, an error (a kernel without THP) is ignored, and b's
// memory stays the Go runtime's. It is called once per buffer when a pool
// is made, never on the hot path.
func adviseHugePages(b []byte) {
	if len(b) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start, end := hugePageSpan(base, uintptr(len(b)))
	if start == end {
		return
	}
	_ = syscall.Madvise(b[start-base:end-base], syscall.MADV_HUGEPAGE)
}
