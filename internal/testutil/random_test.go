package testutil

import (
	"math/rand/v2"
	"testing"
)

func TestRandomLegalDrawsOnlyAllowedActionsUniformly(t *testing.T) {
	mask := []uint8{0, 1, 0, 0, 1, 1, 0}
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[int32]int{}
	for range 3000 {
		counts[RandomLegal(rng, mask)]++
	}
	for a, m := range mask {
		c := counts[int32(a)]
		if m == 0 && c != 0 {
			t.Errorf("action %d, masked out, drawn %d times", a, c)
		}
		if m != 0 && (c < 800 || c > 1200) {
			t.Errorf("action %d drawn %d times in 3000, want about 1000", a, c)
		}
	}
	// The same draw as indexing the list of allowed actions.
	a, b := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	legal := []int32{1, 4, 5}
	for range 100 {
		if got, want := RandomLegal(a, mask), legal[b.IntN(len(legal))]; got != want {
			t.Fatalf("RandomLegal = %d, want %d", got, want)
		}
	}
}

func TestRandomLegalPanicsOnAnEmptyMask(t *testing.T) {
	WantPanic(t, "RandomLegal with an empty mask", "", func() { RandomLegal(rand.New(rand.NewPCG(1, 1)), []uint8{0, 0}) })
}

// TestRandomActiveSkipsActionZeroUnlessAlone: the draw is the index into
// the allowed actions but 0, or 0 (one draw spent) when only 0 is allowed.
func TestRandomActiveSkipsActionZeroUnlessAlone(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mask   []uint8
		active []int32
	}{
		{"some_active", []uint8{1, 1, 0, 1}, []int32{1, 3}},
		{"only_zero", []uint8{1, 0, 0}, []int32{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
			for range 100 {
				if got, want := RandomActive(a, tc.mask), tc.active[b.IntN(len(tc.active))]; got != want {
					t.Fatalf("RandomActive = %d, want %d", got, want)
				}
			}
		})
	}
}
