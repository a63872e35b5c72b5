package match_test

import (
	"context"
	"slices"
	"testing"

	"github.com/botarena/botarena/agents/cmdbot"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

// newMatch makes the match of game with seed and the agents named, seat 0
// first, in a new env of the game's defaults; it is closed when the test
// ends.
func newMatch(t *testing.T, game string, names []string, seed uint64) *match.Match {
	t.Helper()
	e, err := env.Default.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	ags, err := match.NewAgents(game, names, e.Spec(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &match.Match{Env: e, Agents: ags, Seed: seed}
	t.Cleanup(func() { m.Close() })
	return m
}

// playTo plays game with seed and agents named, seat 0 first, to the end
// or maxRounds (when positive), and returns the env.
func playTo(t *testing.T, game string, names []string, seed uint64, maxRounds int) env.Env {
	t.Helper()
	m := newMatch(t, game, names, seed)
	m.MaxRounds = maxRounds
	if _, err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m.Env
}

func TestFingerprintTellsEndingsApart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		game  string
		a, b  []string // agents of the two games
		seeds [2]uint64
		same  bool
	}{
		// BattleBots has one arena: deterministic bots end alike whatever the seed.
		{"deterministic_bots_on_a_fixed_map", "battlebots", []string{"huggy", "nop"}, []string{"huggy", "nop"}, [2]uint64{1, 2}, true},
		{"same_seed_same_random_game", "bomberman/2p", []string{"random", "reference"}, []string{"random", "reference"}, [2]uint64{7, 7}, true},
		{"other_seed_other_map", "bomberman/2p", []string{"idle", "idle"}, []string{"idle", "idle"}, [2]uint64{7, 8}, false},
		{"seats_swapped", "battlebots", []string{"huggy", "nop"}, []string{"nop", "huggy"}, [2]uint64{1, 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fa := match.Fingerprint(playTo(t, tc.game, tc.a, tc.seeds[0], 0))
			fb := match.Fingerprint(playTo(t, tc.game, tc.b, tc.seeds[1], 0))
			if (fa == fb) != tc.same {
				t.Errorf("fingerprints %x and %x: same %v, want %v", fa, fb, fa == fb, tc.same)
			}
		})
	}
}

func TestFingerprintDependsOnTheStepAndNotOnNames(t *testing.T) {
	short := match.Fingerprint(playTo(t, "bomberman/2p", []string{"idle", "idle"}, 3, 5))
	long := match.Fingerprint(playTo(t, "bomberman/2p", []string{"idle", "idle"}, 3, 6))
	if short == long {
		t.Error("5 and 6 idle rounds give one fingerprint")
	}
	named, err := env.Default.Make("bomberman/2p", []byte(`{"names":["Ada","Bob"]}`))
	if err != nil {
		t.Fatal(err)
	}
	named.Reset(3)
	plain, _ := env.Default.Make("bomberman/2p", nil)
	plain.Reset(3)
	if match.Fingerprint(named) != match.Fingerprint(plain) {
		t.Error("the players' names change the fingerprint")
	}
}

// faulty is an agent that reports faults, as external bots do.
type faulty struct {
	fixed
	faults match.Faults
}

func (a *faulty) Faults() match.Faults { return a.faults }

var _ match.FaultCounter = (*faulty)(nil)

func TestRunReportsFaultsOfAgentsThatCountThem(t *testing.T) {
	for _, tc := range []struct {
		name string
		ags  []env.Agent
		want []match.SeatFaults
	}{
		{"none_count", agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1}), nil},
		{"one_counts", []env.Agent{&fixed{panicAt: -1}, &faulty{fixed: fixed{panicAt: -1}, faults: match.Faults{TimedOut: 3, Crashed: 1, Invalid: 2}}},
			[]match.SeatFaults{{Seat: 1, Agent: "b", Faults: match.Faults{TimedOut: 3, Crashed: 1, Invalid: 2}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &match.Match{Env: newCounter(2, 2), Agents: tc.ags, Seed: 1, Names: []string{"a", "b"}}
			res, err := m.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Faults, tc.want) {
				t.Errorf("Faults = %v, want %v", res.Faults, tc.want)
			}
		})
	}
}

// A command-line bot counts its faults.
var _ match.FaultCounter = (*cmdbot.Bot)(nil)
