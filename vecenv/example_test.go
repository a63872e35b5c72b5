package vecenv_test

import (
	"fmt"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// A single-agent view of 2-player Bomberman: the learner plays seat 0 of
// every env, the reference bot seat 1.
func ExampleNew() {
	p, err := vecenv.New(vecenv.Config{
		Game:         "bomberman/2p",
		NumEnvs:      8,
		Seed:         1,
		LearnerSeats: []int{0},
		Opponents: map[int]vecenv.OpponentFactory{
			1: func(spec *env.Spec) (vecenv.Opponent, error) { return agents.New(spec.Game, "reference", spec) },
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	if err := p.Reset(); err != nil {
		fmt.Println(err)
		return
	}
	buf := p.Buffers()
	actions := make([]int32, p.Rows())
	for range 500 {
		// A policy reads buf.Obs and buf.Mask; this one places a bomb
		// whenever it may, and does nothing otherwise.
		for r := range actions {
			actions[r] = 0
			if buf.RowMask(r)[5] == 1 {
				actions[r] = 5
			}
		}
		if err := p.Step(actions); err != nil {
			fmt.Println(err)
			return
		}
	}
	s := p.Stats().Seats[0]
	fmt.Printf("rows %d, tensors %d, episodes %d (won %d)\n", p.Rows(), len(buf.Obs), s.Episodes, s.Wins)
	// Output: rows 8, tensors 2, episodes 664 (won 0)
}
