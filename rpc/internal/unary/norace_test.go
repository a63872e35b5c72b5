//go:build !race

package unary

const raceEnabled = false
