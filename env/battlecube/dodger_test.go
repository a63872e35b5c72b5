package battlecube

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// dodgerGame plays one game of game with a dodger in seat and the built-in
// agent other elsewhere, calling check before every tick with the dodger's
// task and the positions at the tick before; it returns the game.
func dodgerGame(t *testing.T, game string, seat int, other string, seed uint64, check func(g *Game, a Action, before [MaxPlayers][3]int)) *Game {
	t.Helper()
	e, err := env.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := e.(*Game)
	n := g.Players()
	agents := make([]env.Agent, n)
	for s := range n {
		if s == seat {
			agents[s] = NewDodger()
		} else {
			agents[s] = testutil.Agent(t, game, other, e.Spec())
		}
	}
	g.Reset(seed)
	for s, a := range agents {
		a.Reset(g, s, seed*31+uint64(s))
	}
	acts, rew := make([]int32, n), make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	var before [MaxPlayers][3]int
	for o := range n {
		p := g.Player(o)
		before[o] = [3]int{p.X, p.Y, p.Z}
	}
	for !g.Done() {
		for s, a := range agents {
			acts[s] = a.Act(g, s)
		}
		if check != nil {
			check(g, Action(acts[seat]), before)
		}
		for o := range n {
			p := g.Player(o)
			before[o] = [3]int{p.X, p.Y, p.Z}
		}
		g.Step(acts, rew, term, trunc)
	}
	return g
}

// TestDodgerWinsTasks3CubesAgainstThreeTeebots: in battlecube/tasks3 the
// dodger alone against three teebots is first (the last bot in play) in
// at least 95% of 25 cubes from each seat (it won 199 of 200 on other
// seeds, docs/training.md).
func TestDodgerWinsTasks3CubesAgainstThreeTeebots(t *testing.T) {
	for seat := range 4 {
		t.Run(fmt.Sprintf("seat%d", seat), func(t *testing.T) {
			wins := 0
			for seed := range uint64(25) {
				g := dodgerGame(t, "battlecube/tasks3", seat, "teebot", 5000+seed, nil)
				if w, draw := g.Outcome(); !draw && w == seat {
					wins++
				}
			}
			if wins < 24 {
				t.Errorf("the dodger won %d of 25", wins)
			}
		})
	}
}

// TestDodgerLeavesItsCycleStartCell: at a cycle's first tick the dodger
// moves whenever a neighbour in the cube holds no bomb and no bot, never
// into a bomb, a bot's cell or out of the cube, and to a cell next to no
// bot when one is free.
func TestDodgerLeavesItsCycleStartCell(t *testing.T) {
	for _, tc := range []struct{ game, other string }{
		{"battlecube/tasks3", "teebot"}, {"battlecube/tasks3", "stalker"}, {"battlecube/tasks3", "dumb"},
	} {
		t.Run(tc.other, func(t *testing.T) {
			firsts := 0
			for seed := range uint64(20) {
				seat := int(seed % 4)
				dodgerGame(t, tc.game, seat, tc.other, 6000+seed, func(g *Game, a Action, _ [MaxPlayers][3]int) {
					me := g.Player(seat)
					if g.SubTick() != 1 || !me.InPlay {
						return
					}
					firsts++
					best := -1 // the fewest bots near a free neighbour: 0 far, 1 next to one
					for m := MovePlusX; m <= MoveMinusZ; m++ {
						if near, free := dodgerCell(g, seat, me, m); free && (best < 0 || near < best) {
							best = near
						}
					}
					if a == Noop {
						if best >= 0 {
							t.Fatalf("seed %d tick %d: NOOP with a free neighbour", seed, g.Tick())
						}
						return
					}
					near, free := dodgerCell(g, seat, me, a)
					if a >= NumFixedActions || !free || near != best {
						t.Fatalf("seed %d tick %d: task %d (free %v, near %d), best neighbour near %d", seed, g.Tick(), a, free, near, best)
					}
				})
			}
			if firsts == 0 {
				t.Fatal("no cycle start checked")
			}
		})
	}
}

