package portalbomber

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// safeBare returns a bare game (see bare) with the safe mask.
func safeBare(t testing.TB) *Game {
	t.Helper()
	return bare(t, func(c *Config) { c.SafeMask = true })
}

// TestSafeMaskRules sets up positions on the bare board (seat 0 to move,
// seat 1 far off in its corner) and checks which of seat 0's legal
// actions the safe mask keeps and which it clears.
func TestSafeMaskRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(g *Game)
		cleared []Action
		kept    []Action
	}{{
		// (1,1) with the soft blocks at (3,1) and (1,3): both ways out
		// are dead ends of the bomb's arms.
		name:    "bomb_with_no_escape_is_masked",
		setup:   func(g *Game) {},
		cleared: []Action{PlaceBomb},
		kept:    []Action{Wait, MoveRight, MoveDown, TurnUp, OrangePortal},
	}, {
		// The player stands on its bomb at (1,1); (3,1) is open, so
		// right then down at (3,2) leaves the arms; down is a dead end
		// once the bomb blocks the way back.
		name: "bomb_with_one_escape_keeps_that_route",
		setup: func(g *Game) {
			g.cells[g.idx(3, 1)].soft = false
			g.addBomb(1, 1, 0)
			g.players[0].BombCount--
		},
		cleared: []Action{MoveDown},
		kept:    []Action{Wait, MoveRight, MoveLeft, TurnDown},
	}, {
		// The opponent's bomb at (1,4), the soft block at (1,3) gone:
		// at the second round end its up arm fills (1,3), (1,2) and
		// (1,1). Down to (1,2) leaves one move before it, not enough to
		// get out of the column; right to (2,1) is out of the arms.
		name: "dead_end_is_masked",
		setup: func(g *Game) {
			g.cells[g.idx(1, 3)].soft = false
			g.addBomb(1, 4, 1)
			g.cells[g.idx(1, 4)].bombTick = 2
		},
		cleared: []Action{MoveDown},
		kept:    []Action{Wait, MoveRight, TurnLeft},
	}, {
		// The own bomb at (1,1) goes off at the next round end with
		// range 3: (5,1), walled in by soft blocks, is just out of
		// reach; range 4 brings the blast home, pierce does not.
		name: "buy_range_that_brings_the_own_blast_home_is_masked",
		setup: func(g *Game) {
			g.cells[g.idx(3, 1)].soft = false
			g.cells[g.idx(6, 1)].soft = true
			g.cells[g.idx(5, 2)].soft = true
			ownBombGoingOff(g, 5, 1)
		},
		cleared: []Action{BuyRange, MoveLeft},
		kept:    []Action{Wait, BuyPierce, BuyCount, TurnUp},
	}, {
		// The arm stops on the soft block at (3,1) with pierce 0; pierce
		// 1 carries it to (4,1), walled in by a soft block at (5,1).
		name: "buy_pierce_that_carries_the_own_blast_through_is_masked",
		setup: func(g *Game) {
			g.cells[g.idx(5, 1)].soft = true
			ownBombGoingOff(g, 4, 1)
		},
		cleared: []Action{BuyPierce},
		kept:    []Action{Wait, BuyRange, BuyCount},
	}, {
		// The opponent's bomb beside the corner goes off at the next
		// round end, and a soft block closes (1,2): nothing is safe, so
		// the mask stays the legal one.
		name: "nothing_safe_leaves_the_legal_mask",
		setup: func(g *Game) {
			g.cells[g.idx(1, 2)].soft = true
			g.addBomb(2, 1, 1)
			g.cells[g.idx(2, 1)].bombTick = 1
		},
		kept: []Action{Wait, MoveDown, PlaceBomb, TurnUp, OrangePortal},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := safeBare(t)
			tc.setup(g)
			if g.ToMove() != 0 {
				t.Fatalf("seat %d to move, want 0", g.ToMove())
			}
			legal, safe := make([]uint8, NumActions), make([]uint8, NumActions)
			g.safety, g.cfg.SafeMask = nil, false
			g.WriteMask(0, legal)
			g.safety, g.cfg.SafeMask = &Raider{}, true
			g.WriteMask(0, safe)
			for _, a := range tc.cleared {
				if legal[a] == 0 {
					t.Fatalf("%v is not legal: the case shows nothing", a)
				}
				if safe[a] != 0 {
					t.Errorf("%v kept, want cleared (safe mask %v)", a, safe)
				}
			}
			for _, a := range tc.kept {
				if safe[a] == 0 {
					t.Errorf("%v cleared, want kept (safe mask %v)", a, safe)
				}
			}
			for a := range safe {
				if safe[a] > legal[a] {
					t.Errorf("%v: safe mask 1, legal mask 0", Action(a))
				}
			}
		})
	}
}

