package env_test

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// idle is an agent that always does nothing.
type idle struct{}

func (idle) Reset(env.Env, int, uint64) {}
func (idle) Act(env.Env, int) int32     { return 0 }

func TestGameAgentPlaysOnlyItsGame(t *testing.T) {
	factory := env.GameAgent("counter", "idle", func() env.Agent { return idle{} })
	for _, tc := range []struct {
		name string
		spec *env.Spec
		err  string // "": an agent
	}{
		{"nil_spec", nil, ""},
		{"base_name", &env.Spec{Game: "counter"}, ""},
		{"preset", &env.Spec{Game: "counter/big"}, ""},
		{"other_game", &env.Spec{Game: "adder"}, "the counter idle bot cannot play adder"},
		{"prefix_is_not_the_game", &env.Spec{Game: "counters"}, "cannot play counters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := factory(tc.spec)
			if tc.err == "" {
				if err != nil || a == nil {
					t.Fatalf("got %v, %v; want an agent", a, err)
				}
				return
			}
			if err == nil || a != nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("got %v, %v; want no agent and an error containing %q", a, err, tc.err)
			}
		})
	}
}
