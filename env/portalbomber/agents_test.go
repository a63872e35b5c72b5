package portalbomber

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// playPB plays one portalbomber game between two agents and returns the
// winner (-1 for none).
func playPB(e env.Env, a [2]env.Agent, seed uint64) int {
	testutil.Play(e, a[:], seed, func(seat int) uint64 { return seed*2 + uint64(seat) })
	w, _ := e.Outcome()
	return w
}

// TestGreedyBeatsPractice shows the greedy bot's win rate against the
// original practice bot from both seats.
func TestGreedyBeatsPractice(t *testing.T) {
	e, err := env.Make("portalbomber", nil)
	if err != nil {
		t.Fatal(err)
	}
	const games = 40
	wins := 0
	for seed := range uint64(games) {
		greedy := testutil.Agent(t, "portalbomber", "greedy", e.Spec())
		practice := testutil.Agent(t, "portalbomber", "practice", e.Spec())
		seat := int(seed % 2)
		var a [2]env.Agent
		a[seat], a[1-seat] = greedy, practice
		if playPB(e, a, seed) == seat {
			wins++
		}
	}
	t.Logf("greedy beat practice in %d of %d games", wins, games)
	if wins < games*3/4 {
		t.Errorf("greedy won %d of %d games, want at least 75%%", wins, games)
	}
}

func TestPortalBomberAgents(t *testing.T) {
	e, _ := env.Make("portalbomber", nil)
	g := e.(*Game)
	p := testutil.Agent(t, "portalbomber", "practice", e.Spec())
	p.Reset(e, 1, 5)
	if a := p.Act(e, 1); a != 0 {
		t.Errorf("practice acted %d out of turn", a)
	}
	seen := map[int32]bool{}
	for range 500 {
		a := p.Act(e, 0)
		if a == int32(PlaceBomb) || a < 0 || a >= NumActions {
			t.Fatalf("practice played %d", a)
		}
		seen[a] = true
	}
	if len(seen) != 15 {
		t.Errorf("practice used %d distinct moves, want 15", len(seen))
	}
	gr := testutil.Agent(t, "portalbomber", "greedy", e.Spec())
	gr.Reset(e, 0, 1)
	if allocs := testing.AllocsPerRun(50, func() { gr.Act(g, 0) }); allocs != 0 {
		t.Errorf("greedy Act allocates %v times", allocs)
	}
	i := slices.IndexFunc(Kit{}.Agents(), func(a env.AgentInfo) bool { return a.Name == "greedy" })
	if i < 0 {
		t.Error("no greedy in the kit")
	} else if _, err := (Kit{}).Agents()[i].New(&env.Spec{Game: "bomberman"}); err == nil {
		t.Error("greedy accepts bomberman")
	}
}
