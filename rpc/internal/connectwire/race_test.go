//go:build race

package connectwire

// raceEnabled: the race detector allocates, so the tests check no
// allocation bounds.
const raceEnabled = true
