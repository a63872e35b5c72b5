package vecenv

import "testing"

func TestHugePageSpanKeepsWholePagesInsideTheSlice(t *testing.T) {
	const h = hugePageSize
	for _, tc := range []struct {
		name             string
		addr, n          uintptr
		wantStart, wantE uintptr
	}{
		{"empty", 5 * h, 0, 0, 0},
		{"smaller than a page", 5*h + 100, h / 2, 0, 0},
		{"a page's length, unaligned", 5*h + 1, h, 0, 0},
		{"exactly one aligned page", 5 * h, h, 5 * h, 6 * h},
		{"unaligned start, two pages inside", 5*h + 1, 3 * h, 6 * h, 8 * h},
		{"aligned start, ragged end", 5 * h, 2*h + 7, 5 * h, 7 * h},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, end := hugePageSpan(tc.addr, tc.n)
			if start != tc.wantStart || end != tc.wantE {
				t.Fatalf("hugePageSpan(%#x, %#x) = [%#x, %#x), want [%#x, %#x)", tc.addr, tc.n, start, end, tc.wantStart, tc.wantE)
			}
			if start != end && (start < tc.addr || end > tc.addr+tc.n) {
				t.Fatalf("span [%#x, %#x) leaves the slice [%#x, %#x)", start, end, tc.addr, tc.addr+tc.n)
			}
		})
	}
}

func TestAdviseHugePagesChangesNoByte(t *testing.T) {
	for _, n := range []int{0, 1, 4096, 3 * hugePageSize, 5*hugePageSize + 3} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i * 7)
		}
		adviseHugePages(b)
		if n > 1 {
			adviseHugePages(b[1:]) // unaligned
		}
		for i := range b {
			if b[i] != byte(i*7) {
				t.Fatalf("len %d: byte %d changed to %d", n, i, b[i])
			}
		}
	}
}
