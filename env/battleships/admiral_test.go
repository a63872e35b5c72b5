package battleships

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// admiralFleet plays phase 1 of a learn game on size with an admiral in
// seat 0 (seeded seed) and a hunter in seat 1 and returns both fleets and
// the game.
func admiralFleet(t testing.TB, size string, seed uint64) (adm, hun [NumShips]Ship, g *Game) {
	t.Helper()
	fleets, g := placeFleets(t, size, &Admiral{}, &Hunter{}, seed, seed+1000)
	return fleets[0], fleets[1], g
}

// TestAdmiralPlacementIsLegal: on every size the admiral's fleet is placed
// in the first phase-1 round, without a failure, and is legal.
func TestAdmiralPlacementIsLegal(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			for seed := range uint64(10) {
				adm, _, g := admiralFleet(t, size, seed)
				if p := g.Player(0); p.Failed != 0 || !ValidFleet(&adm, g.Size()) {
					t.Fatalf("seed %d: %d failed placements, fleet %+v legal %v", seed, p.Failed, adm, ValidFleet(&adm, g.Size()))
				}
			}
		})
	}
}

// TestAdmiralPlacementVaries: the admiral places a distribution of fleets,
// not one: 20 seeds give at least 18 distinct fleets on every size.
func TestAdmiralPlacementVaries(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			seen := map[[NumShips]Ship]bool{}
			for seed := range uint64(20) {
				adm, _, _ := admiralFleet(t, size, seed)
				seen[adm] = true
			}
			if len(seen) < 18 {
				t.Errorf("%d distinct fleets in 20 games, want at least 18", len(seen))
			}
		})
	}
}

// TestAdmiralPlacementIsHarderForHunter: hunter's targeting needs more
// shots on average to sink the admiral's fleets than hunter's own, by at
// least a 25th of the map's cells, measured by [ShotsToSink] with a
// generator apart from the admiral's, over 20 fleets each, on every size.
func TestAdmiralPlacementIsHarderForHunter(t *testing.T) {
	for _, size := range sizes {
		t.Run(size, func(t *testing.T) {
			r := rand.New(rand.NewPCG(99, 7))
			var sa, sh float64
			const games = 20
			n := 0
			for seed := range uint64(games) {
				adm, hun, g := admiralFleet(t, size, seed)
				n = g.Size()
				for range 3 {
					sa += float64(ShotsToSink(r, n, &adm))
					sh += float64(ShotsToSink(r, n, &hun))
				}
			}
			sa, sh = sa/(3*games), sh/(3*games)
			t.Logf("shots to sink: admiral's fleets %.1f, hunter's %.1f (of %d cells)", sa, sh, n*n)
			if sa < sh+float64(n*n)/25 {
				t.Errorf("admiral's fleets took %.1f shots, hunter's %.1f: want at least %.1f more", sa, sh, float64(n*n)/25)
			}
		})
	}
}

// TestShotsToSinkIsBounded: the simulated targeting sinks every legal
// fleet in at least 17 shots (the fleet's cells) and at most N² shots.
func TestShotsToSinkIsBounded(t *testing.T) {
	for _, n := range []int{7, 10, 14} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		for range 20 {
			for _, f := range [][NumShips]Ship{RandomFleet(r, n), HunterFleet(r, n), BroadFleet(r, n)} {
				if s := ShotsToSink(r, n, &f); s < 17 || s > n*n {
					t.Errorf("n=%d: %d shots for %+v, want 17..%d", n, s, f, n*n)
				}
			}
		}
	}
}

// TestBroadFleetIsLegal: every fleet BroadFleet draws is legal.
func TestBroadFleetIsLegal(t *testing.T) {
	for _, n := range []int{7, 10, 14} {
		r := rand.New(rand.NewPCG(uint64(n), 2))
		for range 200 {
			if f := BroadFleet(r, n); !ValidFleet(&f, n) {
				t.Fatalf("n=%d: illegal fleet %+v", n, f)
			}
		}
	}
}

// TestAdmiralShootsAsHunter: in phase 2 the admiral's command is hunter's,
// given the same seed and the same game.
func TestAdmiralShootsAsHunter(t *testing.T) {
	for _, size := range sizes {
		g, _ := New(&Config{Size: size})
		g.Reset(5)
		a, h, r := &Admiral{}, &Hunter{}, &Reference{}
		a.Reset(g, 0, 11)
		h.Reset(g, 0, 11)
		r.Reset(g, 1, 12)
		acts, rew := make([]int32, 2), make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		for !g.Done() {
			x, y := a.Act(g, 0), h.Act(g, 0)
			if x != y {
				t.Fatalf("%s round %d: admiral %d, hunter %d", size, g.Round(), x, y)
			}
			acts[0], acts[1] = x, r.Act(g, 1)
			g.Step(acts, rew, term, trunc)
		}
	}
}

// TestAdmiralActAllocations checks that Act, placement search included,
// does not allocate.
func TestAdmiralActAllocations(t *testing.T) {
	g, _ := New(&Config{Size: SizeLarge, Placement: PlacementLearn})
	a, h := &Admiral{}, &Hunter{}
	seed := uint64(1)
	reset := func() {
		g.Reset(seed)
		a.Reset(g, 0, seed)
		h.Reset(g, 1, seed+1)
		seed++
	}
	reset()
	allocs := testutil.ActAllocs(g, []env.Agent{a, h}, 200, reset)
	if allocs != 0 {
		t.Errorf("Act allocates %v times per round, want 0", allocs)
	}
}

// BenchmarkAdmiralSearch measures one placement search per size.
func BenchmarkAdmiralSearch(b *testing.B) {
	for _, n := range []int{7, 10, 14} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			a := &Admiral{}
			r := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				a.search(r, n)
			}
		})
	}
}

var _ env.Agent = (*Admiral)(nil)
