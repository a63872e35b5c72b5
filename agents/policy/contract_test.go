package policy_test

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots"
	_ "github.com/botarena/botarena/env/battlecube"
	_ "github.com/botarena/botarena/env/battleships"
	_ "github.com/botarena/botarena/env/bomberman"
	_ "github.com/botarena/botarena/env/portalbomber"
	_ "github.com/botarena/botarena/internal/testgame"
)

// TestEveryRegisteredGameFollowsTheObservationContract checks every game
// linked here (the five shipped games, portal Bomberman and testgame, whose
// one int32 vector "scores" is not the version-1 layout) against the
// contract the trainer and the policy format take; the shipped games are
// also the layout Go's forward pass computes.
func TestEveryRegisteredGameFollowsTheObservationContract(t *testing.T) {
	names := env.Default.Names()
	if len(names) < 6 {
		t.Fatalf("only %d games registered: %v", len(names), names)
	}
	for _, name := range names {
		e, err := env.Make(name, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		spec := e.Spec()
		if err := policy.Contract(spec); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if want := env.BaseGame(name) != "testgame"; policy.GoPlays(spec) != want {
			t.Errorf("%s: GoPlays = %v, want %v (observations %v)", name, !want, want, spec.Obs)
		}
	}
}

func TestContractNamesEveryBrokenRule(t *testing.T) {
	for _, tc := range []struct {
		name string
		obs  []env.Tensor
		want []string
	}{
		{"no_tensor", nil, []string{"no observation tensor"}},
		{"rank_5", []env.Tensor{{Name: "x", DType: env.Uint8, Shape: []int{1, 2, 3, 4, 5}}}, []string{"tensor x has shape [1 2 3 4 5]: rank 1 to 4"}},
		{"rank_0", []env.Tensor{{Name: "x", DType: env.Float32}}, []string{"tensor x has shape []"}},
		{"zero_dimension", []env.Tensor{{Name: "x", DType: env.Float32, Shape: []int{3, 0}}}, []string{"every dimension at least 1"}},
		{"duplicate_and_unnamed", []env.Tensor{
			{Name: "a", DType: env.Int32, Shape: []int{2}},
			{Name: "a", DType: env.Int32, Shape: []int{2}},
			{DType: env.Int32, Shape: []int{2}},
		}, []string{`two tensors are named "a"`, "tensor 2 has no name"}},
		{"bad_dtype", []env.Tensor{{Name: "x", DType: env.DType(99), Shape: []int{2}}}, []string{"tensor x has dtype"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := env.Spec{Game: "g", Obs: tc.obs}
			err := policy.Contract(&spec)
			if err == nil {
				t.Fatal("Contract accepted it")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "policy: g does not follow the observation contract") {
				t.Errorf("error %q does not name the game first", err)
			}
		})
	}
}
