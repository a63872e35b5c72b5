package policy

import (
	"cmp"
	"slices"

	"github.com/botarena/botarena/env"
)

// ActionProb is one action of an [Explanation] and its probability.
type ActionProb struct {
	Action int32
	Prob   float64
}

// Explanation is what a policy makes of one state, for viewers and
// debugging: its most probable actions, its value estimate and the action
// its agent plays.
type Explanation struct {
	// Top holds the most probable actions (at most the k asked for), most
	// probable first, the lower action first among equals; actions of
	// probability 0 (illegal ones) are left out.
	Top []ActionProb
	// Value is the value head's estimate of the state for the seat: the
	// return the policy expects, in the units of the reward it was trained
	// on.
	Value float64
	// Chosen is the action the agent plays in this state, and ChosenProb
	// its probability.
	Chosen     int32
	ChosenProb float64
	// Legal is the number of actions of non-zero probability.
	Legal int
}

// Explainer computes [Explanation]s for one [Agent] without changing how
// it acts: it has its own scratch, and it reads the agent's sampling
// generator without advancing it, so the action it reports is the one
// the agent's next Act returns in the same state. An Explainer is not safe
// for concurrent use, nor for use concurrently with its agent's Act; it
// allocates its scratch on first use and the Top slice it returns.
type Explainer struct {
	a *Agent
	s *scratch // the policy pass, a batch of one
	v *Batch   // the value pass: the trunk, then the value layers
}

// NewExplainer returns an explainer of a.
func NewExplainer(a *Agent) *Explainer { return &Explainer{a: a} }

// Agent returns the agent the explainer explains.
func (x *Explainer) Agent() *Agent { return x.a }

// Explain returns the explanation of seat's state in e with the k most
// probable actions (k < 1 means 1). It reads e and does not modify it or
// the agent. It panics if e does not fit the agent's model.
func (x *Explainer) Explain(e env.Env, seat, k int) Explanation {
	a := x.a
	if x.s == nil {
		x.s = newScratch(a.m, e.Spec(), 1)
		x.v = a.m.valueModel().NewBatch(1)
	}
	x.s.gather(0, e, seat)
	x.s.b.Forward(1)
	// choose draws from the agent's generator: put its state back, so
	// that the agent's own Act draws the same number.
	saved := a.pcg
	chosen := x.s.choose(0, a)
	a.pcg = saved

	copy(x.v.Planes(0), x.s.b.Planes(0))
	copy(x.v.Scalars(0), x.s.b.Scalars(0))
	x.v.Forward(1)

	p := x.s.b.Probs(0)
	ex := Explanation{Value: x.v.Logits(0)[0], Chosen: chosen, ChosenProb: p[chosen]}
	order := make([]ActionProb, 0, len(p))
	for i, q := range p {
		if q > 0 {
			order = append(order, ActionProb{Action: int32(i), Prob: q})
		}
	}
	ex.Legal = len(order)
	slices.SortStableFunc(order, func(u, v ActionProb) int { return cmp.Compare(v.Prob, u.Prob) })
	ex.Top = slices.Clip(order[:min(max(k, 1), len(order))])
	return ex
}

// valueModel returns a model that shares m's weights and computes its
// value head: the planes layers, the trunk, then the value layers, with a
// single output and no action mask (one action, always legal). The trunk
// is the first layers of m.head, one per trunk entry of the architecture
// but flatten, which the loader skips.
func (m *Model) valueModel() *Model {
	vm := *m
	n := 0
	for _, l := range m.arch.Trunk {
		if l.Op != OpFlatten {
			n++
		}
	}
	vm.head = append(slices.Clip(m.head[:n]), m.value...)
	vm.outputs, vm.actions, vm.factored = 1, 1, nil
	return &vm
}

// ExplainBytes returns about how many bytes an [Explainer] of an agent of
// m holds once used: its two batches of one, beyond the model's weights
// (8 bytes per [Model.Parameters]), which its agent shares.
func (m *Model) ExplainBytes() int64 {
	batch := func(b *Batch) int64 {
		f := len(b.logits) + len(b.probs) + len(b.actA) + len(b.actB) + len(b.cols) + len(b.x) + len(b.y)
		return int64(8*f + len(b.planes) + len(b.scalars) + len(b.mask))
	}
	return batch(m.NewBatch(1)) + batch(m.valueModel().NewBatch(1)) + int64(16*m.actions)
}
