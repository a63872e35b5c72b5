package vecenv

import "testing"

// TestMaxActionIsTheLargestAsUnsigned: maxAction returns the largest action
// as a uint32 (negative actions larger than any in range) wherever it lies,
// in the blocks of four and in the tail, and 0 for none.
func TestMaxActionIsTheLargestAsUnsigned(t *testing.T) {
	for _, tc := range []struct {
		name string
		big  int32
		want uint32
	}{
		{"in_range", 7, 7},
		{"negative", -1, 1<<32 - 1},
		{"min_int32", -1 << 31, 1 << 31},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for n := range 10 {
				for at := range n {
					acts := make([]int32, n)
					for k := range acts {
						acts[k] = int32(k % 3)
					}
					acts[at] = tc.big
					if got := maxAction(acts); got != tc.want {
						t.Errorf("%d actions, %d at %d: got %d, want %d", n, tc.big, at, got, tc.want)
					}
				}
			}
		})
	}
	if got := maxAction(nil); got != 0 {
		t.Errorf("no actions: got %d, want 0", got)
	}
}
