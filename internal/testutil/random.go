package testutil

import "math/rand/v2"

// RandomLegal returns an action drawn uniformly by rng from those mask
// allows (mask[a] != 0): the k-th allowed action in order, k =
// rng.IntN(number allowed). It panics when mask allows none. It does not
// allocate.
func RandomLegal(rng *rand.Rand, mask []uint8) int32 {
	n := 0
	for _, m := range mask {
		if m != 0 {
			n++
		}
	}
	k := rng.IntN(n)
	for a, m := range mask {
		if m == 0 {
			continue
		}
		if k == 0 {
			return int32(a)
		}
		k--
	}
	panic("unreachable")
}
