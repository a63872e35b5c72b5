package env_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// counter is a minimal game for testing the contract's machinery: each seat
// adds its action to a shared total; the game ends when the total reaches
// Target. Its native state is the text "total=N".
type counter struct {
	spec  *env.Spec
	cfg   counterConfig
	total int
	steps int
	bad   [4]int // Invalid: actions out of range
}

type counterConfig struct {
	Seats  int `json:"seats"`
	Target int `json:"target"`
}

func (c *counterConfig) Validate() error {
	if c.Seats < 1 || c.Seats > 4 {
		return &env.ConfigError{Game: "counter", Field: "seats", Value: c.Seats, Reason: "want 1–4"}
	}
	if c.Target < 1 {
		return &env.ConfigError{Game: "counter", Field: "target", Value: c.Target, Reason: "want 1 or more"}
	}
	return nil
}

func (c *counter) Spec() *env.Spec   { return c.spec }
func (c *counter) Reset(seed uint64) { c.total, c.steps, c.bad = int(seed%3), 0, [4]int{} }
func (c *counter) Done() bool        { return c.total >= c.cfg.Target }
func (c *counter) Steps() int        { return c.steps }
func (c *counter) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	c.spec.CheckStep(actions, rewards, terminated, truncated)
	for s, a := range actions {
		if a >= 0 && int(a) < c.spec.Actions {
			c.total += int(a)
		} else {
			c.bad[s]++
		}
	}
	c.steps++
	for s := range actions {
		rewards[s], terminated[s], truncated[s] = 0, c.Done(), false
	}
}
func (c *counter) WriteObs(seat int, dst [][]byte) {
	c.spec.CheckObs(dst)
	dst[0][0] = byte(c.total)
}
func (c *counter) WriteMask(seat int, dst []uint8) {
	for i := range dst {
		dst[i] = 1
	}
}
func (c *counter) Outcome() (int, bool) { return -1, true }
func (c *counter) Invalid(seat int) int { return c.bad[seat] }
func (c *counter) Result() env.Result {
	return env.Result{Rounds: c.steps, Winner: -1, Draw: true}
}
func (c *counter) NativeFormats() []string { return []string{"total.txt"} }
func (c *counter) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if format != "total.txt" {
		return dst, fmt.Errorf("counter: unknown format %q", format)
	}
	return fmt.Appendf(dst, "total=%d", c.total), nil
}
func (c *counter) LoadNative(data []byte) error {
	var t int
	if _, err := fmt.Sscanf(string(data), "total=%d", &t); err != nil {
		return fmt.Errorf("counter: %v", err)
	}
	c.total = t
	return nil
}
func (c *counter) ParseCommand(seat int, text []byte) (int32, bool) {
	if len(text) == 1 && text[0] >= '0' && text[0] <= '2' {
		return int32(text[0] - '0'), true
	}
	return 0, false
}
func (c *counter) AppendCommand(dst []byte, seat int, action int32) []byte {
	return fmt.Appendf(dst, "%d", action)
}

func newTestRegistry(t *testing.T) *env.Registry {
	t.Helper()
	r := &env.Registry{}
	r.Register(env.Entry{
		Name:      "counter",
		Summary:   "adds actions",
		Rules:     func(env.Config) string { return "add" },
		NewConfig: func() env.Config { return &counterConfig{Seats: 2, Target: 5} },
		New: func(cfg env.Config) (env.Env, error) {
			c := *cfg.(*counterConfig)
			spec := &env.Spec{Game: "counter", Seats: c.Seats, Actions: 3,
				Obs: []env.Tensor{{Name: "total", DType: env.Uint8, Shape: []int{1}}}}
			return &counter{spec: spec, cfg: c}, nil
		},
	})
	return r
}

func TestRegistryMake(t *testing.T) {
	r := newTestRegistry(t)
	tests := []struct {
		name    string
		game    string
		config  string
		wantErr string
		seats   int
	}{
		{"defaults_without_config", "counter", "", "", 2},
		{"null_config_means_defaults", "counter", "null", "", 2},
		{"config_overrides_defaults", "counter", `{"seats":3}`, "", 3},
		{"unknown_game_lists_valid_names", "chess", "", `unknown game "chess" (valid: counter)`, 0},
		{"unknown_field_is_named", "counter", `{"sets":3}`, `unknown field "sets"`, 0},
		{"unknown_field_lists_valid_fields", "counter", `{"seats":2,"sets":3}`, `counter: config: unknown field "sets" (valid: seats, target)`, 0},
		{"invalid_value_names_field_and_value", "counter", `{"seats":9}`, "counter: config seats: want 1–4, got 9", 0},
		{"wrong_type_is_reported", "counter", `{"seats":"two"}`, "counter: config:", 0},
		{"trailing_data_is_an_error", "counter", `{"seats":2} {}`, "trailing data", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := r.Make(tt.game, []byte(tt.config))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Make(%q, %q) error = %v, want it to contain %q", tt.game, tt.config, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Spec().Seats; got != tt.seats {
				t.Errorf("seats = %d, want %d", got, tt.seats)
			}
		})
	}
}

