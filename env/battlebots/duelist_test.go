package battlebots

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// loopAgent plays a fixed loop of actions.
type loopAgent struct {
	loop []Action
	i    int
}

func (l *loopAgent) Reset(env.Env, int, uint64) { l.i = 0 }
func (l *loopAgent) Act(env.Env, int) int32 {
	a := l.loop[l.i%len(l.loop)]
	l.i++
	return int32(a)
}

// duel plays one bout of a (bot1) against b (bot2) with agent seeds from
// seed and returns the winner (-1 for a draw) and the game.
func duel(t testing.TB, a, b env.Agent, seed uint64) (int, *Game) {
	t.Helper()
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Agent seeds seed*2+1 and seed*2+2.
	return testutil.Winner(g, []env.Agent{a, b}, seed, func(s int) uint64 { return seed*2 + uint64(s) + 1 }), g
}

// TestDuelistBeatsBuiltins checks that the duelist, the gambit (the
// duelist with an opening) and the warden (the cautious duelist) win at
// least 80% of 20 fixed seeds against each older built-in bot from each
// seat.
func TestDuelistBeatsBuiltins(t *testing.T) {
	bots := []struct {
		name string
		make func() env.Agent
	}{
		{"duelist", func() env.Agent { return &Duelist{} }},
		{"gambit", func() env.Agent { return &Gambit{} }},
		{"warden", func() env.Agent { return &Warden{} }},
	}
	for _, bot := range bots {
		for _, tc := range []struct {
			name string
			opp  func() env.Agent
		}{
			{"sniper", func() env.Agent { return Sniper{} }},
			{"huggy", func() env.Agent { return Huggy{} }},
			{"nop", func() env.Agent { return Nop{} }},
		} {
			for seat := range 2 {
				t.Run(bot.name+"_vs_"+tc.name+"_seat"+string(rune('0'+seat)), func(t *testing.T) {
					wins := 0
					for seed := range uint64(20) {
						ags := [2]env.Agent{}
						ags[seat], ags[1-seat] = bot.make(), tc.opp()
						if w, _ := duel(t, ags[0], ags[1], seed); w == seat {
							wins++
						}
					}
					t.Logf("%s won %d/20", bot.name, wins)
					if wins < 16 {
						t.Errorf("%s won %d of 20 bouts against %s from seat %d, want at least 16", bot.name, wins, tc.name, seat)
					}
				})
			}
		}
	}
}

// TestDuelistSeededEndings checks that the duelist's seed changes its
// play: bouts against sniper over 20 seeds end in more than 5 distinct
// states (HP, cells and rounds).
func TestDuelistSeededEndings(t *testing.T) {
	type ending struct {
		a, b   Bot
		rounds int
	}
	for seat := range 2 {
		t.Run("seat"+string(rune('0'+seat)), func(t *testing.T) {
			seen := map[ending]bool{}
			for seed := range uint64(20) {
				ags := [2]env.Agent{}
				ags[seat], ags[1-seat] = &Duelist{}, Sniper{}
				_, g := duel(t, ags[0], ags[1], seed)
				seen[ending{g.Bot(0), g.Bot(1), g.Round()}] = true
			}
			if len(seen) <= 5 {
				t.Errorf("%d distinct endings over 20 seeds, want more than 5", len(seen))
			}
		})
	}
}

// TestDuelistFixedLoops checks that fixed 5-round loops of actions, idle
// and uniform random play never beat the duelist from either seat.
func TestDuelistFixedLoops(t *testing.T) {
	m, b := Missile, Bullet
	loops := []struct {
		name string
		loop []Action
	}{
		{"idle", []Action{Nothing}},
		{"missiles_diagonal", []Action{m(SE), m(NW), m(SE), m(NW), m(E)}},
		{"walk_and_fire", []Action{Move(SE), m(SE), Move(E), m(S), b(E)}},
		{"emp_and_missiles", []Action{EMP, m(SE), m(E), m(S), m(NW)}},
		{"circle", []Action{Move(E), Move(S), Move(W), Move(N), m(SE)}},
		{"emp_spam", []Action{EMP, EMP, m(SE), EMP, b(SE)}},
		{"mines", []Action{Landmine(SE), Move(SE), Landmine(E), Move(NW), m(SE)}},
	}
	for _, tc := range loops {
		for seat := range 2 {
			t.Run(tc.name+"_seat"+string(rune('0'+seat)), func(t *testing.T) {
				for seed := range uint64(5) {
					ags := [2]env.Agent{}
					ags[seat], ags[1-seat] = &Duelist{}, &loopAgent{loop: tc.loop}
					if w, g := duel(t, ags[0], ags[1], seed); w != seat {
						t.Errorf("seed %d: the loop was not beaten (winner %d, HP %d/%d after %d rounds)", seed, w, g.Bot(0).HP, g.Bot(1).HP, g.Round())
					}
				}
			})
		}
	}
	t.Run("random", func(t *testing.T) {
		for seat := range 2 {
			for seed := range uint64(10) {
				ags := [2]env.Agent{}
				ags[seat], ags[1-seat] = &Duelist{}, &randomAgent{}
				if w, g := duel(t, ags[0], ags[1], seed); w != seat {
					t.Errorf("seat %d seed %d: random was not beaten (winner %d, HP %d/%d)", seat, seed, w, g.Bot(0).HP, g.Bot(1).HP)
				}
			}
		}
	})
}

// randomAgent plays uniformly random actions from its seed.
type randomAgent struct{ s uint64 }

func (r *randomAgent) Reset(_ env.Env, _ int, seed uint64) { r.s = seed*0x9e3779b97f4a7c15 + 1 }
func (r *randomAgent) Act(env.Env, int) int32 {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return int32(r.s % NumActions)
}

// actAllocs returns the allocations per round of a's Act in seat 0
// against opp in seat 1 (both reset whenever a bout ends).
func actAllocs(a, opp env.Agent) float64 {
	g, _ := New(DefaultConfig())
	a.Reset(g, 0, 1)
	opp.Reset(g, 1, 2)
	return testutil.ActAllocs(g, []env.Agent{a, opp}, 20, func() {
		g.Reset(0)
		a.Reset(g, 0, 1)
		opp.Reset(g, 1, 2)
	})
}

// TestDuelistActAllocations checks that Act does not allocate.
func TestDuelistActAllocations(t *testing.T) {
	if n := actAllocs(&Duelist{}, Sniper{}); n != 0 {
		t.Errorf("Act allocates %v times per round, want 0", n)
	}
}
