package testutil

import (
	"os"
	"testing"

	"github.com/botarena/botarena/env"
)

// Scenario parses data as a scenario file ([env.ParseScenario]), runs it
// through the shared runner ([env.RunScenario]) and returns the states it
// emits, one a round, each a copy. A scenario that does not parse or run
// fails t.
func Scenario(t testing.TB, data []byte) [][]byte {
	t.Helper()
	s, err := env.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	var states [][]byte
	if err := env.RunScenario(s, func(state []byte) error {
		states = append(states, append([]byte(nil), state...))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return states
}

// ScenarioFile is [Scenario] of the file at path; a file that does not
// read fails t.
func ScenarioFile(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Scenario(t, data)
}
