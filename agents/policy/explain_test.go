package policy

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/internal/testutil"
)

// TestExplainReportsTheActionPlayed: in every state of a game, the
// explanation's chosen action is the one the agent then plays, for the
// arg-max, sampling and a temperature (whose draws the explainer must not
// advance), with the agent playing the same game as without an explainer;
// its top actions are legal, most probable first.
func TestExplainReportsTheActionPlayed(t *testing.T) {
	for _, tc := range []struct{ game, fixture string }{{"battlebots", "battlebots"}, {"battleships/small", "battleships"}} {
		for _, suffix := range []string{"", "?sample", "?temp=0.5"} {
			t.Run(tc.fixture+suffix, func(t *testing.T) {
				spec := "policy:" + filepath.Join("testdata", tc.fixture+".policy.safetensors") + suffix
				run := func(explain bool) []int32 {
					e := testutil.NewEnv(t, tc.game, 5)
					a, err := agents.New(tc.game, spec, e.Spec())
					if err != nil {
						t.Fatal(err)
					}
					a.Reset(e, 0, 9)
					x := NewExplainer(a.(*Agent))
					mask := make([]uint8, e.Spec().Actions)
					acts := make([]int32, 2)
					rew, term, trunc := make([]float32, 2), make([]bool, 2), make([]bool, 2)
					var played []int32
					for !e.Done() && len(played) < 60 {
						var ex Explanation
						if explain {
							ex = x.Explain(e, 0, 5)
						}
						acts[0] = a.Act(e, 0)
						played = append(played, acts[0])
						if !explain {
							e.Step(acts, rew, term, trunc)
							continue
						}
						if ex.Chosen != acts[0] {
							t.Fatalf("round %d: explained %d, played %d", len(played)-1, ex.Chosen, acts[0])
						}
						e.WriteMask(0, mask)
						if len(ex.Top) == 0 || len(ex.Top) > 5 || ex.Legal < len(ex.Top) || ex.ChosenProb <= 0 || math.IsNaN(ex.Value) {
							t.Fatalf("round %d: %+v", len(played)-1, ex)
						}
						for i, ap := range ex.Top {
							if ap.Prob <= 0 || (i > 0 && ap.Prob > ex.Top[i-1].Prob) || (ex.Legal < len(mask) && mask[ap.Action] == 0) {
								t.Fatalf("round %d: top %+v is not legal actions, most probable first", len(played)-1, ex.Top)
							}
						}
						if suffix == "" && ex.Top[0].Prob != ex.ChosenProb {
							t.Errorf("round %d: the arg-max played %d (p=%v), the top action is %+v", len(played)-1, ex.Chosen, ex.ChosenProb, ex.Top[0])
						}
						e.Step(acts, rew, term, trunc)
					}
					return played
				}
				if with, without := run(true), run(false); !slices.Equal(with, without) {
					t.Errorf("the explained agent played %v, alone %v", with, without)
				}
			})
		}
	}
}

// TestExplainValueIsTheValueHead: a network whose value layer is a copy of
// the policy layer's first row estimates, as its value, the first logit.
func TestExplainValueIsTheValueHead(t *testing.T) {
	arch, tensors := battlebotsNet.build(7)
	w, b := tensors["policy.0.weight"], tensors["policy.0.bias"]
	hidden := w.shape[1]
	tensors["value.0.weight"] = testTensor{shape: []int{1, hidden}, data: append([]float64(nil), w.data[:hidden]...)}
	tensors["value.0.bias"] = testTensor{shape: []int{1}, data: []float64{b.data[0]}}
	m, err := Decode("copied-value", encodePolicy(arch, tensors))
	if err != nil {
		t.Fatal(err)
	}
	e := testutil.NewEnv(t, "battlebots", 3)
	a, err := NewAgent(m, e.Spec(), false)
	if err != nil {
		t.Fatal(err)
	}
	ex := NewExplainer(a).Explain(e, 1, 3)
	batch := m.NewBatch(1)
	s := newScratch(m, e.Spec(), 1)
	s.gather(0, e, 1)
	copy(batch.Planes(0), s.b.Planes(0))
	copy(batch.Scalars(0), s.b.Scalars(0))
	copy(batch.Mask(0), s.b.Mask(0))
	batch.Forward(1)
	if want := batch.Logits(0)[0]; math.Abs(ex.Value-want) > 1e-12 || ex.Value == 0 {
		t.Errorf("value %v, want the first logit %v", ex.Value, want)
	}
	if got := m.ExplainBytes(); got < int64(8*m.Features()) {
		t.Errorf("ExplainBytes %d: less than the trunk's input", got)
	}
}
