package testutil

import "testing"

// MustNew returns newGame(cfg), a game's constructor called with a config,
// and fails t when it returns an error, as in
//
//	cfg := DefaultConfig()
//	cfg.Players = 2
//	g := testutil.MustNew(t, New, cfg)
func MustNew[C, G any](t testing.TB, newGame func(C) (G, error), cfg C) G {
	t.Helper()
	g, err := newGame(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
