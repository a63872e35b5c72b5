package testutil

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestActionTableIsBenchStepsTable: the table has a power-of-two length, as
// BenchStep requires, and every call with the same draw gives the same
// actions, in draw order from one PCG seeded (7, 7).
func TestActionTableIsBenchStepsTable(t *testing.T) {
	draw := func(r *rand.Rand) int32 { return r.Int32N(1000) }
	a, b := ActionTable(draw), ActionTable(draw)
	if n := len(a); n == 0 || n&(n-1) != 0 {
		t.Fatalf("length %d, want a power of two", n)
	}
	if !slices.Equal(a, b) {
		t.Error("two calls with the same draw gave different tables")
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i, v := range a {
		if w := draw(r); v != w {
			t.Fatalf("action %d: %d, want %d (the PCG's draws in order)", i, v, w)
		}
	}
}
