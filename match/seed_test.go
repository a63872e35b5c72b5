package match_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	_ "github.com/botarena/botarena/env/bomberman"  // registers bomberman
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/vecenv"
)

// trajectory is what a game of seed S played: every step's actions of all
// seats, and the result.
type trajectory struct {
	actions [][]int32
	result  env.Result
}

// played runs a match of seed with the agents named, seat 0 first.
func played(t *testing.T, game string, names []string, seed uint64) trajectory {
	t.Helper()
	var tr trajectory
	m := newMatch(t, game, names, seed)
	m.Hooks.Stepped = func(_ env.Env, _ int, s match.Step) error {
		tr.actions = append(tr.actions, slices.Clone(s.Actions))
		return nil
	}
	res, err := m.Run(context.Background())
	if err != nil || res.Forfeit != nil {
		t.Fatalf("Run: %+v, %v", res, err)
	}
	tr.result = res.Env()
	return tr
}

// pooled plays env 0's first episode of a one-env pool without learner
// seats, the agents named in its opponent seats; plan, when not nil, is
// that episode's plan.
func pooled(t *testing.T, game string, names []string, poolSeed uint64, plan *vecenv.EpisodePlan) trajectory {
	t.Helper()
	var tr trajectory
	opps := map[int]env.AgentFactory{}
	for seat, n := range names {
		opps[seat] = func(spec *env.Spec) (env.Agent, error) { return agents.New(game, n, spec) }
	}
	p, err := vecenv.New(vecenv.Config{Game: game, NumEnvs: 1, Seed: poolSeed, LearnerSeats: []int{}, Opponents: opps,
		Observer: recorder{&tr}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if plan != nil {
		if err := p.Plan(0, *plan); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for !p.EnvsEnded()[0] {
		if err := p.Step(nil); err != nil {
			t.Fatal(err)
		}
	}
	tr.result = p.Env(0).Result()
	return tr
}

type recorder struct{ tr *trajectory }

func (recorder) EpisodeStarted(int, env.Env) {}
func (r recorder) Stepped(_ int, _ env.Env, actions []int32, _ []float32, _, _ []bool) {
	r.tr.actions = append(r.tr.actions, slices.Clone(actions))
}

// TestOneSeed proves the one seed derivation: a match of seed S (what
// `botarena play --seed S`, league.LocalRunner, the match service and the
// viewer play) is the pool episode whose env was reset with S, with the
// same agents as the pool's opponents: a planned episode of seed S, and
// the first episode of a pool seeded P, whose seed is vecenv.EpisodeSeed(P,
// 0, 0). Random agents make the agents' seeds count too.
func TestOneSeed(t *testing.T) {
	for _, c := range []struct {
		game  string
		names []string
	}{
		{"bomberman", []string{"random", "reference", "random", "random"}},
		{"battlebots", []string{"random", "huggy"}},
	} {
		for _, seed := range []uint64{1, 12345} {
			t.Run(fmt.Sprintf("%s_seed_%d", c.game, seed), func(t *testing.T) {
				want := played(t, c.game, c.names, seed)
				if len(want.actions) == 0 {
					t.Fatal("no step played")
				}
				if got := pooled(t, c.game, c.names, 999, &vecenv.EpisodePlan{Seed: seed}); !reflect.DeepEqual(got, want) {
					t.Errorf("planned pool episode of seed %d: %d steps, %+v; match: %d steps, %+v", seed, len(got.actions), got.result, len(want.actions), want.result)
				}
				epSeed := vecenv.EpisodeSeed(seed, 0, 0)
				if got, want := pooled(t, c.game, c.names, seed, nil), played(t, c.game, c.names, epSeed); !reflect.DeepEqual(got, want) {
					t.Errorf("first episode of a pool seeded %d (episode seed %d): %d steps, %+v; match: %d steps, %+v", seed, epSeed, len(got.actions), got.result, len(want.actions), want.result)
				}
				if other := played(t, c.game, c.names, seed+1); reflect.DeepEqual(other, want) {
					t.Errorf("seeds %d and %d played the same game", seed, seed+1)
				}
			})
		}
	}
}
