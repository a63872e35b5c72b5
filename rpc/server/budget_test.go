package server_test

import (
	"testing"

	"github.com/botarena/botarena/rpc/server"
)

func TestByteSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int64
		out  string
	}{
		{"8GiB", 8 << 30, "8GiB"},
		{"512MiB", 512 << 20, "512MiB"},
		{"1.5GiB", 3 << 29, "1.5GiB"},
		{"1.5 G", 3 << 29, "1.5GiB"},
		{"2048", 2048, "2KiB"},
		{"1000", 1000, "1000"},
		{"2GB", 2e9, "1953125KiB"},
		{"0", 0, "0"},
	} {
		var b server.ByteSize
		if err := b.Set(tc.in); err != nil {
			t.Errorf("Set(%q): %v", tc.in, err)
			continue
		}
		if int64(b) != tc.want || b.String() != tc.out {
			t.Errorf("Set(%q) = %d (%s), want %d (%s)", tc.in, int64(b), b, tc.want, tc.out)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "8 parsecs", "1e400"} {
		var b server.ByteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("Set(%q) = %d, want an error", bad, int64(b))
		}
	}
	if d := server.DefaultMaxMemory(); d < 64<<20 {
		t.Errorf("DefaultMaxMemory() = %d, want a share of the machine's memory", d)
	}
}
