package bomberman

import (
	"bytes"
	"testing"
)

// plannerAct resets a planner for seat on g and returns its action.
func plannerAct(g *Game, seat int) Action { return agentAct(NewPlanner(), g, seat) }

// TestPlannerRules checks the planner's own rules; it shares most of
// hunter's (TestHunterRules runs them on the planner too).
func TestPlannerRules(t *testing.T) {
	tests := []struct {
		name   string
		rows   []string
		radius int  // A's blast radius
		plant  bool // whether A plants
	}{
		// B is in a dead end behind A: a bomb of radius 2 here reaches
		// both its cells, and A walks out of reach before the fuse ends.
		{"plants_when_the_bomb_kills_the_opponent", []string{
			"#########",
			"#B.A....#",
			"#########",
		}, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := board(t, tt.rows...)
			g.players[0].BombRadius = tt.radius
			g.stateChanged()
			if a := plannerAct(g, 0); (a == PlaceBomb) != tt.plant {
				t.Errorf("action %v, want a bomb: %v", a, tt.plant)
			}
		})
	}
}

// TestPlannerLeavesTheGameAsItWas checks that Act searches on copies: the
// game's state, observations and masks are the same before and after.
func TestPlannerLeavesTheGameAsItWas(t *testing.T) {
	g := play(t, 4, 8, 2, 70)
	n := g.Players()
	zr, zf := make([]float32, n), make([]bool, n)
	before := fingerprint(g, zr, zf, zf)
	p := NewPlanner()
	for s := range n {
		p.Reset(g, s, 4)
		p.Act(g, s)
	}
	if !bytes.Equal(before, fingerprint(g, zr, zf, zf)) {
		t.Fatal("Act changed the game")
	}
}

// TestPlannerIsDeterministic plays the first 40 rounds of two games twice
// from the same seeds.
func TestPlannerIsDeterministic(t *testing.T) {
	play := func(seed uint64) *Game {
		g, err := New(&Config{Players: 2, MaxRounds: 40})
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		a, b := NewPlanner(), NewHunter()
		a.Reset(g, 0, seed)
		b.Reset(g, 1, seed+1)
		acts, rw := make([]int32, 2), make([]float32, 2)
		te, tr := make([]bool, 2), make([]bool, 2)
		for !g.Done() {
			acts[0], acts[1] = a.Act(g, 0), b.Act(g, 1)
			g.Step(acts, rw, te, tr)
		}
		return g
	}
	for seed := range uint64(2) {
		a, b := play(seed), play(seed)
		if stateHash(a) != stateHash(b) {
			t.Errorf("seed %d: two games ended %d %+v %+v and %d %+v %+v", seed, a.Round(), a.Player(0), a.Player(1), b.Round(), b.Player(0), b.Player(1))
		}
	}
}

func TestPlannerActDoesNotAllocate(t *testing.T) {
	g := play(t, 2, 5, 1, 40)
	p := NewPlanner()
	p.Reset(g, 0, 1)
	if n := testing.AllocsPerRun(5, func() { p.act(g, 0) }); n != 0 {
		t.Fatalf("%v allocations per Act", n)
	}
}
