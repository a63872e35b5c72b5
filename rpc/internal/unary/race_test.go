//go:build race

package unary

// raceEnabled: the race detector allocates, so the tests check no
// allocation bounds.
const raceEnabled = true
