package battlebots

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// historyBout returns a bout with Config.History h and the bots placed.
func historyBout(t testing.TB, h int, b1, b2 pos) *Game {
	t.Helper()
	cfg := DefaultConfig()
	cfg.History = h
	g := testutil.MustNew(t, New, cfg)
	g.bots[0].X, g.bots[0].Y = b1.x, b1.y
	g.bots[1].X, g.bots[1].Y = b2.x, b2.y
	return g
}

// stepCmds plays one round of commands as the bots print them.
func stepCmds(g *Game, c1, c2 string) {
	a1, _ := g.ParseCommand(0, []byte(c1))
	a2, _ := g.ParseCommand(1, []byte(c2))
	g.Step([]int32{a1, a2}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
}

func cmd(t testing.TB, s string) Action {
	t.Helper()
	a, ok := ParseAction([]byte(s))
	if !ok {
		t.Fatalf("bad command %q", s)
	}
	return a
}

// TestHistoryShowsOnlyWhatTheEnemyCouldSee: each seat's action of the last
// round shows as the other seat could see it in the arena: a landmine
// never, a move only when the bot's cell changed, a shot only when its
// projectile is in flight after the round or cost a bot HP, bot2's EMP not
// when bot1's won.
func TestHistoryShowsOnlyWhatTheEnemyCouldSee(t *testing.T) {
	tests := []struct {
		name           string
		b1, b2         pos
		para           int
		c1, c2         string
		shown1, shown2 string // "NO" for nothing
	}{
		{"a landmine never shows", pos{3, 3}, far, 0, "L E", "L W", "NO", "NO"},
		{"a move shows as the step made", pos{3, 3}, far, 0, "SE", "NW", "SE", "NW"},
		{"a move into the wall shows as nothing", pos{1, 1}, pos{9, 9}, 0, "NW", "SE", "NO", "NO"},
		{"a move onto the other bot shows as nothing", pos{3, 3}, pos{4, 3}, 0, "E", "NO", "NO", "NO"},
		{"a move while paralysed shows as nothing", pos{3, 3}, far, 1, "S", "N", "NO", "NO"},
		{"a bullet in flight shows", pos{2, 5}, far, 0, "B E", "B W", "B E", "B W"},
		{"a bullet into the wall shows as nothing", pos{1, 5}, pos{9, 9}, 0, "B W", "B SE", "NO", "NO"},
		{"a bullet that dies at the wall within the round shows as nothing", pos{3, 5}, far, 0, "B W", "NO", "NO", "NO"},
		{"a bullet that hits shows", pos{3, 3}, pos{5, 3}, 0, "B E", "NO", "B E", "NO"},
		{"a missile in flight shows", pos{2, 5}, far, 0, "M E", "NO", "M E", "NO"},
		{"a missile into the wall splashes its firer and shows", pos{1, 5}, far, 0, "M W", "NO", "M W", "NO"},
		{"a missile that hits shows", pos{3, 3}, pos{5, 3}, 0, "M E", "NO", "M E", "NO"},
		{"an EMP shows", pos{3, 3}, far, 0, "NO", "P", "NO", "P"},
		{"bot2's EMP does not show when bot1's wins", pos{3, 3}, far, 0, "P", "P", "P", "NO"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := historyBout(t, 2, tc.b1, tc.b2)
			g.paralysed = tc.para
			stepCmds(g, tc.c1, tc.c2)
			for seat, want := range []string{tc.shown1, tc.shown2} {
				got, ok := g.Shown(seat, 1)
				if !ok || got != cmd(t, want) {
					t.Errorf("bot%d's %q shows as %v (%v), want %q", seat+1, []string{tc.c1, tc.c2}[seat], actionNames[got], ok, want)
				}
			}
		})
	}
}

// scalarsOf returns seat's scalar tensor.
func scalarsOf(g *Game, seat int) []float32 {
	obs := g.Spec().NewObsBuffers()
	g.WriteObs(seat, obs)
	f := make([]float32, len(obs[1])/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(obs[1][4*i:]))
	}
	return f
}

// hot lists the indices of the non-zero values in f.
func hot(f []float32) []int {
	var h []int
	for i, v := range f {
		if v != 0 {
			if v != 1 {
				return nil
			}
			h = append(h, i)
		}
	}
	return h
}

