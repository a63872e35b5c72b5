package vecenv

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// smapsLine returns the line starting with prefix in the entry of
// /proc/self/smaps for the mapping that holds addr.
func smapsLine(t *testing.T, addr uintptr, prefix string) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')], "-") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, prefix) {
			return line
		}
	}
	t.Fatalf("no mapping holds %#x with a %s line", addr, prefix)
	return ""
}

// vmFlags returns the VmFlags of the mapping that holds addr.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	return smapsLine(t, addr, "VmFlags:")
}

// anonHugeKiB returns the AnonHugePages, in KiB, of the mapping that holds
// addr.
func anonHugeKiB(t *testing.T, addr uintptr) int {
	t.Helper()
	var kib int
	line := smapsLine(t, addr, "AnonHugePages:")
	if _, err := fmt.Sscanf(line, "AnonHugePages: %d kB", &kib); err != nil {
		t.Fatalf("cannot read %q: %v", line, err)
	}
	return kib
}

func TestAdviceMarksTheWholeHugePagesInsideASlice(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	b := make([]byte, 6*hugePageSize)
	adviseHugePages(b)
	start, _ := hugePageSpan(uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if flags := vmFlags(t, start); !strings.Contains(flags, " hg") {
		t.Fatalf("the huge pages inside a 12 MiB slice are not advised: %s", flags)
	}
}

func TestAdviceCollapsesPagesAlreadyFaultedIn(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	// A mapping of its own, so that the advised span is a VMA whose
	// neighbours are this mapping's unadvised 4 KiB pages and its
	// AnonHugePages count nothing else.
	const page = 4096
	region, err := syscall.Mmap(-1, 0, 7*hugePageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(region)
	b := region[page : len(region)-page]
	// Fault every 4 KiB page in before the advice, as the runtime does when
	// it clears a reused span.
	for i := 0; i < len(b); i += page {
		b[i] = byte(i/page) | 1
	}
	base := uintptr(unsafe.Pointer(&b[0]))
	start, end := hugePageSpan(base, uintptr(len(b)))
	if !adviseHugePages(b) {
		switch err := syscall.Madvise(b[start-base:end-base], madvCollapse); err {
		case syscall.EINVAL:
			t.Skip("this kernel has no MADV_COLLAPSE (Linux 6.1)")
		case syscall.EAGAIN, syscall.ENOMEM:
			t.Skipf("the kernel found no free huge page now: %v", err)
		default:
			t.Fatalf("the collapse failed: %v", err)
		}
	}
	if got, want := anonHugeKiB(t, start), int(end-start)>>10; got != want {
		t.Fatalf("%d KiB of the advised span are huge pages, want all %d KiB", got, want)
	}
	for i := 0; i < len(b); i += page {
		if b[i] != byte(i/page)|1 {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}
