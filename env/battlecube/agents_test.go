package battlecube

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// playBattlecube plays one game of battlecube with cfg between the named
// agents and returns it with its trace of actions.
func playBattlecube(t *testing.T, cfg string, names ...string) (env.Env, []int32) {
	t.Helper()
	return testutil.PlayNamed(t, "battlecube", cfg, nil, names, 5, func(seat int) uint64 { return uint64(100 + seat) })
}

func TestBattlecubeAgentsDeterministic(t *testing.T) {
	for _, cfg := range []string{`{"players":4}`, `{"players":4,"tasks_per_tick":3}`, `{"players":4,"tasks_per_tick":5,"edge":6}`} {
		_, a := playBattlecube(t, cfg, "teebot", "dumb", "teebot", "dumb")
		_, b := playBattlecube(t, cfg, "teebot", "dumb", "teebot", "dumb")
		if len(a) != len(b) {
			t.Fatalf("%s: traces differ in length", cfg)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: traces differ at %d", cfg, i)
			}
		}
	}
}

func TestTeebotMovesToTheBestNeighbour(t *testing.T) {
	// One task per tick: teebot only moves, to the neighbour farthest from
	// everything (spec §8).
	e, err := env.Make("battlecube/2p", []byte(`{"start_positions":[[1,1,1],[2,1,1]],"edge":4}`))
	if err != nil {
		t.Fatal(err)
	}
	tb := NewTeebot(DefaultTeebotParams())
	tb.Reset(e, 0, 1)
	// Neighbours of (1,1,1) other than (2,1,1): -X (0,1,1) is 4 from the
	// other bot, ±Y and ±Z are 2; -X wins.
	if a := tb.Act(e, 0); Action(a) != MoveMinusX {
		t.Errorf("teebot's move %d, want -X", a)
	}
}

func TestBattlecubeAgentsDoNotAllocate(t *testing.T) {
	e, _ := env.Make("battlecube", []byte(`{"tasks_per_tick":3}`))
	e.Reset(3)
	tb := testutil.Agent(t, "battlecube", "teebot", e.Spec())
	d := testutil.Agent(t, "battlecube", "dumb", e.Spec())
	tb.Reset(e, 0, 1)
	d.Reset(e, 1, 1)
	if n := testing.AllocsPerRun(50, func() { tb.Act(e, 0); d.Act(e, 1) }); n != 0 {
		t.Errorf("%v allocations per Act", n)
	}
}

// TestTeebotMovesOnlyAtTheCycleStart: with T tasks per tick, teebot's
// moves are the first trunc(max(1, T/2)) tasks of its cycle and the rest
// are bombs (or NOOP when it has nothing to do), so from then to the
// cycle's end it stands on one cell, which a bomb placed there in those
// ticks hits (spec §8: moveDistance, then pickTargets).
func TestTeebotMovesOnlyAtTheCycleStart(t *testing.T) {
	for _, tc := range []struct{ tasks, moves int }{{2, 1}, {3, 1}, {4, 2}, {5, 2}} {
		cfg := DefaultConfig()
		cfg.TasksPerTick = tc.tasks
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*Teebot, cfg.Players)
		for i := range bots {
			bots[i] = NewTeebot(DefaultTeebotParams())
		}
		acts := make([]int32, cfg.Players)
		rew := make([]float32, cfg.Players)
		term, trunc := make([]bool, cfg.Players), make([]bool, cfg.Players)
		late := 0
		for game := range uint64(50) {
			g.Reset(game)
			for i, b := range bots {
				b.Reset(g, i, game*16+uint64(i))
			}
			for !g.Done() {
				sub := g.SubTick()
				for s, b := range bots {
					acts[s] = b.Act(g, s)
					a := Action(acts[s])
					if g.Player(s).InPlay && a > Noop && a < NumFixedActions && sub > tc.moves {
						late++
					}
				}
				g.Step(acts, rew, term, trunc)
			}
		}
		if late != 0 {
			t.Errorf("tasks_per_tick %d: %d teebot moves after the cycle's first %d tasks", tc.tasks, late, tc.moves)
		}
	}
}
