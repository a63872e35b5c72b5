package env_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
)

// Inner is embedded in schemaConfig; its fields are promoted.
type Inner struct {
	Depth  int    `json:"depth" doc:"promoted from Inner" allowed:"0..9"`
	Shadow string `json:"players" doc:"hidden by schemaConfig.Players"`
}

type named struct {
	Label string `json:"label" doc:"from an unexported embedded struct"`
}

type Tagged struct {
	Kept int `json:"kept" doc:"not promoted: the embedded struct has a name"`
}

type schemaConfig struct {
	Players int `json:"players" doc:"number of players" allowed:"2..12"`
	Inner
	*named
	Tagged `json:"tagged" doc:"an embedded struct with a json name"`
	Ratio  float32         `json:"ratio" doc:"a number"`
	On     bool            `json:"on" doc:"a switch"`
	Names  []string        `json:"names" doc:"a nil slice"`
	Cells  [][3]int        `json:"cells" doc:"start cells"`
	Blob   []byte          `json:"blob" doc:"base64"`
	Labels map[string]int  `json:"labels" doc:"a map"`
	Count  int64           `json:"count,string" doc:"quoted"`
	Wait   time.Duration   `json:"wait" doc:"an integer of nanoseconds"`
	When   time.Time       `json:"when" doc:"a text marshaler"`
	Raw    json.RawMessage `json:"raw" doc:"only the value tells"`
	Any    any             `json:"any" doc:"only the value tells"`
	Skip   int             `json:"-"`
	//lint:ignore SA5008 encoding/json names a field "-" with this tag; the test checks the schema does too
	Dash  int    `json:"-," doc:"named -"`
	Empty string `json:"empty,omitempty" doc:"left out of the JSON when empty"`
	NoTag int    `doc:"named by the Go name"`
	Ptr   *uint8 `json:"ptr" doc:"a nil pointer"`
	//lint:ignore U1000 an unexported field, which the schema must skip as encoding/json does
	private  int               // not a JSON field
	Settings map[string]string `json:"settings"`
}

func (*schemaConfig) Validate() error { return nil }

