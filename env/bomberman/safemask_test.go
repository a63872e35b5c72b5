package bomberman

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// playSafely plays games of 2 players with the safe mask or without
// ([testutil.SafeMaskPlay]): seat 0 picks uniformly among its mask's
// actions other than Do Nothing (always legal, safe or not) while there
// are any, and seat 1 (a console seat, exempt from the do-nothing rule)
// never moves. It returns how many games seat 0 died in and how many bombs
// it placed.
func playSafely(t *testing.T, safe bool, games int) (deaths, bombs int) {
	t.Helper()
	g, err := New(&Config{Players: 2, ConsoleSeats: []int{1}, SafeMask: safe, MaxRounds: 150})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	return testutil.SafeMaskPlay(g, rng, games, int32(PlaceBomb), func() bool { return g.Player(0).Killed }, nil)
}

func TestSafeMaskLeavesNoCertainDeath(t *testing.T) {
	testutil.WantSafeMaskSaves(t, func(safe bool, games int) (int, int) { return playSafely(t, safe, games) }, 200, 200)
}

// newSafeGame returns a 2-player game with the safe mask, on the map of
// seed 1, and its seat 0's player.
func newSafeGame(t *testing.T) (*Game, Player) {
	t.Helper()
	g, err := New(&Config{Players: 2, SafeMask: true})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	return g, g.Player(0)
}

func TestSafeMaskKeepsTheLegalMaskWhenNothingIsSafe(t *testing.T) {
	g, p := newSafeGame(t)
	// Walls all around but one step right, a long-fused bomb of radius 9
	// under the player: the ray covers the only cell it can reach.
	for _, d := range [][2]int{{0, 1}, {-1, 0}, {0, -1}} {
		g.cells[g.index(p.X+d[0], p.Y+d[1])].Entity = IndestructibleWall
	}
	g.cells[g.index(p.X+1, p.Y)].Entity = NoEntity
	g.cells[g.index(p.X+2, p.Y)].Entity = IndestructibleWall
	g.cells[g.index(p.X+1, p.Y+1)].Entity = IndestructibleWall
	g.cells[g.index(p.X+1, p.Y-1)].Entity = IndestructibleWall
	addBomb(t, g, 0, p.X, p.Y, 9, 3)
	got := make([]uint8, NumActions)
	g.WriteMask(0, got)
	g.safety, g.cfg.SafeMask = nil, false
	want := make([]uint8, NumActions)
	g.WriteMask(0, want)
	if !slices.Equal(got, want) {
		t.Errorf("safe mask %v, want the legal mask %v when no action is safe", got, want)
	}
	if want[MoveRight] != 1 || want[TriggerBomb] != 1 {
		t.Fatalf("legal mask %v: the scenario is not the one meant", want)
	}
}

func TestSafeMaskRulesOutTriggeringUnderfoot(t *testing.T) {
	g, p := newSafeGame(t) // p at (2,2): walls up and left
	// Right is a dead end inside the blast ((3,2), then a wall); down
	// leads out of it ((2,3), then (2,4)).
	g.cells[g.index(4, 2)].Entity = DestructibleWall
	g.cells[g.index(2, 3)].Entity = NoEntity
	g.cells[g.index(2, 4)].Entity = NoEntity
	g.stateChanged()
	addBomb(t, g, 0, p.X, p.Y, 1, 5)
	mask := make([]uint8, NumActions)
	g.WriteMask(0, mask)
	// Do Nothing stays legal whatever it costs (env.Env's contract).
	if want := []uint8{DoNothing: 1, MoveUp: 0, MoveLeft: 0, MoveRight: 0, MoveDown: 1, PlaceBomb: 0, TriggerBomb: 0}; !slices.Equal(mask, want) {
		t.Errorf("mask %v, want %v: a trigger underfoot and the dead end right are certain deaths, down is a way out", mask, want)
	}
	g.safety = nil
	g.WriteMask(0, mask)
	if mask[TriggerBomb] != 1 || mask[MoveRight] != 1 {
		t.Fatalf("legal mask %v: the scenario is not the one meant", mask)
	}
	g.safety = NewHunter()
	if n := testing.AllocsPerRun(50, func() { g.WriteMask(0, mask) }); n != 0 {
		t.Errorf("WriteMask with a safe mask allocates %v times", n)
	}
}

