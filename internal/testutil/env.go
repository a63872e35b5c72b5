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
