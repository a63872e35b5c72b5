//go:build race

package policy

// raceEnabled: the race detector allocates, so allocation tests skip.
const raceEnabled = true
