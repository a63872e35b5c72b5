//go:build race

package client_test

// raceEnabled: the race detector allocates (and sync.Pool drops what it
// is given), so allocation tests skip.
const raceEnabled = true
