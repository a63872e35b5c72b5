package env_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// counterEntry returns an entry of the counter game under name with kit.
func counterEntry(name string, kit any) env.Entry {
	return env.Entry{Name: name, Rules: func(env.Config) string { return "" },
		NewConfig: func() env.Config { return &counterConfig{Seats: 2, Target: 5} },
		New:       func(env.Config) (env.Env, error) { return nil, nil },
		Kit:       kit}
}

// counterKit is a kit: env asks nothing of it but that it be comparable.
type counterKit struct{ name string }

func TestRegisterKeepsTheKitOnEveryName(t *testing.T) {
	r := &env.Registry{}
	kit := counterKit{"counter"}
	r.Register(counterEntry("counter", kit))
	r.Register(counterEntry("counter/big", kit))
	e, err := r.Lookup("counter/big")
	if err != nil || e.Kit != kit {
		t.Fatalf("Lookup: %v, kit %v, want %v", err, e.Kit, kit)
	}
}

func TestRegisterRejectsKitsThatDisagree(t *testing.T) {
	for _, tc := range []struct {
		name        string
		first, then env.Entry
		panic       string
	}{
		{"preset_without_the_kit", counterEntry("counter", counterKit{"a"}), counterEntry("counter/big", nil), `its Kit is not the one "counter" registered`},
		{"preset_with_another_kit", counterEntry("counter/big", counterKit{"a"}), counterEntry("counter", counterKit{"b"}), `its Kit is not the one "counter/big" registered`},
		{"kit_not_comparable", counterEntry("adder", nil), counterEntry("counter", map[string]int{}), "its Kit, a map[string]int, is not comparable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &env.Registry{}
			r.Register(tc.first)
			testutil.WantPanic(t, "the second Register", tc.panic, func() { r.Register(tc.then) })
		})
	}
}

func TestPresetsShareRulesConstructorAndKit(t *testing.T) {
	preset := func(target int) func() *counterConfig {
		return func() *counterConfig { return &counterConfig{Seats: 2, Target: target} }
	}
	var made []string
	newGame := func(name string, c *counterConfig) (*counter, error) {
		made = append(made, name)
		if c.Target > 9 {
			return nil, errors.New("too far")
		}
		return &counter{spec: &env.Spec{Game: name, Seats: c.Seats, Actions: 3}, cfg: *c}, nil
	}
	rules := func(c *counterConfig) string { return fmt.Sprintf("reach %d", c.Target) }
	kit := counterKit{"counter"}
	entries := env.Presets([]env.Preset[*counterConfig]{
		{Name: "counter", Summary: "to 5", Config: preset(5)},
		{Name: "counter/far", Summary: "to 12", Config: preset(12)},
	}, rules, newGame, kit)

	if len(entries) != 2 {
		t.Fatalf("%d entries, want 2", len(entries))
	}
	for i, want := range []struct {
		name, summary, rules string
		err                  bool
	}{{"counter", "to 5", "reach 5", false}, {"counter/far", "to 12", "reach 12", true}} {
		e := entries[i]
		if e.Name != want.name || e.Summary != want.summary || e.Kit != kit {
			t.Errorf("entry %d: %q %q kit %v, want %q %q %v", i, e.Name, e.Summary, e.Kit, want.name, want.summary, kit)
		}
		cfg := e.NewConfig()
		if got := e.Rules(cfg); got != want.rules {
			t.Errorf("%s: Rules = %q, want %q", e.Name, got, want.rules)
		}
		g, err := e.New(cfg)
		if (err != nil) != want.err || (g == nil) != want.err {
			t.Errorf("%s: New = %v, %v; want an error %v and a nil Env with it", e.Name, g, err, want.err)
		}
		if g != nil && g.Spec().Game != want.name {
			t.Errorf("%s: the env's Spec names %q", e.Name, g.Spec().Game)
		}
	}
	if want := []string{"counter", "counter/far"}; !slices.Equal(made, want) {
		t.Errorf("newGame got the names %q, want %q", made, want)
	}
}
