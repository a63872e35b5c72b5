package testutil

import (
	"testing"

	"github.com/botarena/botarena/env"
)

// NewEnv returns an env of the registry name game (in [env.Default], with
// its default config), reset with seed; it fails t when there is none.
func NewEnv(t testing.TB, game string, seed uint64) env.Env {
	t.Helper()
	e, err := env.Default.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(seed)
	return e
}

// Reload writes c's state in its canonical native format as seat sees it
// and loads it back into c, as a game started from a state file is; it
// fails t on an error.
func Reload(t testing.TB, c env.Codec, seat int) {
	t.Helper()
	state, err := c.AppendNative(nil, c.NativeFormats()[0], seat)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.LoadNative(state); err != nil {
		t.Fatal(err)
	}
}
