package env_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// FuzzScenario feeds arbitrary scenario files to ParseScenario and
// RunScenario over every registered game: neither panics, every error
// starts with "scenario:" and says more, and every state emitted is one
// JSON value, one per round played.
func FuzzScenario(f *testing.F) {
	// The games' own scenario files.
	files, err := filepath.Glob(filepath.Join("*", "testdata", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if _, err := env.ParseScenario(data); err == nil {
			f.Add(data)
		}
	}
	// A scenario from a state every game writes itself, at seed 1.
	for _, name := range env.Default.Names() {
		e, err := env.Default.Make(name, nil)
		if err != nil {
			f.Fatal(err)
		}
		e.Reset(1)
		c, format, state := canonicalState(f, e, -1)
		if !env.IsJSONFormat(format) {
			state, _ = json.Marshal(string(state))
		}
		round := make([]string, e.Spec().Seats)
		for s := range round {
			round[s] = string(c.AppendCommand(nil, s, int32(1+s)%int32(e.Spec().Actions)))
		}
		file, _ := json.Marshal(map[string]any{"game": name, "seed": 3, "state": json.RawMessage(state), "rounds": [][]string{round, round}})
		f.Add(file)
		file, _ = json.Marshal(map[string]any{"game": name, "config": map[string]any{}, "rounds": [][]string{round, round, round}})
		f.Add(file)
	}
	for _, s := range []string{
		``, `{}`, `[]`, `{"game":"bomberman"}`, `{"game":"bomberman","rounds":[["1"]]}`,
		`{"game":"nosuchgame","rounds":[]}`, `{"game":"bomberman","config":{"players":3},"rounds":[]}`,
		`{"game":"battlebots","state":"bogus","rounds":[]}`, `{"game":"battlebots","state":"\"","rounds":[]}`,
		`{"game":"battlebots","state":7,"rounds":[]}`, `{"game":"portalbomber","config":{"max_rounds":1},"rounds":[["b",""],["",""],["",""]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := env.ParseScenario(data)
		if err != nil {
			checkScenarioError(t, err)
			return
		}
		emitted := 0
		err = env.RunScenario(s, func(state []byte) error {
			emitted++
			if !json.Valid(state) {
				t.Fatalf("round %d: the state emitted is not one JSON value:\n%s", emitted-1, state)
			}
			return nil
		})
		if err != nil {
			checkScenarioError(t, err)
			if emitted >= len(s.Rounds) && len(s.Rounds) > 0 {
				t.Fatalf("every round emitted, then %v", err)
			}
			return
		}
		if emitted != len(s.Rounds) {
			t.Fatalf("%d rounds, %d states emitted", len(s.Rounds), emitted)
		}
	})
}

// checkScenarioError checks that a scenario error says it is one and what
// is wrong.
func checkScenarioError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "scenario:")
	if !ok || strings.TrimSpace(rest) == "" {
		t.Fatalf("error %q does not start with \"scenario:\" and name the problem", msg)
	}
}
