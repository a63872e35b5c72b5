package env_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// TestCodecOf: the codec is optional; a game without one plays, and codec
// users fail with an error that names the game.
func TestCodecOf(t *testing.T) {
	r := newTestRegistry(t)
	entry, err := r.Lookup("counter")
	if err != nil {
		t.Fatal(err)
	}
	r.Register(testutil.WithoutCodec(entry, "plain"))
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
