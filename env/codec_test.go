package env_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/env"
)

// plain hides the codec of the env it wraps: a game with the Env contract
// only.
type plain struct{ env.Env }

// TestCodecOf: the codec is optional; a game without one plays, and codec
// users fail with an error that names the game.
func TestCodecOf(t *testing.T) {
	r := newTestRegistry(t)
	r.Register(env.Entry{
		Name:      "plain",
		Summary:   "adds actions, without a codec",
		Rules:     func(env.Config) string { return "add" },
		NewConfig: func() env.Config { return &counterConfig{Seats: 2, Target: 5} },
		New: func(cfg env.Config) (env.Env, error) {
			c := *cfg.(*counterConfig)
			spec := &env.Spec{Game: "plain", Seats: c.Seats, Actions: 3,
				Obs: []env.Tensor{{Name: "total", DType: env.Uint8, Shape: []int{1}}}}
			return plain{&counter{spec: spec, cfg: c}}, nil
		},
	})
	withCodec, err := r.Make("counter", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := env.CodecOf(withCodec); err != nil || c.NativeFormats()[0] != "total.txt" {
		t.Errorf("CodecOf(counter) = %v, %v", c, err)
	}
	e, err := r.Make("plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = "game plain has no native codec: external bots, scenarios and native renders need one"
	if c, err := env.CodecOf(e); c != nil || !errors.Is(err, env.ErrNoCodec) || err.Error() != want {
		t.Errorf("CodecOf(plain) = %v, %v; want %q", c, err, want)
	}

	// It plays, and counts its invalid actions.
	e.Reset(0)
	rewards, term, trunc := make([]float32, 2), make([]bool, 2), make([]bool, 2)
	e.Step([]int32{1, 9}, rewards, term, trunc)
	if e.Steps() != 1 || e.Invalid(0) != 0 || e.Invalid(1) != 1 {
		t.Errorf("after a step: steps %d, invalid %d, %d; want 1, 0, 1", e.Steps(), e.Invalid(0), e.Invalid(1))
	}
	e.Reset(0)
	if e.Invalid(1) != 0 {
		t.Errorf("Reset kept %d invalid actions", e.Invalid(1))
	}

	s := &env.Scenario{Game: "plain", Rounds: [][]string{{"1", "1"}}}
	if err := r.RunScenario(s, func([]byte) error { return nil }); !errors.Is(err, env.ErrNoCodec) || err.Error() != "scenario: "+want {
		t.Errorf("RunScenario on a game without a codec: %v", err)
	}
}