// BenchmarkWriteMask measures a mask without and with the safe mask's
// simulations (plain and wary), for the 4 players of a game with a bomb
// under each.
func BenchmarkWriteMask(b *testing.B) {
	for _, mode := range []string{"legal", "safe", "wary"} {
		b.Run(mode, func(b *testing.B) {
			g, err := New(&Config{Players: 4, SafeMask: mode != "legal", SafeMaskWary: mode == "wary"})
			if err != nil {
				b.Fatal(err)
			}
			g.Reset(3)
			for s := range 4 {
				p := g.Player(s)
				addBomb(b, g, s, p.X, p.Y, 3, 5)
			}
			mask := make([]uint8, NumActions)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				g.WriteMask(i%4, mask)
			}
		})
	}
}

// newTrapScene returns a 2-player game with the safe mask (wary or not) on
// the map of seed 1, its player 0 at (2,2) in the corner (walls up and
// left), a dead end to the right ((3,2) between walls above and below,
// then the opponent at (4,2) with a bomb of radius 3 in its bag) and a way
// out down the column ((2,3) to (2,5)). No bomb is on the map.
func newTrapScene(t *testing.T, wary bool) *Game {
	t.Helper()
	g, err := New(&Config{Players: 2, SafeMask: true, SafeMaskWary: wary})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	for x := 2; x <= 6; x++ {
		g.cells[g.index(x, 2)].Entity = NoEntity
	}
	g.cells[g.index(3, 3)].Entity = IndestructibleWall
	g.cells[g.index(3, 1)].Entity = IndestructibleWall
	for y := 3; y <= 5; y++ {
		g.cells[g.index(2, y)].Entity = NoEntity
	}
	movePlayer(g, 0, 2, 2)
	movePlayer(g, 1, 4, 2)
	g.players[1].BombRadius = 3
	g.stateChanged()
	return g
}

func TestWarySafeMaskRulesOutAnOpponentsPlantAndTrigger(t *testing.T) {
	mask := make([]uint8, NumActions)
	g := newTrapScene(t, false)
	g.WriteMask(0, mask)
	if mask[MoveRight] != 1 || mask[MoveDown] != 1 {
		t.Fatalf("plain safe mask %v: with no bomb on the map, right and down are safe; the scene is not the one meant", mask)
	}
	g = newTrapScene(t, true)
	g.WriteMask(0, mask)
	// Right is a dead end in line with an opponent that can plant now and
	// trigger next round; staying and going down leave the line in time.
	if want := []uint8{DoNothing: 1, MoveUp: 0, MoveLeft: 0, MoveRight: 0, MoveDown: 1, PlaceBomb: mask[PlaceBomb], TriggerBomb: 0}; !slices.Equal(mask, want) {
		t.Errorf("wary safe mask %v, want %v", mask, want)
	}
	// With no bomb left in the opponent's bag there is no plant to fear.
	g.players[1].BombBag = 0
	g.stateChanged()
	g.WriteMask(0, mask)
	if mask[MoveRight] != 1 {
		t.Errorf("wary safe mask %v: right ruled out against an opponent with an empty bag", mask)
	}
	if n := testing.AllocsPerRun(50, func() { g.WriteMask(0, mask) }); n != 0 {
		t.Errorf("WriteMask with a wary safe mask allocates %v times", n)
	}
}

func TestWarySafeMaskFallsBackWhenNothingSurvivesItsAssumptions(t *testing.T) {
	// The player at (3,2), between the opponent and its own long-fused
	// bomb of radius 2 at (2,2): were the opponent to plant and trigger,
	// nothing would survive, so the wary mask falls back to the plain one,
	// which rules out only the trigger (the player could not leave the
	// blast in one round).
	g := newTrapScene(t, true)
	movePlayer(g, 0, 3, 2)
	addBomb(t, g, 0, 2, 2, 2, 9)
	wary := make([]uint8, NumActions)
	g.WriteMask(0, wary)
	g.cfg.SafeMaskWary = false
	plain := make([]uint8, NumActions)
	g.WriteMask(0, plain)
	if !slices.Equal(wary, plain) {
		t.Errorf("wary safe mask %v, want the plain safe mask %v when nothing survives the opponents' plants", wary, plain)
	}
	g.safety, g.cfg.SafeMask = nil, false
	legal := make([]uint8, NumActions)
	g.WriteMask(0, legal)
	if plain[TriggerBomb] != 0 || legal[TriggerBomb] != 1 {
		t.Fatalf("plain safe mask %v, legal mask %v: the scene is not the one meant", plain, legal)
	}
}

