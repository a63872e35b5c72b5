package bomberman

import (
	"slices"
	"testing"
)

// TestDotnetRandomCheckValues checks the System.Random port against the
// values .NET gives (spec §2.2).
func TestDotnetRandomCheckValues(t *testing.T) {
	draws := func(seed int32, n int, next func(r *dotnetRandom) int) []int {
		r := newDotnetRandom(seed)
		out := make([]int, n)
		for i := range out {
			out[i] = next(&r)
		}
		return out
	}
	nextInt := func(r *dotnetRandom) int { return int(r.Next()) }
	tests := []struct {
		name string
		got  []int
		want []int
	}{
		{"seed_0_first_three_draws", draws(0, 3, nextInt), []int{1559595546, 1755192844, 1649316166}},
		{"seed_1_first_three_draws", draws(1, 3, nextInt), []int{534011718, 237820880, 1002897798}},
		{"seed_2_first_three_draws", draws(2, 3, nextInt), []int{1655911537, 867932563, 356479430}},
		{"seed_42_next", draws(42, 1, nextInt), []int{1434747710}},
		{"seed_1_next_0_100", draws(1, 5, func(r *dotnetRandom) int { return r.NextRange(0, 100) }), []int{24, 11, 46, 77, 65}},
		{"negative_seed_uses_its_absolute_value", draws(-42, 1, nextInt), []int{1434747710}},
		{"min_int32_seed_is_max_int32", draws(-2147483648, 2, nextInt), draws(2147483647, 2, nextInt)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	t.Run("next_n_stays_in_range", func(t *testing.T) {
		r := newDotnetRandom(7)
		for range 10000 {
			if v := r.NextN(3); v < 0 || v >= 3 {
				t.Fatalf("NextN(3) = %d", v)
			}
			if v := r.NextRange(1, 4); v < 1 || v >= 4 {
				t.Fatalf("NextRange(1,4) = %d", v)
			}
		}
	})
}

// TestDrawLimit checks that comparing raw draws with drawLimit gives the
// same answer as NextRange at the limit, around it and on many draws.
func TestDrawLimit(t *testing.T) {
	for _, tc := range [][2]int{{wallFrequency, 100}, {1, 100}, {99, 100}, {1, 3}, {2, 3}} {
		k, n := tc[0], tc[1]
		limit := drawLimit(k, n)
		below := func(v int32) bool { return int(float64(v)*(1.0/netMBIG)*float64(n)) < k }
		for _, v := range []int32{0, limit - 2, limit - 1, limit, limit + 1, netMBIG - 1} {
			if v >= 0 && below(v) != (v < limit) {
				t.Errorf("NextRange(0, %d) < %d at raw draw %d: %v, limit %d says %v", n, k, v, below(v), limit, v < limit)
			}
		}
		r := newDotnetRandom(int32(k*n + 1))
		for range 100000 {
			c := r
			if got, want := r.internalSample() < limit, c.NextRange(0, n) < k; got != want {
				t.Fatalf("NextRange(0, %d) < %d: %v, raw draw below %d: %v", n, k, want, limit, got)
			}
		}
	}
}

// TestFillEqualsDraws checks fill against one internalSample per value,
// across the wrap-arounds of the seed array, from fresh and used
// generators and in runs of every length.
func TestFillEqualsDraws(t *testing.T) {
	for seed := range int32(20) {
		a, b := newDotnetRandom(seed*7919), newDotnetRandom(seed*7919)
		buf := make([]int32, 200)
		for n := range 130 {
			run := buf[:n%61]
			a.fill(run)
			for k, v := range run {
				if w := b.internalSample(); v != w {
					t.Fatalf("seed %d run %d value %d: fill %d, internalSample %d", seed, n, k, v, w)
				}
			}
			if a != b {
				t.Fatalf("seed %d run %d: generator states differ after fill", seed, n)
			}
		}
	}
}

// TestInitialMJSubtractsTheSeedsAbsoluteValue: .NET's seeding starts from
// MSEED - |seed|, with |MinValue| taken as MBIG (Math.Abs would overflow).
func TestInitialMJSubtractsTheSeedsAbsoluteValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed int32
		want int32
	}{
		{"zero", 0, netMSEED},
		{"positive", 42, netMSEED - 42},
		{"negative", -42, netMSEED - 42},
		{"max_value", netMBIG, netMSEED - netMBIG},
		{"min_value_as_mbig", -2147483648, netMSEED - netMBIG},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := initialMJ(tc.seed); got != tc.want {
				t.Errorf("initialMJ(%d) = %d, want %d", tc.seed, got, tc.want)
			}
		})
	}
}

// TestSeedMatchesDotnet checks the seeding (its first loop unrolled, the
// passes two at a time) against .NET's algorithm as written, from the same
// first value (initialMJ), on the edge seeds and many others: the whole
// seed array must agree.
func TestSeedMatchesDotnet(t *testing.T) {
	reference := func(seed int32) [56]int32 {
		var a [56]int32
		mj := initialMJ(seed)
		a[55] = mj
		mk := int32(1)
		for i := 1; i < 55; i++ {
			ii := (21 * i) % 55
			a[ii] = mk
			mk = mj - mk
			if mk < 0 {
				mk += netMBIG
			}
			mj = a[ii]
		}
		for k := 1; k < 5; k++ {
			for i := 1; i < 56; i++ {
				a[i] -= a[1+(i+30)%55]
				if a[i] < 0 {
					a[i] += netMBIG
				}
			}
		}
		return a
	}
	seeds := []int32{0, 1, -1, 2, 42, -42, netMSEED - 1, netMSEED, netMSEED + 1, -netMSEED, netMBIG, -netMBIG, -2147483648}
	r := newDotnetRandom(12345)
	for range 20000 {
		seeds = append(seeds, r.Next(), -r.Next())
	}
	for _, seed := range seeds {
		if got, want := newDotnetRandom(seed).seedArray, reference(seed); got != want {
			t.Fatalf("seed %d: seed array %v, .NET's %v", seed, got, want)
		}
	}
}
