package env_test

import (
	"math"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// counterEntry returns an entry of the counter game under name with kit.
func counterEntry(name string, kit *env.Kit) env.Entry {
	return env.Entry{Name: name, Rules: func(env.Config) string { return "" },
		NewConfig: func() env.Config { return &counterConfig{Seats: 2, Target: 5} },
		New:       func(env.Config) (env.Env, error) { return nil, nil },
		Kit:       kit}
}

// idleAgent is a do-nothing agent for kits.
type idleAgent struct{}

func (idleAgent) Reset(env.Env, int, uint64) {}
func (idleAgent) Act(env.Env, int) int32     { return 0 }

func newIdle(*env.Spec) (env.Agent, error) { return idleAgent{}, nil }

// validKit returns a kit that Register accepts for counter.
func validKit() *env.Kit {
	return &env.Kit{
		Agents:      []env.AgentInfo{{Name: "greedy", Summary: "adds the most", New: newIdle}},
		Reference:   "greedy",
		Opponents:   []string{"greedy", "random"},
		Training:    env.Training{Channels: []int{8, 8}, Strides: []int{1, 2}, Hidden: 16, Config: map[string]any{"target": 9}, Gamma: 0.95, EntCoef: 0.02},
		ConsoleKeys: map[string]int32{"a": 1},
		ConsoleHelp: "a adds one",
		Flags:       []env.Flag{{Name: "target", Field: "target", Usage: "the total that ends the game", Int: true}},
	}
}

func TestRegisterAcceptsAValidKit(t *testing.T) {
	r := &env.Registry{}
	kit := validKit()
	r.Register(counterEntry("counter", kit))
	r.Register(counterEntry("counter/big", kit))
	e, err := r.Lookup("counter/big")
	if err != nil || e.Kit != kit {
		t.Fatalf("Lookup: %v, kit %p, want %p", err, e.Kit, kit)
	}
	if a, ok := e.Kit.Agent("greedy"); !ok || a.Summary != "adds the most" {
		t.Errorf("Agent(greedy) = %+v, %v", a, ok)
	}
	if _, ok := (*env.Kit)(nil).Agent("greedy"); ok {
		t.Error("a nil kit has agents")
	}
}

func TestRegisterAcceptsTrainingHyperparameters(t *testing.T) {
	for _, tc := range []struct {
		name           string
		gamma, entCoef float64
	}{
		{"trainer_defaults", 0, 0},
		{"no_discount", 1, 0.5},
		{"small_values", 1e-9, 1e-9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kit := validKit()
			kit.Training.Gamma, kit.Training.EntCoef = tc.gamma, tc.entCoef
			r := &env.Registry{}
			r.Register(counterEntry("counter", kit))
			if e, err := r.Lookup("counter"); err != nil || e.Kit.Training.Gamma != tc.gamma || e.Kit.Training.EntCoef != tc.entCoef {
				t.Errorf("Lookup: %v, training %+v", err, e.Kit.Training)
			}
		})
	}
}