func TestSafeMaskWaryNeedsSafeMask(t *testing.T) {
	_, err := New(&Config{Players: 2, SafeMaskWary: true})
	if err == nil || !strings.Contains(err.Error(), "safe_mask_wary") {
		t.Errorf("New with safe_mask_wary alone: err %v, want one naming safe_mask_wary", err)
	}
}

// newWaitScene returns a 2-player game with the safe mask (strict or not)
// on the map of seed 1: player 0 at (2,2) in the corner (walls up and
// left), a dead end to the right ((3,2), then a wall) and a way out down
// the column ((2,3), then (2,4)), on its own bomb of radius 1 with the
// given timer: the ray covers (3,2) and (2,3), so only two steps down
// leave it.
func newWaitScene(t *testing.T, strict bool, timer int) *Game {
	t.Helper()
	g, err := New(&Config{Players: 2, SafeMask: true, SafeMaskStrict: strict})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	g.cells[g.index(4, 2)].Entity = DestructibleWall
	g.cells[g.index(2, 3)].Entity = NoEntity
	g.cells[g.index(2, 4)].Entity = NoEntity
	g.stateChanged()
	addBomb(t, g, 0, 2, 2, 1, timer)
	return g
}

func TestStrictSafeMaskRulesOutAFatalWait(t *testing.T) {
	down := []uint8{DoNothing: 0, MoveUp: 0, MoveLeft: 0, MoveRight: 0, MoveDown: 1, PlaceBomb: 0, TriggerBomb: 0}
	waitOrDown := []uint8{DoNothing: 1, MoveUp: 0, MoveLeft: 0, MoveRight: 0, MoveDown: 1, PlaceBomb: 0, TriggerBomb: 0}
	legal := []uint8{DoNothing: 1, MoveUp: 0, MoveLeft: 0, MoveRight: 1, MoveDown: 1, PlaceBomb: 0, TriggerBomb: 1}
	for _, c := range []struct {
		name          string
		timer         int
		idle          int  // seat 0's consecutive do-nothings so far
		console       bool // seat 0 a console seat, exempt from the do-nothing rule
		strict, plain []uint8
	}{
		// Timer 3: waiting a round leaves no time for the two steps out.
		{"a fatal wait is masked, the way out kept", 3, 0, false, down, waitOrDown},
		// Timer 4: a round of waiting still leaves time to get out.
		{"a wait that leaves a way out stays legal", 4, 0, false, waitOrDown, waitOrDown},
		// Timer 2: nothing survives, so both leave the legal mask.
		{"nothing safe leaves the legal mask, Do Nothing in it", 2, 0, false, legal, legal},
		// The 21st Do Nothing in a row hands the bot to the harness,
		// which never moves it again: fatal, though the wait itself is not.
		{"the wait the do-nothing rule takes the bot over at is masked", 4, 20, false, down, waitOrDown},
		// The 20th is the harness's Place Bomb, which is not legal here
		// (its bomb is on the cell): a wait after all.
		{"the wait the do-nothing rule plants at is judged as the plant", 4, 19, false, waitOrDown, waitOrDown},
		{"a console seat's wait is a wait whatever its count", 4, 20, true, waitOrDown, waitOrDown},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, strict := range []bool{true, false} {
				g := newWaitScene(t, strict, c.timer)
				g.players[0].Idle = c.idle
				if c.console {
					g.cfg.ConsoleSeats = []int{0}
				}
				mask := make([]uint8, NumActions)
				g.WriteMask(0, mask)
				want := c.plain
				if strict {
					want = c.strict
				}
				if !slices.Equal(mask, want) {
					t.Errorf("strict %v: mask %v, want %v", strict, mask, want)
				}
				if n := testing.AllocsPerRun(20, func() { g.WriteMask(0, mask) }); n != 0 {
					t.Errorf("strict %v: WriteMask allocates %v times", strict, n)
				}
			}
		})
	}
}

func TestSafeMaskStrictNeedsSafeMask(t *testing.T) {
	_, err := New(&Config{Players: 2, SafeMaskStrict: true})
	if err == nil || !strings.Contains(err.Error(), "safe_mask_strict") {
		t.Errorf("New with safe_mask_strict alone: err %v, want one naming safe_mask_strict", err)
	}
}
