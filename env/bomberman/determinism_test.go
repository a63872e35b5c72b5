package bomberman

import (
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"testing"
)

// play runs a game of players seats from seed for rounds steps with actions
// drawn from a PCG seeded with actionSeed (mostly legal, by the mask),
// resetting with seed+1, seed+2, ... when a game ends.
func play(t testing.TB, players int, seed, actionSeed uint64, rounds int) *Game {
	t.Helper()
	return playConfig(t, &Config{Players: players}, seed, actionSeed, rounds)
}

// playConfig is play with a game of cfg.
func playConfig(t testing.TB, cfg *Config, seed, actionSeed uint64, rounds int) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	players := cfg.Players
	g.Reset(seed)
	rng := rand.New(rand.NewPCG(actionSeed, 0))
	acts := make([]int32, players)
	rewards := make([]float32, players)
	term, trunc := make([]bool, players), make([]bool, players)
	mask := make([]uint8, NumActions)
	for range rounds {
		for s := range players {
			g.WriteMask(s, mask)
			a := rng.IntN(NumActions + 1)
			if a < NumActions && mask[a] == 0 && rng.IntN(4) != 0 {
				a = 0
			}
			acts[s] = int32(a) // NumActions itself: an out-of-range action
		}
		g.Step(acts, rewards, term, trunc)
		if g.Done() {
			seed++
			g.Reset(seed)
		}
	}
	return g
}

// stateHash hashes the cells, players and bombs of g.
func stateHash(g *Game) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v int) {
		for i := range buf {
			buf[i] = byte(uint64(v) >> (8 * i))
		}
		h.Write(buf[:])
	}
	for i := range g.width * g.height {
		c := g.cells[i]
		put(int(c.Entity)<<24 | int(c.Player)<<16 | int(c.PowerUp)<<8 | int(c.bomb))
		put(int(c.reached))
		put(int(c.touched))
	}
	for s := range g.nPlayers {
		p := g.players[s]
		for _, v := range []int{p.Counter, p.Coverage, p.KilledRound, p.BombBag, p.BombRadius, p.X, p.Y, p.Touched, p.Idle} {
			put(v)
		}
	}
	for _, b := range g.bombs {
		if b.live {
			put(b.Owner<<24 | b.X<<16 | b.Y<<8 | b.Radius)
			put(b.Timer)
		}
	}
	put(g.round)
	return h.Sum64()
}

func TestDeterminism(t *testing.T) {
	for _, players := range []int{2, 4, 7} {
		a := play(t, players, 11, 5, 600)
		b := play(t, players, 11, 5, 600)
		if !reflect.DeepEqual(*a, *b) || stateHash(a) != stateHash(b) {
			t.Errorf("%d players: same seed and actions gave different games", players)
		}
		if !reflect.DeepEqual(a.Result(), b.Result()) {
			t.Errorf("%d players: different results", players)
		}
		c := play(t, players, 12, 5, 600)
		if stateHash(a) == stateHash(c) {
			t.Errorf("%d players: different seeds gave the same game", players)
		}
	}
}

// TestStepDoesNotAllocate checks that Step, WriteObs, UpdateObs and
// WriteMask for every seat never allocate, with or without the touched
// planes and opponent scalars, over the whole map and in the view_radius
// window.
func TestStepDoesNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"plain", Config{Players: 4}},
		{"touched_planes_and_opponent_scalars", Config{Players: 4, TouchedPlanes: true, OpponentScalars: true}},
		{"view", Config{Players: 4, ViewRadius: 10}},
		{"view_touched_planes_and_opponent_scalars", Config{Players: 4, ViewRadius: 10, TouchedPlanes: true, OpponentScalars: true}},
	} {
		t.Run(tc.name, func(t *testing.T) { testStepDoesNotAllocate(t, &tc.cfg) })
	}
}

// testStepDoesNotAllocate is TestStepDoesNotAllocate for cfg (4 players):
// WriteObs into one set of rows, UpdateObs into another.
func testStepDoesNotAllocate(t *testing.T, cfg *Config) {
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(3)
	spec := g.Spec()
	obs, rows := make([][][]byte, 4), make([][][]byte, 4)
	have := make([]uint64, 4)
	for s := range obs {
		obs[s], rows[s] = spec.NewObsBuffers(), spec.NewObsBuffers()
	}
	mask := make([]uint8, NumActions)
	rng := rand.New(rand.NewPCG(1, 2))
	table := make([]int32, 4096)
	for i := range table {
		table[i] = int32(rng.IntN(NumActions))
	}
	acts := make([]int32, 4)
	rewards := make([]float32, 4)
	term, trunc := make([]bool, 4), make([]bool, 4)
	k := 0
	// Reset is on the hot path too: pools reset finished envs inside their
	// step (autoreset).
	seed := uint64(0)
	for batch := range 40 {
		allocs := testing.AllocsPerRun(50, func() {
			for s := range acts {
				acts[s] = table[k%len(table)]
				k++
			}
			g.Step(acts, rewards, term, trunc)
			for s := range 4 {
				g.WriteObs(s, obs[s])
				have[s] = g.UpdateObs(s, rows[s], have[s])
				g.WriteMask(s, mask)
			}
			if g.Done() {
				seed++
				g.Reset(seed)
			}
		})
		if allocs != 0 {
			t.Fatalf("batch %d: %v allocations per step", batch, allocs)
		}
	}
}
