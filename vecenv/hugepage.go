package vecenv

// hugePageSize is the size of a transparent huge page on Linux's amd64 and
// arm64 kernels with 4 KiB base pages.
const hugePageSize = 2 << 20

// hugePageSpan returns the whole huge pages inside the n bytes from addr:
// [start, end) with both multiples of [hugePageSize]; start == end when
// there is none. A pool's rows advised this way never take memory outside
// their own slice.
func hugePageSpan(addr, n uintptr) (start, end uintptr) {
	start = (addr + hugePageSize - 1) &^ (hugePageSize - 1)
	end = (addr + n) &^ (hugePageSize - 1)
	if end <= start {
		return 0, 0
	}
	return start, end
}
