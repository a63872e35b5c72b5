//go:build race

package vecenv_test

// raceEnabled: the race detector's instrumentation allocates, so the
// allocation tests skip under -race.
const raceEnabled = true
