package battlecube

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// playAlone plays one game of game with me in seat and the built-in agent
// other in every other seat (agent seeds seed*31+seat), calling check, when
// not nil, before every tick's step with the actions chosen; it returns the
// game.
func playAlone(t *testing.T, game string, seat int, me env.Agent, other string, seed uint64, check func(g *Game, acts []int32)) *Game {
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
			agents[s] = me
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
	for !g.Done() {
		for s, a := range agents {
			acts[s] = a.Act(g, s)
		}
		if check != nil {
			check(g, acts)
		}
		g.Step(acts, rew, term, trunc)
	}
	return g
}

// winsOf plays n games, play(k) for k = 0..n−1, and counts those seat won
// (the last bot in play).
func winsOf(seat, n int, play func(k uint64) *Game) int {
	wins := 0
	for k := range uint64(n) {
		if w, draw := play(k).Outcome(); !draw && w == seat {
			wins++
		}
	}
	return wins
}

// stalkerGame plays one game of game with the stalker in seat and teebots
// (or other) elsewhere, checking every move of the stalker against the
// bombs it saw at its cycle's start; it returns the game and the stalker.
func stalkerGame(t *testing.T, game string, seat int, other string, seed uint64) (*Game, *Stalker) {
	t.Helper()
	st := NewStalker()
	var seen []bool
	g := playAlone(t, game, seat, st, other, seed, func(g *Game, acts []int32) {
		if len(seen) == 0 {
			seen = make([]bool, g.Edge()*g.Edge()*g.Edge())
		}
		if g.SubTick() == 1 {
			for i := range seen {
				seen[i] = false
			}
			g.EachItem(func(it Item) {
				if g.inCube(int(it.X), int(it.Y), int(it.Z)) {
					seen[g.index(int(it.X), int(it.Y), int(it.Z))] = true
				}
			})
		}
		if me := g.Player(seat); me.InPlay && acts[seat] > int32(Noop) && acts[seat] < int32(NumFixedActions) {
			d := moveDelta[acts[seat]]
			x, y, z := me.X+d[0], me.Y+d[1], me.Z+d[2]
			if !g.inCube(x, y, z) || seen[g.index(x, y, z)] || g.HasBomb(x, y, z) {
				t.Fatalf("%s seed %d tick %d: the stalker steps from (%d,%d,%d) into a known bomb or out of the cube", game, seed, g.Tick(), me.X, me.Y, me.Z)
			}
		}
	})
	return g, st
}

// TestStalkerBeatsTeebotFromEverySeat: against teebot (one, or three in a
// 4-bot cube, one task per tick or three) the stalker wins at least 80% of
// 20 fixed seeds from each seat, and never steps into a bomb it saw.
func TestStalkerBeatsTeebotFromEverySeat(t *testing.T) {
	for _, game := range []string{"battlecube/2p", "battlecube", "battlecube/tasks3"} {
		e, _ := env.Make(game, nil)
		for seat := range e.(*Game).Players() {
			t.Run(fmt.Sprintf("%s/seat%d", game, seat), func(t *testing.T) {
				wins := winsOf(seat, 20, func(k uint64) *Game {
					g, _ := stalkerGame(t, game, seat, "teebot", 1000+k)
					return g
				})
				if wins < 16 {
					t.Errorf("the stalker won %d of 20", wins)
				}
			})
		}
	}
}

// TestStalkerNeverStepsIntoAKnownBomb: against bots that bomb at random
// (dumb, which fills the cube with bombs) and against itself, no move of
// the stalker enters a cell that held a bomb at its cycle's start.
func TestStalkerNeverStepsIntoAKnownBomb(t *testing.T) {
	for _, tc := range []struct{ game, other string }{
		{"battlecube/2p", "dumb"}, {"battlecube", "dumb"}, {"battlecube/tasks3", "dumb"}, {"battlecube/tasks3", "teebot"},
	} {
		t.Run(tc.game+"/"+tc.other, func(t *testing.T) {
			for seed := range uint64(20) {
				stalkerGame(t, tc.game, int(seed%2), tc.other, 2000+seed) // fails on a bad step
			}
		})
	}
}

// TestStalkerNeverFreezes: a task that is no predicted hit is a move (it
// stays put in at most 5% of its tasks), so in long games (4-bot cubes
// with three tasks, against itself, which it cannot predict) it moves in
// most of its tasks. Short games (a hit in the first tick) bomb instead.
func TestStalkerNeverFreezes(t *testing.T) {
	for _, tc := range []struct {
		game, other string
		long        bool
	}{
		{"battlecube/tasks3", "stalker", true}, {"battlecube", "stalker", false}, {"battlecube/2p", "dumb", false}, {"battlecube/tasks3", "dumb", false},
	} {
		t.Run(tc.game+"/"+tc.other, func(t *testing.T) {
			moves, stays, tasks := 0, 0, 0
			for seed := range uint64(10) {
				_, st := stalkerGame(t, tc.game, 0, tc.other, 3000+seed)
				moves, stays = moves+st.Moves, stays+st.Stays
				tasks += st.Moves + st.Bombs + st.Stays
			}
			if tasks == 0 || 20*stays > tasks || (tc.long && 2*moves <= tasks) {
				t.Errorf("%d moves and %d stays in %d tasks", moves, stays, tasks)
			}
			t.Logf("%d moves and %d stays in %d tasks", moves, stays, tasks)
		})
	}
}

func TestStalkerDeterministicAndAllocationFree(t *testing.T) {
	checkDeterministicAndAllocationFree(t, `{"players":4,"tasks_per_tick":3}`, "stalker", "teebot", "stalker", "dumb")
}

// checkDeterministicAndAllocationFree plays the named agents twice in a
// battlecube game of cfg, failing t when the traces differ, and fails t
// when the first agent's Act allocates after its first call.
func checkDeterministicAndAllocationFree(t *testing.T, cfg string, names ...string) {
	t.Helper()
	_, a := playBattlecube(t, cfg, names...)
	_, b := playBattlecube(t, cfg, names...)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("%s: traces differ", cfg)
	}
	e, _ := env.Make("battlecube", []byte(cfg))
	e.Reset(3)
	ag := testutil.Agent(t, "battlecube", names[0], e.Spec())
	ag.Reset(e, 0, 1)
	ag.Act(e, 0)
	if n := testing.AllocsPerRun(50, func() { ag.Act(e, 0) }); n != 0 {
		t.Errorf("%s: %v allocations per Act of %s", cfg, n, names[0])
	}
}