// playSafely plays games with the safe mask or without
// ([testutil.SafeMaskPlay]): seat 0 picks uniformly among its mask's
// actions other than Wait (always kept, safe or not) while there are any,
// and seat 1 only waits. It checks before every step that each seat's mask
// keeps action 0 and holds only legal actions (without safe, exactly the
// legal ones), and returns how many games seat 0 died in and how many
// bombs it placed.
func playSafely(t *testing.T, safe bool, games int) (deaths, bombs int) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.SafeMask, cfg.MaxRounds = safe, 150
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mask, legal := make([]uint8, NumActions), make([]uint8, NumActions)
	check := func(seed uint64) {
		for s := range Seats {
			g.WriteMask(s, mask)
			clear(legal)
			legal[0] = 1
			for a := Action(1); a < NumActions && g.mayMove(s); a++ {
				legal[a] = bit(g.legal(s, a))
			}
			if mask[0] != 1 {
				t.Fatalf("seed %d move %d seat %d: action 0 masked", seed, g.MoveNumber(), s)
			}
			for a := range mask {
				if mask[a] > legal[a] || !safe && mask[a] != legal[a] {
					t.Fatalf("seed %d move %d seat %d: mask %v, legal %v", seed, g.MoveNumber(), s, mask, legal)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	return testutil.SafeMaskPlay(g, rng, games, int32(PlaceBomb), func() bool { return !g.Player(0).Alive }, check)
}

// TestSafeMaskLeavesNoCertainDeath: choosing among the safe mask's
// actions against a player who only waits, the player never dies, and
// still bombs; choosing among the legal actions, it dies often. The mask
// never loses action 0 nor holds an illegal action, and without
// safe_mask it is the legal mask bit for bit.
func TestSafeMaskLeavesNoCertainDeath(t *testing.T) {
	testutil.WantSafeMaskSaves(t, func(safe bool, games int) (int, int) { return playSafely(t, safe, games) }, 60, 120)
}

// TestSafeMaskDefaultIsNil: the default config builds no safe-mask
// scratch, so its WriteMask is the legal mask's code alone.
func TestSafeMaskDefaultIsNil(t *testing.T) {
	for _, cfg := range []*Config{DefaultConfig(), VariantConfig()} {
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if g.safety != nil {
			t.Errorf("%+v: safe-mask scratch without safe_mask", cfg)
		}
	}
}

// safeStates returns k states of random play on the original board with
// the safe mask, each with bombs on the map, for the allocation test and
// the benchmark.
func safeStates(t testing.TB, k int) []Game {
	t.Helper()
	cfg := DefaultConfig()
	cfg.SafeMask = true
	g := testutil.MustNew(t, New, cfg)
	rng := rand.New(rand.NewPCG(5, 6))
	acts, rew := make([]int32, Seats), make([]float32, Seats)
	term, trunc := make([]bool, Seats), make([]bool, Seats)
	var out []Game
	for seed := uint64(0); len(out) < k; seed++ {
		g.Reset(seed)
		for !g.Done() && len(out) < k {
			s := g.ToMove()
			acts[s], acts[1-s] = int32(practiceMoves[rng.IntN(len(practiceMoves))]), 0
			if rng.IntN(6) == 0 {
				acts[s] = int32(PlaceBomb)
			}
			g.Step(acts, rew, term, trunc)
			if g.nBombs > 0 && rng.IntN(4) == 0 && g.Player(g.ToMove()).Alive {
				out = append(out, *g)
			}
		}
	}
	return out
}

func TestSafeMaskAllocatesNothing(t *testing.T) {
	states := safeStates(t, 32)
	mask := make([]uint8, NumActions)
	i := 0
	if n := testing.AllocsPerRun(200, func() {
		g := &states[i%len(states)]
		g.WriteMask(g.ToMove(), mask)
		i++
	}); n != 0 {
		t.Errorf("WriteMask with safe_mask: %v allocations, want 0", n)
	}
}

// BenchmarkWriteMask measures one seat mask of the seat to move, over
// states of random play with bombs on the map: the legal mask, the safe
// mask and the wary safe mask.
func BenchmarkWriteMask(b *testing.B) {
	states := safeStates(b, 256)
	for _, mode := range []string{"legal", "safe_mask", "safe_mask_wary"} {
		b.Run(mode, func(b *testing.B) {
			gs := make([]Game, len(states))
			copy(gs, states)
			for i := range gs {
				switch mode {
				case "legal":
					gs[i].safety = nil
				case "safe_mask_wary":
					gs[i].cfg.SafeMaskWary = true
				}
			}
			mask := make([]uint8, NumActions)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				g := &gs[i%len(gs)]
				g.WriteMask(g.ToMove(), mask)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "masks/s")
		})
	}
}

// TestSafeMaskWaryNarrowsThePlainMask: over positions of random play
// with bombs on the map, the wary safe mask keeps action 0, keeps only
// actions the plain safe mask keeps, and clears more than it somewhere
// (an action after which the other player's reply, a step into the way
// or a bomb, leaves no escape).
func TestSafeMaskWaryNarrowsThePlainMask(t *testing.T) {
	states := safeStates(t, 400)
	plain, wary := make([]uint8, NumActions), make([]uint8, NumActions)
	narrower := 0
	for i := range states {
		g := &states[i]
		seat := g.ToMove()
		// The opponent moved to a free cell near the player, so its
		// replies count.
		p := g.Player(seat)
		for _, d := range [][2]int{{2, 0}, {0, 2}, {-2, 0}, {0, -2}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
			if x, y := p.X+d[0], p.Y+d[1]; walkable(g, seat, x, y) && !g.HasTrail(x, y) {
				g.placeAt(1-seat, x, y)
				break
			}
		}
		g.cfg.SafeMaskWary = false
		g.WriteMask(seat, plain)
		g.cfg.SafeMaskWary = true
		g.WriteMask(seat, wary)
		if wary[0] != 1 {
			t.Fatalf("state %d: wary mask clears action 0", i)
		}
		differs := false
		for a := range wary {
			if wary[a] > plain[a] {
				// Allowed only where the wary mask fell back to the
				// legal mask, nothing being safe even standing still;
				// then the plain mask is the legal one too.
				t.Errorf("state %d: wary keeps %v, plain clears it (plain %v, wary %v)", i, Action(a), plain, wary)
			}
			differs = differs || wary[a] != plain[a]
		}
		if differs {
			narrower++
		}
	}
	if narrower == 0 {
		t.Errorf("the wary mask never clears more than the plain one in %d positions: the test shows nothing", len(states))
	}
	t.Logf("wary narrower in %d of %d positions", narrower, len(states))
}

// ownBombGoingOff puts player 0 at (x, y) with 10 coins to spend and its
// bomb at (1,1), going off at the next round end.
func ownBombGoingOff(g *Game, x, y int) {
	g.placeAt(0, x, y)
	g.addBomb(1, 1, 0)
	g.cells[g.idx(1, 1)].bombTick = 1
	g.players[0].BombCount--
	g.players[0].Coins = 10
}
