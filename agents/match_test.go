package agents

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/env"
)

// playMatch plays one Bomberman match of the given agents (one per seat)
// and returns the result. It fails the test on an action out of range.
func playMatch(t *testing.T, names []string, seed uint64) env.Result {
	t.Helper()
	if _, err := env.Default.Lookup("bomberman"); err != nil {
		t.Skip("bomberman is not registered in this build")
	}
	e, err := env.Make("bomberman", fmt.Appendf(nil, `{"players":%d}`, len(names)))
	if err != nil {
		t.Fatal(err)
	}
	spec := e.Spec()
	as := make([]env.Agent, len(names))
	for seat, n := range names {
		if as[seat], err = New("bomberman", n, spec); err != nil {
			t.Fatal(err)
		}
	}
	e.Reset(seed)
	for seat, a := range as {
		a.Reset(e, seat, seed*31+uint64(seat))
	}
	n := len(names)
	actions, rewards := make([]int32, n), make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	for !e.Done() {
		for seat, a := range as {
			actions[seat] = a.Act(e, seat)
			if actions[seat] < 0 || int(actions[seat]) >= spec.Actions {
				t.Fatalf("seed %d round %d seat %d (%s): action %d out of range", seed, e.Steps(), seat, names[seat], actions[seat])
			}
		}
		e.Step(actions, rewards, term, trunc)
	}
	return e.Result()
}

// winRate plays reference against opp over seeds, alternating seats, and
// returns the fraction of matches the reference bot won outright.
func winRate(t *testing.T, opp string, seeds int) float64 {
	wins := 0
	for seed := range uint64(seeds) {
		names, ref := []string{"reference", opp}, 0
		if seed%2 == 1 {
			names, ref = []string{opp, "reference"}, 1
		}
		if res := playMatch(t, names, seed); res.Winner == ref && !res.Draw {
			wins++
		}
	}
	return float64(wins) / float64(seeds)
}

func TestReferenceBeatsRandom(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	rate := winRate(t, "random", seeds)
	t.Logf("reference beat random in %.0f%% of %d 2-player matches", 100*rate, seeds)
	if rate < 0.6 {
		t.Errorf("reference beat random in only %.0f%% of matches", 100*rate)
	}
}

func TestReferenceBeatsIdle(t *testing.T) {
	rate := winRate(t, "idle", 6)
	t.Logf("reference beat idle in %.0f%% of 6 matches", 100*rate)
	if rate < 0.8 {
		t.Errorf("reference beat idle in only %.0f%% of matches", 100*rate)
	}
}

func TestReferenceFourPlayers(t *testing.T) {
	for seed := range uint64(3) {
		playMatch(t, []string{"reference", "random", "reference", "idle"}, seed)
	}
}

func TestReferenceDeterministic(t *testing.T) {
	names := []string{"reference", "random", "reference", "random"}
	a, b := playMatch(t, names, 11), playMatch(t, names, 11)
	if a.Rounds != b.Rounds || a.Winner != b.Winner || len(a.Standings) != len(b.Standings) {
		t.Fatalf("same seed, different results: %+v vs %+v", a, b)
	}
	for i := range a.Standings {
		if a.Standings[i] != b.Standings[i] {
			t.Errorf("standing %d: %+v vs %+v", i, a.Standings[i], b.Standings[i])
		}
	}
}

func TestAgentsNoAllocsInMatch(t *testing.T) {
	if _, err := env.Default.Lookup("bomberman"); err != nil {
		t.Skip("bomberman is not registered in this build")
	}
	e, err := env.Make("bomberman", nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(3)
	for _, name := range []string{"idle", "random", "reference"} {
		a, err := New("bomberman", name, e.Spec())
		if err != nil {
			t.Fatal(err)
		}
		a.Reset(e, 1, 5)
		a.Act(e, 1)
		if n := testing.AllocsPerRun(20, func() { a.Act(e, 1) }); n != 0 {
			t.Errorf("%s: Act allocates %v times per call", name, n)
		}
	}
}
