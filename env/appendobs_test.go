package env_test

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// appendConfig has two append-only fields of "scalars", declared in this
// order, one of "planes", and a field that is not append-only.
type appendConfig struct {
	Players int  `json:"players" doc:"seats"`
	History int  `json:"history" doc:"rounds of history" obs:"append scalars"`
	Marks   bool `json:"marks" doc:"marks after the history" obs:"append scalars"`
	Plane   bool `json:"plane" doc:"one more plane" obs:"append planes"`
}

func (*appendConfig) Validate() error { return nil }

// valid gives the struct it is embedded in a Validate method.
type valid struct{}

func (*valid) Validate() error { return nil }

func TestAppendFieldsReadTheObsTag(t *testing.T) {
	fields, err := env.AppendFields(&appendConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fields {
		got = append(got, f.Name+":"+f.Tensor)
	}
	if want := "history:scalars marks:scalars plane:planes"; strings.Join(got, " ") != want {
		t.Errorf("fields %v, want %s", got, want)
	}
	for _, tc := range []struct {
		name string
		cfg  env.Config
		err  string
	}{
		{"malformed_tag", &struct {
			valid
			Y bool `json:"y" obs:"prepend scalars"`
		}{}, `obs tag "prepend scalars", want "append TENSOR"`},
		{"not_bool_or_integer", &struct {
			valid
			Y float32 `json:"y" obs:"append scalars"`
		}{}, "is a float32, want a bool or an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := env.AppendFields(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("got %v, want an error with %q", err, tc.err)
			}
		})
	}
}

func TestObsPrefixFollowsTheDeclarationOrder(t *testing.T) {
	fields, err := env.AppendFields(&appendConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a, b appendConfig
		want bool
	}{
		{"same", appendConfig{Players: 2}, appendConfig{Players: 2}, true},
		{"raise_from_zero", appendConfig{}, appendConfig{History: 3, Marks: true, Plane: true}, true},
		{"raise_the_last_non_zero", appendConfig{History: 2}, appendConfig{History: 5, Marks: true}, true},
		{"lower", appendConfig{History: 5}, appendConfig{History: 2}, false},
		{"raise_before_the_last_non_zero", appendConfig{Marks: true}, appendConfig{History: 1, Marks: true}, false},
		{"drop_the_last_non_zero", appendConfig{History: 1, Marks: true}, appendConfig{History: 1}, false},
		{"tensors_apart", appendConfig{Plane: true}, appendConfig{History: 4, Plane: true}, true},
		{"other_field_differs", appendConfig{Players: 2}, appendConfig{Players: 4, History: 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := env.ObsPrefix(fields, &tc.a, &tc.b); got != tc.want {
				t.Errorf("ObsPrefix(%+v, %+v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
	t.Run("with_sets_one_field", func(t *testing.T) {
		c := fields[0].With(&appendConfig{Players: 3, Marks: true}, 7).(*appendConfig)
		if *c != (appendConfig{Players: 3, History: 7, Marks: true}) || fields[1].Value(c) != 1 || fields[2].Value(c) != 0 {
			t.Errorf("With: %+v", *c)
		}
	})
}
