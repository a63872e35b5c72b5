package training_test

import (
	"math"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/training"
)

// targetConfig is a config whose target must be positive.
type targetConfig struct {
	Target int `json:"target"`
}

func (c *targetConfig) Validate() error {
	if c.Target < 1 {
		return &env.ConfigError{Game: "counter", Field: "target", Value: c.Target, Reason: "want 1 or more"}
	}
	return nil
}

// entry is the registry entry the defaults are checked against.
var entry = env.Entry{Name: "counter", NewConfig: func() env.Config { return &targetConfig{Target: 5} }}

// valid returns defaults that Check accepts for entry with the agent
// "greedy".
func valid() training.Defaults {
	return training.Defaults{Reference: "greedy", Opponents: []string{"greedy", "random"},
		Channels: []int{8, 8}, Strides: []int{1, 2}, Hidden: 16, Config: map[string]any{"target": 9}, Gamma: 0.95, EntCoef: 0.02}
}

func TestCheckRejectsBadDefaults(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(d *training.Defaults)
		want string // "" accepts
	}{
		{"valid", func(*training.Defaults) {}, ""},
		{"trainer_defaults", func(d *training.Defaults) { d.Gamma, d.EntCoef = 0, 0 }, ""},
		{"no_discount", func(d *training.Defaults) { d.Gamma = 1 }, ""},
		{"reference_not_an_agent", func(d *training.Defaults) { d.Reference = "random" }, `reference "random" is not one of the agents`},
		{"no_reference", func(d *training.Defaults) { d.Reference = "" }, "no Reference among the agents"},
		{"duplicate_opponent", func(d *training.Defaults) { d.Opponents = []string{"greedy", "greedy"} }, `opponent "greedy" is malformed or listed twice`},
		{"strides_do_not_match", func(d *training.Defaults) { d.Strides = []int{1} }, "2 Channels but 1 Strides"},
		{"no_hidden", func(d *training.Defaults) { d.Hidden = 0 }, "hidden 0"},
		{"unknown_config_field", func(d *training.Defaults) { d.Config = map[string]any{"targett": 9} }, `config: json: unknown field "targett"`},
		{"invalid_config_value", func(d *training.Defaults) { d.Config = map[string]any{"target": 0} }, "config: counter: config target"},
		{"negative_gamma", func(d *training.Defaults) { d.Gamma = -0.5 }, "gamma -0.5: want a discount in (0, 1]"},
		{"gamma_above_one", func(d *training.Defaults) { d.Gamma = 1.01 }, "gamma 1.01: want a discount in (0, 1]"},
		{"nan_gamma", func(d *training.Defaults) { d.Gamma = math.NaN() }, "gamma NaN"},
		{"negative_ent_coef", func(d *training.Defaults) { d.EntCoef = -0.01 }, "ent_coef -0.01: want a finite coefficient >= 0"},
		{"infinite_ent_coef", func(d *training.Defaults) { d.EntCoef = math.Inf(1) }, "ent_coef +Inf"},
		{"nan_ent_coef", func(d *training.Defaults) { d.EntCoef = math.NaN() }, "ent_coef NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := valid()
			tc.edit(&d)
			err := training.Check(d, entry, []string{"greedy"})
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Check = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTunedIgnoresReferenceAndOpponents(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    training.Defaults
		want bool
	}{
		{"zero", training.Defaults{}, false},
		{"agents_only", training.Defaults{Reference: "greedy", Opponents: []string{"greedy"}}, false},
		{"empty_config", training.Defaults{Config: map[string]any{}}, false},
		{"network", training.Defaults{Channels: []int{8}, Strides: []int{1}, Hidden: 8}, true},
		{"gamma_only", training.Defaults{Gamma: 0.9}, true},
		{"ent_coef_only", training.Defaults{EntCoef: 0.02}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Tuned(); got != tc.want {
				t.Errorf("Tuned() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOfAsksTheKit(t *testing.T) {
	if d := training.Of(entry); d.Tuned() || d.Reference != "" {
		t.Errorf("Of(an entry without a kit) = %+v", d)
	}
	e := entry
	e.Kit = kit{}
	if d := training.Of(e); d.Reference != "greedy" || d.Hidden != 16 {
		t.Errorf("Of = %+v", d)
	}
}

// kit is a game's kit with training defaults.
type kit struct{}

func (kit) Training() training.Defaults { return valid() }