// dodgerCell reports whether move m takes me to a cell in the cube with no
// bomb and no other bot, and whether that cell is next to another bot (1)
// or not (0).
func dodgerCell(g *Game, seat int, me Player, m Action) (near int, free bool) {
	d := moveDelta[m]
	x, y, z := me.X+d[0], me.Y+d[1], me.Z+d[2]
	if !g.inCube(x, y, z) || g.HasBomb(x, y, z) {
		return 0, false
	}
	for o := range g.Players() {
		q := g.Player(o)
		if o == seat || !q.InPlay {
			continue
		}
		switch abs(q.X-x) + abs(q.Y-y) + abs(q.Z-z) {
		case 0:
			return 0, false
		case 1:
			near = 1
		}
	}
	return near, true
}

// TestDodgerBombsBotsStandingStill: after a cycle's first tick every task
// of the dodger is a bomb or NOOP; a bomb lies on the cell of another bot
// in play that holds no bomb, and from the cycle's third tick on only on a
// bot that stood still in the tick before. NOOP only when no bot qualifies.
func TestDodgerBombsBotsStandingStill(t *testing.T) {
	for _, other := range []string{"teebot", "stalker", "dumb"} {
		t.Run(other, func(t *testing.T) {
			bombs := 0
			for seed := range uint64(20) {
				seat := int(seed % 4)
				dodgerGame(t, "battlecube/tasks3", seat, other, 7000+seed, func(g *Game, a Action, before [MaxPlayers][3]int) {
					sub := g.SubTick()
					if sub == 1 || !g.Player(seat).InPlay {
						return
					}
					target := -1
					for o := range g.Players() {
						q := g.Player(o)
						if o == seat || !q.InPlay || g.HasBomb(q.X, q.Y, q.Z) || (sub > 2 && before[o] != [3]int{q.X, q.Y, q.Z}) {
							continue
						}
						if x, y, z, ok := BombCell(g.Edge(), a); ok && a >= NumFixedActions && [3]int{x, y, z} == [3]int{q.X, q.Y, q.Z} {
							target = o
						} else if target < 0 {
							target = -2 // one qualifies
						}
					}
					switch {
					case a == Noop && target == -2, a != Noop && a < NumFixedActions, a >= NumFixedActions && target < 0:
						t.Fatalf("seed %d tick %d (sub %d): task %d", seed, g.Tick(), sub, a)
					case a >= NumFixedActions:
						bombs++
					}
				})
			}
			if bombs == 0 {
				t.Fatal("no bomb checked")
			}
		})
	}
}

// TestDodgerPlaysAsStalkerWithOneTask: with one task per tick the dodger's
// tasks are the stalker's, seed for seed.
func TestDodgerPlaysAsStalkerWithOneTask(t *testing.T) {
	for _, tc := range []struct {
		cfg    string
		others []string
	}{{`{"players":4}`, []string{"teebot", "stalker", "dumb"}}, {`{"players":2}`, []string{"teebot"}}} {
		_, a := playBattlecube(t, tc.cfg, append([]string{"dodger"}, tc.others...)...)
		_, b := playBattlecube(t, tc.cfg, append([]string{"stalker"}, tc.others...)...)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: the dodger's game differs from the stalker's", tc.cfg)
		}
	}
}

func TestDodgerDeterministicAndAllocationFree(t *testing.T) {
	for _, cfg := range []string{`{"players":4,"tasks_per_tick":3}`, `{"players":4}`} {
		_, a := playBattlecube(t, cfg, "dodger", "teebot", "dodger", "stalker")
		_, b := playBattlecube(t, cfg, "dodger", "teebot", "dodger", "stalker")
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s: traces differ", cfg)
		}
		e, _ := env.Make("battlecube", []byte(cfg))
		e.Reset(3)
		d := testutil.Agent(t, "battlecube", "dodger", e.Spec())
		d.Reset(e, 0, 1)
		d.Act(e, 0)
		if n := testing.AllocsPerRun(50, func() { d.Act(e, 0) }); n != 0 {
			t.Errorf("%s: %v allocations per Act", cfg, n)
		}
	}
}
