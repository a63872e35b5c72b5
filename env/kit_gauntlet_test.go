package env_test

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
)

func TestRegisterRejectsBadGauntlets(t *testing.T) {
	for _, tc := range []struct {
		name     string
		gauntlet []string
		panic    string // "" accepts
	}{
		{"names_and_a_policy", []string{"greedy", "random", "policy:policies/counter.policy.safetensors?sample"}, ""},
		{"duplicate_entry", []string{"greedy", "greedy"}, `gauntlet entry "greedy" listed twice`},
		{"malformed_name", []string{"Greedy"}, `gauntlet entry "Greedy": want an agent name or policy:PATH`},
		{"other_scheme", []string{"cmd:./bot"}, `gauntlet entry "cmd:./bot": want an agent name or policy:PATH`},
		{"policy_without_path", []string{"policy:?sample"}, `gauntlet entry "policy:?sample": want policy:PATH`},
		{"absolute_policy_path", []string{"policy:/tmp/p.safetensors"}, `gauntlet entry "policy:/tmp/p.safetensors": want policy:PATH with PATH relative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kit := validKit()
			kit.Gauntlet = tc.gauntlet
			register := func() { (&env.Registry{}).Register(counterEntry("counter", kit)) }
			if tc.panic == "" {
				register()
				return
			}
			wantPanic(t, tc.panic, register)
		})
	}
}

func TestGauntletAgentsFallBackToOpponentsThenReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		kit  *env.Kit
		want []string
	}{
		{"nil_kit", nil, nil},
		{"gauntlet", &env.Kit{Reference: "greedy", Opponents: []string{"greedy", "random"}, Gauntlet: []string{"greedy", "idle"}}, []string{"greedy", "idle"}},
		{"opponents", &env.Kit{Reference: "greedy", Opponents: []string{"greedy", "random"}}, []string{"greedy", "random"}},
		{"reference", &env.Kit{Reference: "greedy"}, []string{"greedy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.kit.GauntletAgents(); !slices.Equal(got, tc.want) {
				t.Errorf("GauntletAgents() = %v, want %v", got, tc.want)
			}
		})
	}
}
