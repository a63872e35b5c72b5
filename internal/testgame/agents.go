package testgame

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// Steady is the game's reference bot: it always plays 2, the most a seat
// can add. It has no state, so one value may serve any number of seats.
type Steady struct{}

// Reset does nothing.
func (Steady) Reset(env.Env, int, uint64) {}

// Act returns 2.
func (Steady) Act(env.Env, int) int32 { return 2 }

// newSteady is the factory of the "steady" agent.
func newSteady(spec *env.Spec) (env.Agent, error) {
	if env.BaseGame(spec.Game) != "testgame" {
		return nil, fmt.Errorf("the testgame steady bot cannot play %s", spec.Game)
	}
	return Steady{}, nil
}
