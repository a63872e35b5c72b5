package bomberman

import (
	"bytes"
	"testing"

	"github.com/botarena/botarena/env"
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

// TestPlannerObservedMove checks how the planner reads an opponent's last
// move from two states: a step, a plant where it stood, or staying.
func TestPlannerObservedMove(t *testing.T) {
	rows := []string{
		"#######",
		"#A...B#",
		"#.....#",
		"#######",
	}
	tests := []struct {
		name string
		act  Action // B's command
		want Action
	}{
		{"step_left", MoveLeft, MoveLeft},
		{"step_down", MoveDown, MoveDown},
		{"plant", PlaceBomb, PlaceBomb},
		{"nothing", DoNothing, DoNothing},
		{"into_a_wall_is_staying", MoveRight, DoNothing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := board(t, rows...)
			prev := &Game{}
			prev.CopyFrom(g)
			rw, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
			g.Step([]int32{int32(DoNothing), int32(tt.act)}, rw, te, tr)
			if got := observedMove(prev, g, 1); got != tt.want {
				t.Errorf("observed %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlannerModelsTheOpponentItPlays plays the planner against hunter and
// against harvester for 200 rounds: it must take each for what it is.
func TestPlannerModelsTheOpponentItPlays(t *testing.T) {
	tests := []struct {
		opp  string
		new  func() env.Agent
		hunt bool // the model the planner must end with
	}{
		{"hunter", func() env.Agent { return NewHunter() }, true},
		{"harvester", func() env.Agent { return NewHarvester() }, false},
	}
	for _, tt := range tests {
		t.Run(tt.opp, func(t *testing.T) {
			g, err := New(&Config{Players: 2, MaxRounds: 200})
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(7)
			p, o := NewPlanner(), tt.new()
			p.Reset(g, 0, 7)
			o.Reset(g, 1, 8)
			acts, rw := make([]int32, 2), make([]float32, 2)
			te, tr := make([]bool, 2), make([]bool, 2)
			for !g.Done() {
				acts[0], acts[1] = p.Act(g, 0), o.Act(g, 1)
				g.Step(acts, rw, te, tr)
			}
			t.Logf("after %d rounds: credit %d", g.Round(), p.credit[1])
			if p.hunt[1] != tt.hunt {
				t.Errorf("after %d rounds (%+v): credit %d, models %s as hunter: %v", g.Round(), g.Player(1), p.credit[1], tt.opp, p.hunt[1])
			}
		})
	}
}
