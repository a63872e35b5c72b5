package games_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
)

// appendCases are pairs of configs of one game that differ only in
// append-only fields, the first's observations prefixes of the second's
// (env.ObsPrefix): every declared field is raised from its zero value and
// from a non-zero one where it has one, alone and beside the game's other
// append-only fields of the same tensor.
var appendCases = []struct {
	game     string
	from, to string // config JSON
}{
	{"battlebots", `{}`, `{"history":1}`},
	{"battlebots", `{}`, `{"history":8}`},
	{"battlebots", `{"history":2}`, `{"history":5}`},
	{"battlebots", `{"arena":"10x10","history":1}`, `{"arena":"10x10","history":3}`},
	{"battlecube", `{}`, `{"history":true}`},
	{"battlecube", `{}`, `{"cycle_marks":true}`},
	{"battlecube", `{}`, `{"tasks_scalar":true}`},
	{"battlecube", `{}`, `{"history":true,"cycle_marks":true,"tasks_scalar":true}`},
	{"battlecube", `{"history":true}`, `{"history":true,"tasks_scalar":true}`},
	{"battlecube", `{"history":true}`, `{"history":true,"cycle_marks":true}`},
	{"battlecube", `{"history":true,"cycle_marks":true}`, `{"history":true,"cycle_marks":true,"tasks_scalar":true}`},
	{"battlecube/2p", `{"safe_mask":true}`, `{"safe_mask":true,"history":true}`},
	{"battlecube/tasks3", `{"cycle_marks":true}`, `{"cycle_marks":true,"tasks_scalar":true}`},
	{"bomberman/2p", `{}`, `{"touched_planes":true}`},
	{"bomberman/2p", `{}`, `{"opponent_scalars":true}`},
	{"bomberman", `{}`, `{"touched_planes":true,"opponent_scalars":true}`},
	{"bomberman/2p", `{"view_radius":11,"safe_mask":true}`, `{"view_radius":11,"safe_mask":true,"touched_planes":true}`},
	{"bomberman/8p", `{"touched_planes":true}`, `{"touched_planes":true,"opponent_scalars":true}`},
	{"bomberman/2p", `{"view_radius":4,"opponent_scalars":true}`, `{"view_radius":4,"opponent_scalars":true,"touched_planes":true}`},
	{"battleships", `{}`, `{"density_plane":true}`},
	{"battleships/small", `{"placement":"learn","shot_mask":true}`, `{"placement":"learn","shot_mask":true,"density_plane":true}`},
	{"battleships/large", `{"placement":"reference"}`, `{"placement":"reference","density_plane":true}`},
}