// TestHistoryScalarsHoldTheLastRoundsLatestFirst: with history H the
// scalars are the four base values, then H rounds, the latest first, each
// the seat's own action (as chosen, its landmines too) and the enemy's as
// shown, one-hot kind then one-hot direction; rounds not played are
// zeros, and a Reset or LoadNative starts the history again.
func TestHistoryScalarsHoldTheLastRoundsLatestFirst(t *testing.T) {
	g := historyBout(t, 3, pos{3, 3}, far)
	if n := len(scalarsOf(g, 0)); n != NumScalars+3*HistoryScalarsPerRound {
		t.Fatalf("%d scalars, want %d", n, NumScalars+3*HistoryScalarsPerRound)
	}
	if h := hot(scalarsOf(g, 0)[NumScalars:]); len(h) != 0 {
		t.Errorf("before the first round: history %v, want zeros", h)
	}
	stepCmds(g, "L E", "NW") // round 0: bot1 lays a mine, bot2 moves
	stepCmds(g, "P", "M W")  // round 1: an EMP, a missile in flight
	const a = historyActionScalars
	tests := []struct {
		name string
		seat int
		want []int
	}{
		{"bot1 sees its EMP and bot2's missile, then its mine and bot2's move", 0, []int{
			HistoryKindEMP, a + HistoryKindMissile, a + HistoryDir + int(W),
			2*a + HistoryKindLandmine, 2*a + HistoryDir + int(E), 3*a + HistoryKindMove, 3*a + HistoryDir + int(NW)}},
		{"bot2 sees its missile and bot1's EMP, then its move and not bot1's mine", 1, []int{
			HistoryKindMissile, HistoryDir + int(W), a + HistoryKindEMP,
			2*a + HistoryKindMove, 2*a + HistoryDir + int(NW)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hot(scalarsOf(g, tc.seat)[NumScalars:]); !slices.Equal(got, tc.want) {
				t.Errorf("history one-hots %v, want %v", got, tc.want)
			}
		})
	}
	g.Reset(0)
	if h := hot(scalarsOf(g, 0)[NumScalars:]); len(h) != 0 {
		t.Errorf("after Reset: history %v, want zeros", h)
	}
	stepCmds(g, "SE", "NO")
	var arena []byte
	arena = g.AppendArena(arena, -1)
	if err := g.LoadNative(arena); err != nil {
		t.Fatal(err)
	}
	if h := hot(scalarsOf(g, 0)[NumScalars:]); len(h) != 0 {
		t.Errorf("after LoadNative: history %v, want zeros", h)
	}
}

// TestHistoryKeepsOnlyTheLastHRounds: after more rounds than H, the
// scalars hold the last H, and rounds further back are gone.
func TestHistoryKeepsOnlyTheLastHRounds(t *testing.T) {
	for _, h := range []int{1, 2, MaxHistory} {
		g := historyBout(t, h, pos{5, 5}, far)
		moves := []string{"N", "S"}
		for r := range 2*MaxHistory + 1 {
			stepCmds(g, moves[r%2], "NO")
		}
		// The last round was N (round 2*MaxHistory is even).
		for k := 1; k <= h+1; k++ {
			got, ok := g.Shown(0, k)
			if k > h {
				if ok {
					t.Errorf("history %d: round k=%d still shown", h, k)
				}
				continue
			}
			want := []Action{Move(S), Move(N)}[k%2]
			if !ok || got != want {
				t.Errorf("history %d: k=%d shows %v, want %v", h, k, actionNames[got], actionNames[want])
			}
		}
	}
}

// TestHistoryOffLeavesTheObservationAsItWas: with history on, the planes
// and the first four scalars are those without it, step for step over
// random play (the digests pin the bytes without it).
func TestHistoryOffLeavesTheObservationAsItWas(t *testing.T) {
	off, _ := New(DefaultConfig())
	on := historyBout(t, 4, pos{1, 1}, pos{8, 8})
	bo, bn := off.Spec().NewObsBuffers(), on.Spec().NewObsBuffers()
	if len(bo[1]) != 4*NumScalars {
		t.Fatalf("history off: %d scalar bytes, want %d", len(bo[1]), 4*NumScalars)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	acts := make([]int32, 2)
	r, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
	for step := range 3000 {
		acts[0], acts[1] = rng.Int32N(NumActions), rng.Int32N(NumActions)
		off.Step(acts, r, te, tr)
		on.Step(acts, r, te, tr)
		for seat := range 2 {
			off.WriteObs(seat, bo)
			on.WriteObs(seat, bn)
			if !bytes.Equal(bo[0], bn[0]) || !bytes.Equal(bo[1], bn[1][:4*NumScalars]) {
				t.Fatalf("step %d seat %d: observation differs with history on", step, seat)
			}
		}
		if off.Done() {
			off.Reset(0)
			on.Reset(0)
		}
	}
}

// TestHistoryAllocatesNothing: Step, WriteObs and UpdateObs with history
// on do not allocate.
func TestHistoryAllocatesNothing(t *testing.T) {
	g := historyBout(t, MaxHistory, pos{1, 1}, pos{8, 8})
	obs := g.Spec().NewObsBuffers()
	acts := make([]int32, 2)
	r, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
	rng := rand.New(rand.NewPCG(5, 6))
	var ver uint64
	g.UpdateObs(0, obs, 0)
	if a := testing.AllocsPerRun(1000, func() {
		acts[0], acts[1] = rng.Int32N(NumActions), rng.Int32N(NumActions)
		g.Step(acts, r, te, tr)
		g.WriteObs(1, obs)
		ver = g.UpdateObs(0, obs, ver)
		if g.Done() {
			g.Reset(0)
		}
	}); a != 0 {
		t.Errorf("allocates %v times a step", a)
	}
}

// TestHistoryConfigBounds: history is 0..MaxHistory.
func TestHistoryConfigBounds(t *testing.T) {
	for _, tc := range []struct {
		h  int
		ok bool
	}{{-1, false}, {0, true}, {1, true}, {MaxHistory, true}, {MaxHistory + 1, false}} {
		c := DefaultConfig()
		c.History = tc.h
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("history %d: Validate %v, want ok %v", tc.h, err, tc.ok)
		}
	}
}
