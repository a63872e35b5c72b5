package agents_test

import (
	"fmt"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

func ExampleNew() {
	spec := &env.Spec{Game: "bomberman/12p", Seats: 12, Actions: 7}
	fmt.Println(agents.Names(spec.Game))
	if _, err := agents.New(spec.Game, "smart", spec); err != nil {
		fmt.Println(err)
	}
	a, _ := agents.New(spec.Game, "idle", spec)
	fmt.Println(a.Act(nil, 0))
	// Output:
	// [console harvester hunter idle planner random reference]
	// unknown agent "smart" for bomberman (valid: console, harvester, hunter, idle, planner, random, reference, dagger:..., dir:...)
	// 0
}