func TestConfigSchemaFollowsEncodingJSON(t *testing.T) {
	cfg := &schemaConfig{
		Players: 4, Inner: Inner{Depth: 3, Shadow: "x"}, named: &named{Label: "l"},
		Cells: [][3]int{{1, 2, 3}}, Blob: []byte("hi"), Count: 7, Raw: json.RawMessage(`{"a":1}`), Any: 1.5,
	}
	fields, err := env.ConfigSchema(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []env.ConfigField{
		{Name: "players", Type: "integer", Default: json.RawMessage(`4`), Allowed: "2..12", Doc: "number of players"},
		{Name: "depth", Type: "integer", Default: json.RawMessage(`3`), Allowed: "0..9", Doc: "promoted from Inner"},
		{Name: "label", Type: "string", Default: json.RawMessage(`"l"`), Doc: "from an unexported embedded struct"},
		{Name: "tagged", Type: "object", Default: json.RawMessage(`{"kept":0}`), Doc: "an embedded struct with a json name"},
		{Name: "ratio", Type: "number", Default: json.RawMessage(`0`), Doc: "a number"},
		{Name: "on", Type: "boolean", Default: json.RawMessage(`false`), Doc: "a switch"},
		{Name: "names", Type: "array", Default: json.RawMessage(`null`), Doc: "a nil slice"},
		{Name: "cells", Type: "array", Default: json.RawMessage(`[[1,2,3]]`), Doc: "start cells"},
		{Name: "blob", Type: "string", Default: json.RawMessage(`"aGk="`), Doc: "base64"},
		{Name: "labels", Type: "object", Default: json.RawMessage(`null`), Doc: "a map"},
		{Name: "count", Type: "string", Default: json.RawMessage(`"7"`), Doc: "quoted"},
		{Name: "wait", Type: "integer", Default: json.RawMessage(`0`), Doc: "an integer of nanoseconds"},
		{Name: "when", Type: "string", Default: json.RawMessage(`"0001-01-01T00:00:00Z"`), Doc: "a text marshaler"},
		{Name: "raw", Type: "object", Default: json.RawMessage(`{"a":1}`), Doc: "only the value tells"},
		{Name: "any", Type: "number", Default: json.RawMessage(`1.5`), Doc: "only the value tells"},
		{Name: "-", Type: "integer", Default: json.RawMessage(`0`), Doc: "named -"},
		{Name: "empty", Type: "string", Default: json.RawMessage(`""`), Doc: "left out of the JSON when empty"},
		{Name: "NoTag", Type: "integer", Default: json.RawMessage(`0`), Doc: "named by the Go name"},
		{Name: "ptr", Type: "integer", Default: json.RawMessage(`null`), Doc: "a nil pointer"},
		{Name: "settings", Type: "object", Default: json.RawMessage(`null`)},
	}
	if got, want := fieldStrings(fields), fieldStrings(want); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ConfigSchema:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The names are those encoding/json writes, in its order.
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	var names []string
	for _, f := range fields {
		if f.Name != "empty" { // omitempty
			names = append(names, f.Name)
		}
	}
	if strings.Join(names, ",") != strings.Join(keys, ",") {
		t.Errorf("names %v, encoding/json writes %v", names, keys)
	}
}

type A struct {
	X int `doc:"a"`
	W int `json:"W" doc:"tagged"`
}

type B struct {
	X int `doc:"b"`
	W int `doc:"untagged"`
}

type ambiguousConfig struct {
	A
	B
	Z int `json:"z" doc:"z"`
}

func (*ambiguousConfig) Validate() error { return nil }

func TestConfigSchemaAmbiguousEmbeddedNamesDropOut(t *testing.T) {
	fields, err := env.ConfigSchema(&ambiguousConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// X is untagged in A and B at one depth: ambiguous, dropped. Of the two
	// W, the tagged one wins.
	if got := strings.Join(fieldStrings(fields), "\n"); got != "W integer 0 [] tagged\nz integer 0 [] z" {
		t.Errorf("fields:\n%s", got)
	}
	data, _ := json.Marshal(&ambiguousConfig{})
	if string(data) != `{"W":0,"z":0}` {
		t.Errorf("encoding/json writes %s", data)
	}
}

type mapConfig map[string]int

func (mapConfig) Validate() error { return nil }

func TestConfigSchemaOfNonStructs(t *testing.T) {
	fields, err := env.ConfigSchema(mapConfig{"a": 1})
	if err != nil || fields != nil {
		t.Errorf("ConfigSchema(map) = %v, %v; want no fields", fields, err)
	}
}

func TestRegistryConfigFields(t *testing.T) {
	r := newTestRegistry(t)
	fields, err := r.ConfigFields("counter")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fieldStrings(fields), "\n"); got != "seats integer 2 [] \ntarget integer 5 [] " {
		t.Errorf("ConfigFields(counter):\n%s", got)
	}
	if _, err := r.ConfigFields("chess"); !errors.Is(err, env.ErrUnknownGame) {
		t.Errorf("ConfigFields(chess) error = %v, want ErrUnknownGame", err)
	}
}

func TestUnknownFieldErrorListsValidFieldsOnlyAtTopLevel(t *testing.T) {
	r := &env.Registry{}
	r.Register(env.Entry{
		Name: "nested", Rules: func(env.Config) string { return "" },
		NewConfig: func() env.Config { return &nestedConfig{} },
		New:       func(env.Config) (env.Env, error) { return nil, nil },
	})
	tests := []struct{ name, config, want string }{
		{"top_level", `{"sizes":1}`, `nested: config: unknown field "sizes" (valid: size, inner)`},
		{"nested_object", `{"inner":{"size":1}}`, `nested: config: unknown field "size"`},
		{"nested_key_also_at_top_level", `{"size":1,"inner":{"size":1}}`, `nested: config: unknown field "size"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Config("nested", []byte(tt.config))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Config(%s) error = %v, want %q", tt.config, err, tt.want)
			}
		})
	}
}

type nestedConfig struct {
	Size  int `json:"size" doc:"a size"`
	Inner struct {
		Depth int `json:"depth"`
	} `json:"inner" doc:"a nested object"`
}

func (*nestedConfig) Validate() error { return nil }

func fieldStrings(fields []env.ConfigField) []string {
	var s []string
	for _, f := range fields {
		s = append(s, fmt.Sprintf("%s %s %s [%s] %s", f.Name, f.Type, f.Default, f.Allowed, f.Doc))
	}
	return s
}

// ExampleConfig is a game config with its schema tags.
type ExampleConfig struct {
	Players  int    `json:"players" doc:"number of players (seats)" allowed:"2..12"`
	PowerUps string `json:"powerups" doc:"power-up generator" allowed:"auto, random, distance"`
}

func (*ExampleConfig) Validate() error { return nil }

func ExampleConfigSchema() {
	fields, _ := env.ConfigSchema(&ExampleConfig{Players: 4, PowerUps: "auto"})
	for _, f := range fields {
		fmt.Printf("%s (%s, default %s, allowed %s): %s\n", f.Name, f.Type, f.Default, f.Allowed, f.Doc)
	}
	// Output:
	// players (integer, default 4, allowed 2..12): number of players (seats)
	// powerups (string, default "auto", allowed auto, random, distance): power-up generator
}