// TestAppendOnlyFieldsOnlyAppend checks the rule of env.AppendField for
// every field a game declares append-only (obs:"append TENSOR"): over
// random games from the same seeds with the same actions, the env of the
// smaller config sees, seat by seat and step by step, the first bytes of
// what the larger one sees in the declared tensor, the same bytes in the
// others, and the same masks, rewards and endings. Every declared field
// of every registered game must be raised by a case.
func TestAppendOnlyFieldsOnlyAppend(t *testing.T) {
	t.Parallel()
	raised := map[string]bool{} // "base/field"
	for _, tc := range appendCases {
		t.Run(fmt.Sprintf("%s%s→%s", tc.game, tc.from, tc.to), func(t *testing.T) {
			entry, err := env.Default.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			make := func(config string) (env.Config, env.Env) {
				t.Helper()
				cfg, err := env.Default.Config(tc.game, []byte(config))
				if err != nil {
					t.Fatal(err)
				}
				e, err := entry.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				return cfg, e
			}
			from, a := make(tc.from)
			to, b := make(tc.to)
			fields, err := env.AppendFields(from)
			if err != nil {
				t.Fatal(err)
			}
			if !env.ObsPrefix(fields, from, to) {
				t.Fatalf("env.ObsPrefix(%s, %s) is false: not a case of the rule", tc.from, tc.to)
			}
			grows := map[string]bool{}
			for _, f := range fields {
				if f.Value(to) > f.Value(from) {
					raised[env.BaseGame(tc.game)+"/"+f.Name] = true
					grows[f.Tensor] = true
				}
			}
			if len(grows) == 0 {
				t.Fatal("the case raises no append-only field")
			}
			sa, sb := a.Spec(), b.Spec()
			if len(sa.Obs) != len(sb.Obs) || sa.Seats != sb.Seats || sa.Actions != sb.Actions {
				t.Fatalf("specs differ beyond the declared tensors: %d and %d tensors, %d and %d seats, %d and %d actions", len(sa.Obs), len(sb.Obs), sa.Seats, sb.Seats, sa.Actions, sb.Actions)
			}
			for i, ta := range sa.Obs {
				tb := sb.Obs[i]
				same := ta.Name == tb.Name && ta.DType == tb.DType && slices.Equal(ta.Shape[1:], tb.Shape[1:])
				if !same || (!grows[ta.Name] && ta.Shape[0] != tb.Shape[0]) || tb.Shape[0] < ta.Shape[0] {
					t.Fatalf("tensor %d: %s %s%s becomes %s %s%s (declared to grow: %v)", i, ta.Name, ta.DType, ta.ShapeString(), tb.Name, tb.DType, tb.ShapeString(), grows)
				}
			}
			compareAppended(t, a, b)
		})
	}
	t.Run("every declared field has a case", func(t *testing.T) {
		for _, name := range env.Default.Names() {
			cfg, err := env.Default.Config(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			fields, err := env.AppendFields(cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, f := range fields {
				if key := env.BaseGame(name) + "/" + f.Name; !raised[key] {
					t.Errorf("%s declares %s append-only (obs:\"append %s\"), and no case of appendCases raises it", name, f.Name, f.Tensor)
				}
			}
		}
	})
}

// compareAppended plays a and b from the same seeds with the same actions
// (mostly legal ones, drawn from a's masks) and fails t unless every
// observation of a is a byte prefix of b's, tensor by tensor, and the
// masks, rewards and endings agree.
func compareAppended(t *testing.T, a, b env.Env) {
	t.Helper()
	sa, sb := a.Spec(), b.Spec()
	seats := sa.Seats
	oa, ob := make([][][]byte, seats), make([][][]byte, seats)
	for s := range seats {
		oa[s], ob[s] = sa.NewObsBuffers(), sb.NewObsBuffers()
	}
	ma, mb := make([]uint8, sa.Actions), make([]uint8, sb.Actions)
	check := func(when string) {
		t.Helper()
		for s := range seats {
			a.WriteObs(s, oa[s])
			b.WriteObs(s, ob[s])
			for i := range oa[s] {
				if !bytes.HasPrefix(ob[s][i], oa[s][i]) {
					t.Fatalf("%s: seat %d: tensor %q: the larger config's first %d bytes differ from the smaller's", when, s, sa.Obs[i].Name, len(oa[s][i]))
				}
			}
			a.WriteMask(s, ma)
			b.WriteMask(s, mb)
			if !bytes.Equal(ma, mb) {
				t.Fatalf("%s: seat %d: the masks differ", when, s)
			}
		}
	}
	rng := rand.New(rand.NewPCG(34, 32))
	actions := make([]int32, seats)
	ra, rb := make([]float32, seats), make([]float32, seats)
	ta, tb := make([]bool, seats), make([]bool, seats)
	ua, ub := make([]bool, seats), make([]bool, seats)
	for range 3 {
		seed := rng.Uint64()
		a.Reset(seed)
		b.Reset(seed)
		check(fmt.Sprintf("seed %d, reset", seed))
		for step := 0; step < 150 && !a.Done(); step++ {
			for s := range actions {
				a.WriteMask(s, ma)
				actions[s] = rng.Int32N(int32(sa.Actions))
				for k := 0; k < 16 && rng.IntN(8) > 0 && ma[actions[s]] == 0; k++ {
					actions[s] = rng.Int32N(int32(sa.Actions))
				}
			}
			a.Step(actions, ra, ta, ua)
			b.Step(actions, rb, tb, ub)
			when := fmt.Sprintf("seed %d, step %d", seed, step)
			if !slices.Equal(ra, rb) || !slices.Equal(ta, tb) || !slices.Equal(ua, ub) || a.Done() != b.Done() {
				t.Fatalf("%s: rewards %v and %v, terminated %v and %v, truncated %v and %v, done %v and %v", when, ra, rb, ta, tb, ua, ub, a.Done(), b.Done())
			}
			check(when)
		}
	}
}
