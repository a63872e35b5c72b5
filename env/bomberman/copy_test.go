package bomberman

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// fingerprint is everything a step shows of a game: the state hash, the
// state.json bytes, every seat's observation (planes and scalars) and mask,
// and the last step's rewards and flags.
func fingerprint(g *Game, rewards []float32, term, trunc []bool) []byte {
	var b []byte
	h := stateHash(g)
	for i := range 8 {
		b = append(b, byte(h>>(8*i)))
	}
	b = g.appendStateJSON(b)
	obs := g.Spec().NewObsBuffers()
	mask := make([]uint8, NumActions)
	for s := range g.Players() {
		g.WriteObs(s, obs)
		g.WriteMask(s, mask)
		b = append(b, obs[0]...)
		b = append(b, obs[1]...)
		b = append(b, mask...)
	}
	for s := range rewards {
		b = append(b, byte(int(rewards[s]*1000)), flagByte(term[s]), flagByte(trunc[s]))
	}
	return b
}

func flagByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// stepBoth steps a and b with the same pseudo-random, mostly legal actions
// for rounds rounds (or until a is done) and fails at the first round whose
// fingerprints differ.
func stepBoth(t *testing.T, a, b *Game, rng *rand.Rand, rounds int) {
	t.Helper()
	n := a.Players()
	acts := make([]int32, n)
	ra, rb := make([]float32, n), make([]float32, n)
	ta, tb, ua, ub := make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
	mask := make([]uint8, NumActions)
	for r := 0; r < rounds && !a.Done(); r++ {
		for s := range n {
			a.WriteMask(s, mask)
			act := rng.IntN(NumActions)
			if mask[act] == 0 && rng.IntN(4) != 0 {
				act = 0
			}
			acts[s] = int32(act)
		}
		a.Step(acts, ra, ta, ua)
		b.Step(acts, rb, tb, ub)
		if !bytes.Equal(fingerprint(a, ra, ta, ua), fingerprint(b, rb, tb, ub)) {
			t.Fatalf("round %d: the copy stepped with the same actions differs from the original", a.Round())
		}
	}
}

// TestCopyFromStepsAsTheOriginal checks the rule of CopyFrom: a copy stepped
// with the same actions matches the original byte for byte (state, state.json,
// observations, masks, rewards, flags), from states met in play (fresh
// maps, live bombs, chains, collisions, deaths), into a game reused from
// copy to copy and made with another config.
func TestCopyFromStepsAsTheOriginal(t *testing.T) {
	wary := &Config{Players: 2, SafeMask: true, SafeMaskWary: true, SafeMaskStrict: true}
	tests := []struct {
		name string
		cfg  *Config
		dst  *Config // the config the reused copy was made with
	}{
		{"two_players", &Config{Players: 2}, &Config{Players: 4}},
		{"four_players", &Config{Players: 4}, &Config{Players: 2}},
		{"eight_players_on_31", &Config{Players: 8}, &Config{Players: 2}},
		{"player_centred_view", &Config{Players: 4, ViewRadius: 5, PointsReward: 0.25}, &Config{Players: 4}},
		{"wary_strict_safe_mask", wary, &Config{Players: 2}},
		{"console_seats_and_names", &Config{Players: 2, ConsoleSeats: []int{1}, Names: []string{"ann", "bob"}}, &Config{Players: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst, err := New(tt.dst)
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 3; seed++ {
				g, err := New(tt.cfg)
				if err != nil {
					t.Fatal(err)
				}
				g.Reset(seed)
				rng := rand.New(rand.NewPCG(seed, 7))
				n := g.Players()
				zr, zf := make([]float32, n), make([]bool, n)
				for !g.Done() {
					dst.CopyFrom(g)
					if !bytes.Equal(fingerprint(g, zr, zf, zf), fingerprint(dst, zr, zf, zf)) {
						t.Fatalf("round %d: the copy differs from the original", g.Round())
					}
					stepBoth(t, g, dst, rng, 40)
				}
			}
		})
	}
}

