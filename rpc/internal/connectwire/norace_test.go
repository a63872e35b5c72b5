//go:build !race

package connectwire

const raceEnabled = false
