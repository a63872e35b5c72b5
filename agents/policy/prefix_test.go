package policy

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// prefixPolicy writes a small random policy trained, as its file says, on
// game with config trained (JSON), with the inputs that config gives, or
// with scalars scalars when scalars is above 0 (a file whose inputs do
// not match its config), and loads it.
func prefixPolicy(t *testing.T, game, trained string, scalars int) *Model {
	t.Helper()
	e, err := env.Default.Make(game, []byte(trained))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := e.Spec().Tensor("planes")
	s, _ := e.Spec().Tensor("scalars")
	n := netSpec{game: game, planes: p.Shape, scalars: s.Len(), actions: e.Spec().Actions, channels: []int{4}, hidden: 16}
	if scalars > 0 {
		n.scalars = scalars
	}
	arch, tensors := n.build(3)
	arch["config"] = json.RawMessage(trained)
	path := filepath.Join(t.TempDir(), "prefix.policy.safetensors")
	if err := os.WriteFile(path, encodePolicy(arch, tensors), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCheckAcceptsAppendOnlyPrefixes: a policy plays a config whose
// observations are longer than its inputs only when the extra comes from
// raising append-only fields of the config it records (env.AppendField),
// and then acts, allocation-free, on the first elements of each tensor:
// its logits are those of the same state in its own config, bit for bit.
func TestCheckAcceptsAppendOnlyPrefixes(t *testing.T) {
	for _, tc := range []struct {
		name, game, trained, played string
		scalars                     int    // the policy's scalars, when not its config's
		err                         string // "" when it fits
	}{
		{"battlebots_history_0_in_8", "battlebots", `{}`, `{"history":8}`, 0, ""},
		{"battlebots_history_2_in_5", "battlebots", `{"history":2,"hp_reward":0.1}`, `{"history":5}`, 0, ""},
		{"battlebots_10x10_history", "battlebots/10x10", `{}`, `{"history":1}`, 0, ""},
		{"battlecube_none_in_all", "battlecube", `{}`, `{"history":true,"cycle_marks":true,"tasks_scalar":true}`, 0, ""},
		{"battlecube_history_in_history_tasks", "battlecube", `{"history":true}`, `{"history":true,"tasks_scalar":true}`, 0, ""},
		{"battleships_density", "battleships/small", `{"placement":"learn"}`, `{"placement":"learn","density_plane":true}`, 0, ""},
		{"battlebots_history_5_in_2", "battlebots", `{"history":5}`, `{"history":2}`, 0, "scalars float32[56], policy wants float32[134]"},
		{"battlecube_cycle_marks_under_history", "battlecube", `{"cycle_marks":true}`, `{"history":true,"cycle_marks":true}`, 0, "do not come from raising append-only config fields"},
		{"battlecube_tasks_under_cycle_marks", "battlecube", `{"tasks_scalar":true}`, `{"cycle_marks":true,"tasks_scalar":true}`, 0, "do not come from raising append-only config fields"},
		{"inputs_not_its_config", "battlebots", `{"history":2}`, `{"history":8}`, 4, "do not come from raising append-only config fields"},
		{"other_game", "battlebots", `{}`, ``, 0, "does not fit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := prefixPolicy(t, tc.game, tc.trained, tc.scalars)
			game := tc.game
			if tc.name == "other_game" {
				game = "bomberman/2p"
			}
			e, err := env.Default.Make(game, []byte(tc.played))
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewAgent(m, e.Spec(), false)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			own, err := env.Default.Make(game, []byte(tc.trained))
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewAgent(m, own.Spec(), false)
			if err != nil {
				t.Fatal(err)
			}
			e.Reset(11)
			own.Reset(11)
			a.Reset(e, 0, 1)
			b.Reset(own, 0, 1)
			acts := make([]int32, e.Spec().Seats)
			rw := make([]float32, len(acts))
			term, trunc := make([]bool, len(acts)), make([]bool, len(acts))
			for step := 0; step < 20 && !e.Done(); step++ {
				for s := range acts {
					acts[s] = a.Act(e, s)
					if got := b.Act(own, s); got != acts[s] {
						t.Fatalf("step %d, seat %d: action %d in the longer config, %d in the policy's own", step, s, acts[s], got)
					}
					la, lb := a.one.b.Logits(0), b.one.b.Logits(0)
					for i := range la {
						if math.Float64bits(la[i]) != math.Float64bits(lb[i]) {
							t.Fatalf("step %d, seat %d: logit %d is %v in the longer config, %v in the policy's own", step, s, i, la[i], lb[i])
						}
					}
				}
				e.Step(acts, rw, term, trunc)
				own.Step(acts, rw, term, trunc)
			}
			if raceEnabled {
				return
			}
			if n := testing.AllocsPerRun(20, func() { a.Act(e, 0) }); n != 0 {
				t.Errorf("Act allocates %v times", n)
			}
		})
	}
}