// TestCopyFromDoesNotAlias checks that a copy shares nothing mutable with its
// original: stepping the copy to the end of its game, writing its
// observations and editing its config lists leave the original's state and
// observations unchanged, and the other way round.
func TestCopyFromDoesNotAlias(t *testing.T) {
	tests := []struct {
		name string
		cfg  *Config
	}{
		{"whole_map", &Config{Players: 4, Names: []string{"a", "b", "c", "d"}, ConsoleSeats: []int{2}}},
		{"view_and_safe_mask", &Config{Players: 2, ViewRadius: 4, SafeMask: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(5)
			rng := rand.New(rand.NewPCG(1, 1))
			n := g.Players()
			acts := make([]int32, n)
			rewards := make([]float32, n)
			term, trunc := make([]bool, n), make([]bool, n)
			for range 30 {
				for s := range acts {
					acts[s] = int32(MoveUp + Action(rng.IntN(4)))
				}
				g.Step(acts, rewards, term, trunc)
			}
			before := fingerprint(g, rewards, term, trunc)
			c, err := New(&Config{Players: 2})
			if err != nil {
				t.Fatal(err)
			}
			c.CopyFrom(g)
			if &c.obsShared[0] == &g.obsShared[0] || c.safety != nil && c.safety == g.safety {
				t.Fatal("the copy shares the original's buffers")
			}
			if len(c.cfg.Names) > 0 {
				c.cfg.Names[0] = "changed"
			}
			if len(c.cfg.ConsoleSeats) > 0 {
				c.cfg.ConsoleSeats[0] = 0
			}
			cr, ct, cu := make([]float32, n), make([]bool, n), make([]bool, n)
			for !c.Done() {
				for s := range acts {
					acts[s] = int32(rng.IntN(NumActions))
				}
				c.Step(acts, cr, ct, cu)
				fingerprint(c, cr, ct, cu)
			}
			if !bytes.Equal(before, fingerprint(g, rewards, term, trunc)) {
				t.Fatal("stepping the copy changed the original")
			}
			// And the original stepped leaves the copy as it was.
			after := fingerprint(c, cr, ct, cu)
			g.Step(acts, rewards, term, trunc)
			fingerprint(g, rewards, term, trunc)
			if !bytes.Equal(after, fingerprint(c, cr, ct, cu)) {
				t.Fatal("stepping the original changed the copy")
			}
		})
	}
}

// TestCopyVisibleHidesWhatBotsDoNotSee checks CopyVisible's rule: the copy
// has no power-up under a wall and the same cells, players and bombs as the
// original otherwise, and its collision rolls come from the given seed.
func TestCopyVisibleHidesWhatBotsDoNotSee(t *testing.T) {
	g := play(t, 4, 21, 3, 25)
	hidden := 0
	for i := range g.width * g.height {
		if c := g.cells[i]; c.Entity != NoEntity && c.PowerUp != NoPowerUp {
			hidden++
		}
	}
	if hidden == 0 {
		t.Fatal("the test state hides no power-up")
	}
	c, err := New(&Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	c.CopyVisible(g, 99)
	for i := range g.width * g.height {
		oc, cc := g.cells[i], c.cells[i]
		want := oc
		if oc.Entity != NoEntity {
			want.PowerUp = NoPowerUp
		}
		if cc != want {
			t.Fatalf("cell %d: copy %+v, want %+v", i, cc, want)
		}
	}
	if c.players != g.players || c.bombs != g.bombs || c.round != g.round {
		t.Fatal("the visible copy changed players, bombs or the round")
	}
	d, err := New(&Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	d.CopyVisible(g, 99)
	if c.roll100() != d.roll100() || c.rng == g.rng {
		t.Fatal("collision rolls do not come from the given seed")
	}
	// The original's observations never showed the hidden power-ups, so
	// the visible copy's are the original's.
	for s := range 4 {
		a, b := g.Spec().NewObsBuffers(), g.Spec().NewObsBuffers()
		g.WriteObs(s, a)
		c.WriteObs(s, b)
		if !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
			t.Fatalf("seat %d: the visible copy's observation differs", s)
		}
	}
}

// TestCopyFromDoesNotAllocateOnceSized checks that copying into a game
// already sized for the source allocates nothing.
func TestCopyFromDoesNotAllocateOnceSized(t *testing.T) {
	g := play(t, 4, 3, 3, 60)
	c, err := New(&Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	c.CopyFrom(g)
	if n := testing.AllocsPerRun(100, func() { c.CopyFrom(g); c.CopyVisible(g, 5) }); n != 0 {
		t.Fatalf("%v allocations per copy", n)
	}
}