func TestRegistryUnknownGameWrapsSentinel(t *testing.T) {
	_, err := newTestRegistry(t).Lookup("nope")
	if !errors.Is(err, env.ErrUnknownGame) {
		t.Fatalf("error %v does not wrap ErrUnknownGame", err)
	}
}

func TestRegisterRejectsDuplicatesAndBadNames(t *testing.T) {
	for _, name := range []string{"counter", "Counter", "a b", "x/", ""} {
		t.Run(fmt.Sprintf("name_%q", name), func(t *testing.T) {
			r := newTestRegistry(t)
			testutil.WantPanic(t, fmt.Sprintf("Register(%q)", name), "", func() {
				r.Register(env.Entry{Name: name, Rules: func(env.Config) string { return "" },
					NewConfig: func() env.Config { return &counterConfig{} },
					New:       func(env.Config) (env.Env, error) { return nil, nil }})
			})
		})
	}
}

func TestScenarioRunsRoundsAndQuotesTextStates(t *testing.T) {
	r := newTestRegistry(t)
	s, err := env.ParseScenario([]byte(`{"game":"counter","config":{"target":9},"state":"total=1","rounds":[["1","2"],["x","1"]]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = r.RunScenario(s, func(state []byte) error {
		got = append(got, string(state))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`"total=4"`, `"total=5"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("states = %q, want %q", got, want)
	}
}

func TestScenarioErrorsSayWhere(t *testing.T) {
	r := newTestRegistry(t)
	tests := []struct {
		name, file, want string
	}{
		{"syntax_error_has_line_and_column", "{\"game\":\"counter\",\n\"rounds\": [[\"1\" \"2\"]]}", "scenario: line 2, column 17"},
		{"missing_game", `{"rounds":[]}`, `missing "game"`},
		{"unknown_key", `{"game":"counter","round":[]}`, `unknown field "round"`},
		{"wrong_command_count", `{"game":"counter","rounds":[["1"]]}`, "rounds[0]: got 1 commands, want one per seat (2)"},
		{"bad_state", `{"game":"counter","state":"bogus","rounds":[]}`, "scenario: state: counter:"},
		{"unknown_game", `{"game":"nope","rounds":[]}`, `unknown game "nope"`},
		{"rounds_after_the_end", `{"game":"counter","config":{"target":1},"state":"total=1","rounds":[["1","1"]]}`, "already over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := env.ParseScenario([]byte(tt.file))
			if err == nil {
				err = r.RunScenario(s, func([]byte) error { return nil })
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSpecChecksPanicOnWrongLengths(t *testing.T) {
	spec := &env.Spec{Game: "g", Seats: 2, Actions: 3,
		Obs: []env.Tensor{{Name: "a", DType: env.Float32, Shape: []int{2, 3}}}}
	mustPanic := func(name string, f func()) {
		t.Run(name, func(t *testing.T) { testutil.WantPanic(t, name, "", f) })
	}
	mustPanic("obs_tensor_count", func() { spec.CheckObs(nil) })
	mustPanic("obs_tensor_size", func() { spec.CheckObs([][]byte{make([]byte, 6)}) })
	mustPanic("step_lengths", func() { spec.CheckStep(make([]int32, 1), make([]float32, 2), make([]bool, 2), make([]bool, 2)) })
	spec.CheckObs(spec.NewObsBuffers())
	if got := spec.ObsBytes(); got != 24 {
		t.Errorf("ObsBytes = %d, want 24", got)
	}
	if got := spec.Obs[0].ShapeString(); got != "[2,3]" {
		t.Errorf("ShapeString = %q", got)
	}
}

func TestBuffersRowsAreViewsOfTheFlatSlices(t *testing.T) {
	spec := &env.Spec{Game: "g", Seats: 2, Actions: 3, Obs: []env.Tensor{
		{Name: "a", DType: env.Uint8, Shape: []int{2}},
		{Name: "b", DType: env.Float32, Shape: []int{1}},
	}}
	b := env.NewBuffers(spec, 4)
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	row := b.RowObs(nil, 2)
	row[0][1], row[1][3] = 7, 9
	if b.Obs[0][5] != 7 || b.Obs[1][11] != 9 {
		t.Error("RowObs does not alias row 2 of the flat buffers")
	}
	b.RowMask(3)[2] = 1
	if b.Mask[11] != 1 {
		t.Error("RowMask does not alias row 3 of the mask")
	}
	b.Rewards = b.Rewards[:3]
	if err := b.Check(); err == nil || !strings.Contains(err.Error(), "Rewards has 3 entries, want 4") {
		t.Errorf("Check = %v", err)
	}
}
