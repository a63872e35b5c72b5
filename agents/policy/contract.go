package policy

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

// Contract reports whether spec's observation tensors follow the
// observation contract of botarena's trainer (python -m botarena.train)
// and of the policy format (docs/policy-format.md): the network walks the
// tensors the spec declares, in its order, and gives each an encoder by
// its rank, 2-D convolutions for a [C,H,W] tensor, 3-D convolutions for
// [C,D,H,W], and a flatten for a tensor of rank 1 or 2, so any game that
// follows it trains. It needs at least one tensor; every tensor needs a
// name no other has, a dtype the format reads (uint8, int32, float32),
// rank 1 to 4 and no dimension below 1. The error lists every problem,
// naming the game and the tensor.
func Contract(spec *env.Spec) error {
	var problems []string
	if len(spec.Obs) == 0 {
		problems = append(problems, "no observation tensor")
	}
	seen := map[string]bool{}
	for i, t := range spec.Obs {
		name := t.Name
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf("tensor %d has no name", i))
			name = fmt.Sprint(i)
		case seen[name]:
			problems = append(problems, fmt.Sprintf("two tensors are named %q", name))
		}
		seen[name] = true
		switch t.DType {
		case env.Uint8, env.Int32, env.Float32:
		default:
			problems = append(problems, fmt.Sprintf("tensor %s has dtype %s, want uint8, int32 or float32", name, t.DType))
		}
		if len(t.Shape) < 1 || len(t.Shape) > 4 {
			problems = append(problems, fmt.Sprintf("tensor %s has shape %v: rank 1 to 4 (flatten for 1 and 2, conv2d for [C,H,W], conv3d for [C,D,H,W])", name, t.Shape))
		}
		for _, d := range t.Shape {
			if d < 1 {
				problems = append(problems, fmt.Sprintf("tensor %s has shape %v: every dimension at least 1", name, t.Shape))
				break
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("policy: %s does not follow the observation contract: %s", spec.Game, strings.Join(problems, "; "))
	}
	return nil
}

// GoPlays reports whether this package's forward pass computes the policies
// of spec: the contract's version-1 layout, a uint8 image of rank 3 or 4
// named "planes" followed by a float32 vector named "scalars", as every game
// botarena ships declares. A policy of any other spec follows the contract
// (its architecture has "encoders", one layer list per tensor) and trains
// and plays in Python; Go refuses its file with an error saying so.
func GoPlays(spec *env.Spec) bool {
	if len(spec.Obs) != 2 {
		return false
	}
	p, s := spec.Obs[0], spec.Obs[1]
	return p.Name == "planes" && p.DType == env.Uint8 && (len(p.Shape) == 3 || len(p.Shape) == 4) &&
		s.Name == "scalars" && s.DType == env.Float32 && len(s.Shape) == 1
}