func TestTrainingIsZero(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    env.Training
		want bool
	}{
		{"zero", env.Training{}, true},
		{"empty_config", env.Training{Config: map[string]any{}}, true},
		{"network", env.Training{Channels: []int{8}, Strides: []int{1}, Hidden: 8}, false},
		{"gamma_only", env.Training{Gamma: 0.9}, false},
		{"ent_coef_only", env.Training{EntCoef: 0.02}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.t.IsZero(); got != tc.want {
				t.Errorf("IsZero() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRegisterRejectsBadKits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(k *env.Kit)
		panic string
	}{
		{"reference_not_an_agent", func(k *env.Kit) { k.Reference = "random" }, `reference "random" is not one of the Agents`},
		{"no_reference", func(k *env.Kit) { k.Reference = "" }, "no Reference among the Agents"},
		{"agent_without_new", func(k *env.Kit) { k.Agents[0].New = nil }, `agent "greedy" has no New`},
		{"agent_without_summary", func(k *env.Kit) { k.Agents[0].Summary = "" }, `agent "greedy" has no Summary`},
		{"malformed_agent_name", func(k *env.Kit) { k.Agents[0].Name, k.Reference = "Greedy", "Greedy" }, `agent name "Greedy"`},
		{"duplicate_agent", func(k *env.Kit) { k.Agents = append(k.Agents, k.Agents[0]) }, `agent "greedy" listed twice`},
		{"duplicate_opponent", func(k *env.Kit) { k.Opponents = []string{"greedy", "greedy"} }, `opponent "greedy" is malformed or listed twice`},
		{"strides_do_not_match", func(k *env.Kit) { k.Training.Strides = []int{1} }, "training: 2 Channels but 1 Strides"},
		{"no_hidden", func(k *env.Kit) { k.Training.Hidden = 0 }, "training: hidden 0"},
		{"unknown_training_field", func(k *env.Kit) { k.Training.Config = map[string]any{"targett": 9} }, `training: config: json: unknown field "targett"`},
		{"invalid_training_value", func(k *env.Kit) { k.Training.Config = map[string]any{"target": 0} }, "training: config: counter: config target"},
		{"negative_gamma", func(k *env.Kit) { k.Training.Gamma = -0.5 }, "training: gamma -0.5: want a discount in (0, 1]"},
		{"gamma_above_one", func(k *env.Kit) { k.Training.Gamma = 1.01 }, "training: gamma 1.01: want a discount in (0, 1]"},
		{"nan_gamma", func(k *env.Kit) { k.Training.Gamma = math.NaN() }, "training: gamma NaN"},
		{"negative_ent_coef", func(k *env.Kit) { k.Training.EntCoef = -0.01 }, "training: ent_coef -0.01: want a finite coefficient >= 0"},
		{"infinite_ent_coef", func(k *env.Kit) { k.Training.EntCoef = math.Inf(1) }, "training: ent_coef +Inf"},
		{"nan_ent_coef", func(k *env.Kit) { k.Training.EntCoef = math.NaN() }, "training: ent_coef NaN"},
		{"keys_without_help", func(k *env.Kit) { k.ConsoleHelp = "" }, "no ConsoleHelp for the ConsoleKeys"},
		{"upper_case_key", func(k *env.Kit) { k.ConsoleKeys = map[string]int32{"A": 1} }, `console key "A"`},
		{"flag_for_unknown_field", func(k *env.Kit) { k.Flags[0].Field = "goal" }, `flag --target: the config has no integer field "goal"`},
		{"flag_of_wrong_type", func(k *env.Kit) { k.Flags[0].Int = false }, `flag --target: the config has no string field "target"`},
		{"malformed_flag", func(k *env.Kit) { k.Flags[0].Name = "--target" }, "flag ----target: malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kit := validKit()
			tc.edit(kit)
			wantPanic(t, tc.panic, func() { (&env.Registry{}).Register(counterEntry("counter", kit)) })
		})
	}
}

func TestRegisterRejectsKitsThatDisagree(t *testing.T) {
	t.Run("preset_without_the_kit", func(t *testing.T) {
		r := &env.Registry{}
		r.Register(counterEntry("counter", validKit()))
		wantPanic(t, `its Kit is not the one "counter" registered`, func() { r.Register(counterEntry("counter/big", nil)) })
	})
	t.Run("preset_with_another_kit", func(t *testing.T) {
		r := &env.Registry{}
		r.Register(counterEntry("counter/big", validKit()))
		wantPanic(t, `its Kit is not the one "counter/big" registered`, func() { r.Register(counterEntry("counter", validKit())) })
	})
	t.Run("flag_with_two_types", func(t *testing.T) {
		r := &env.Registry{}
		r.Register(counterEntry("counter", validKit()))
		// Another game's int flag --target: the same type, fine.
		r.Register(counterEntry("adder", &env.Kit{Flags: []env.Flag{{Name: "target", Field: "target", Int: true}}}))
		// A string flag --target where adder's and counter's are int flags: the first by name is named.
		wantPanic(t, `flag --target is a string flag, but an int flag in "adder"`, func() {
			r.Register(env.Entry{Name: "namer", Rules: func(env.Config) string { return "" },
				NewConfig: func() env.Config { return &stringConfig{} },
				New:       func(env.Config) (env.Env, error) { return nil, nil },
				Kit:       &env.Kit{Flags: []env.Flag{{Name: "target", Field: "target"}}}})
		})
	})
}

// stringConfig is a config whose "target" is a string.
type stringConfig struct {
	Target string `json:"target"`
}

func (*stringConfig) Validate() error { return nil }

// wantPanic fails t unless f panics with a message containing want.
func wantPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if s, _ := r.(string); r == nil || !strings.Contains(s, want) {
			t.Errorf("panic %v, want one containing %q", r, want)
		}
	}()
	f()
}
