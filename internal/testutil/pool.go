package testutil

import (
	"testing"

	"github.com/botarena/botarena/vecenv"
)

// NewPool makes the pool of cfg, closed when the test ends; it fails t when
// cfg is refused. The pool is not reset.
func NewPool(t testing.TB, cfg vecenv.Config) *vecenv.Pool {
	t.Helper()
	p, err := vecenv.New(cfg)
	return Closing(t, p, err)
}
