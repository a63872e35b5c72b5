package policy_test

import (
	"fmt"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// A policy file plays wherever an agent is accepted, here as the opponent
// in seat 1 of a pool; the pool computes all its seats in one batch per
// worker.
func Example() {
	const file = "policy:testdata/battlebots.policy.safetensors"
	p, err := vecenv.New(vecenv.Config{
		Game: "battlebots", NumEnvs: 64, Seed: 1, LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{1: func(spec *env.Spec) (env.Agent, error) {
			return agents.New(spec.Game, file, spec)
		}},
	})
	if err != nil {
		panic(err)
	}
	defer p.Close()
	p.Reset()
	if err := p.Step(make([]int32, p.Rows())); err != nil {
		panic(err)
	}
	fmt.Println(p.Rows(), "learner rows stepped")
	// Output: 64 learner rows stepped
}

// A Batch computes the probabilities of raw observations directly.
func ExampleModel_NewBatch() {
	m, err := policy.Open("testdata/battlebots.policy.safetensors")
	if err != nil {
		panic(err)
	}
	b := m.NewBatch(2)
	for k := range 2 {
		b.Planes(k)[k] = 1 // planes: uint8 [19,10,10]; scalars stay 0
		for a := range b.Mask(k) {
			b.Mask(k)[a] = 1
		}
	}
	b.Forward(2)
	sum := 0.0
	for _, p := range b.Probs(0) {
		sum += p
	}
	fmt.Printf("%d actions, probabilities sum to %.6f, arg-max legal: %v\n",
		m.Actions(), sum, b.Mask(0)[policy.ArgMax(b.Logits(0), b.Mask(0))] == 1)
	// Output: 34 actions, probabilities sum to 1.000000, arg-max legal: true
}
