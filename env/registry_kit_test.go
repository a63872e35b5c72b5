package env_test

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
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
			wantPanic(t, tc.panic, func() { r.Register(tc.then) })
		})
	}
}

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
