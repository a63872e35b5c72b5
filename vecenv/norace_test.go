//go:build !race

package vecenv_test

const raceEnabled = false
