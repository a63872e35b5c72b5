package env

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Scenario replays a position: a native state, then rounds of native
// commands, one per seat. Its JSON form is
//
//	{"game": "bomberman", "config": {...}, "state": <native state>, "rounds": [["1","5"], ...]}
//
// where state is the game's canonical native format, given as a JSON value
// when that format is JSON and as a JSON string when it is text. Config and
// state are optional: without a state the scenario starts from Reset(Seed).
type Scenario struct {
	Game   string          `json:"game"`
	Config json.RawMessage `json:"config,omitempty"`
	Seed   uint64          `json:"seed,omitempty"`
	State  json.RawMessage `json:"state,omitempty"`
	Rounds [][]string      `json:"rounds"`
}

// ParseScenario decodes a scenario file, reporting where it is malformed.
func ParseScenario(data []byte) (*Scenario, error) {
	var s Scenario
	if err := DecodeJSON(data, &s); err != nil {
		return nil, jsonError("scenario", data, err)
	}
	if s.Game == "" {
		return nil, fmt.Errorf("scenario: missing \"game\"")
	}
	return &s, nil
}

// NativeState returns the scenario's state in native bytes: a JSON string is
// unquoted, any other JSON value is returned as it is.
func (s *Scenario) NativeState() ([]byte, error) {
	st := bytes.TrimSpace(s.State)
	if len(st) > 0 && st[0] == '"' {
		var text string
		if err := json.Unmarshal(st, &text); err != nil {
			return nil, fmt.Errorf("scenario: state: %v", err)
		}
		return []byte(text), nil
	}
	return st, nil
}

// Run plays the scenario on an env from r and calls emit after each round
// with the canonical native state as seat 0 sees it (emit must not keep the
// slice). A state in a JSON-valued format is passed as it is; a text format
// is passed as a JSON string, so that every emitted value is one JSON value.
func (r *Registry) RunScenario(s *Scenario, emit func(state []byte) error) error {
	e, err := r.Make(s.Game, s.Config)
	if err != nil {
		return fmt.Errorf("scenario: %w", err)
	}
	c, err := CodecOf(e)
	if err != nil {
		return fmt.Errorf("scenario: %w", err)
	}
	e.Reset(s.Seed)
	if st, err := s.NativeState(); err != nil {
		return err
	} else if len(st) > 0 {
		if err := c.LoadNative(st); err != nil {
			return fmt.Errorf("scenario: state: %w", err)
		}
	}
	spec := e.Spec()
	format := c.NativeFormats()[0]
	actions := make([]int32, spec.Seats)
	rewards := make([]float32, spec.Seats)
	terminated := make([]bool, spec.Seats)
	truncated := make([]bool, spec.Seats)
	var buf, out []byte
	for i, round := range s.Rounds {
		if len(round) != spec.Seats {
			return fmt.Errorf("scenario: rounds[%d]: got %d commands, want one per seat (%d)", i, len(round), spec.Seats)
		}
		if e.Done() {
			return fmt.Errorf("scenario: rounds[%d]: the game is already over after %d rounds", i, i)
		}
		for seat, cmd := range round {
			actions[seat], _ = c.ParseCommand(seat, []byte(cmd))
		}
		e.Step(actions, rewards, terminated, truncated)
		buf, err = c.AppendNative(buf[:0], format, 0)
		if err != nil {
			return fmt.Errorf("scenario: rounds[%d]: %w", i, err)
		}
		out = buf
		if !IsJSONFormat(format) {
			out, _ = json.Marshal(string(buf))
		}
		if err := emit(out); err != nil {
			return err
		}
	}
	return nil
}

// RunScenario runs s on the [Default] registry.
func RunScenario(s *Scenario, emit func(state []byte) error) error {
	return Default.RunScenario(s, emit)
}

// IsJSONFormat reports whether a native format name denotes a JSON value:
// names ending in "json" ("state.json", "json") do; any other is text.
func IsJSONFormat(format string) bool { return strings.HasSuffix(format, "json") }

// jsonError turns a json decoding error into one that says where: the line
// and column of the offset when the error carries one.
func jsonError(what string, data []byte, err error) error {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset - 1 // Offset counts the offending byte
		if off < 0 {
			off = 0
		}
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return fmt.Errorf("%s: %v", what, err)
	}
	line, col := LineCol(data, off)
	return fmt.Errorf("%s: line %d, column %d: %v", what, line, col, err)
}

// LineCol returns the 1-based line and column of byte offset off in data.
func LineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
