package bytesize

import "testing"

func TestFormatPicksTheLargestUnitReached(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1 << 10, "1.0 KiB"},
		{256 << 10, "256.0 KiB"},
		{1<<20 - 1, "1024.0 KiB"},
		{312 << 20, "312.0 MiB"},
		{1<<30 + 700<<20, "1.7 GiB"},
		{4 << 40, "4096.0 GiB"},
	} {
		if got := Format(tc.n); got != tc.want {
			t.Errorf("Format(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
