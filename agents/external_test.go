package agents

import (
	"bytes"
	"io"
	"slices"
	"testing"
)

// An external bot without a log of its own writes to ExternalOptions.Log,
// the program's choice, and to no stream at all when that is unset: the
// agents package writes nowhere of its own accord.
func TestExternalLogIsWhereTheProgramSays(t *testing.T) {
	old := ExternalOptions
	t.Cleanup(func() { ExternalOptions = old })
	var log bytes.Buffer
	ExternalOptions = ExternalSettings{Log: &log}
	if w := ExternalLog(nil); w != &log {
		t.Errorf("ExternalLog(nil) = %v, want ExternalOptions.Log", w)
	}
	ExternalOptions = ExternalSettings{}
	if w := ExternalLog(nil); w != io.Discard {
		t.Errorf("ExternalLog(nil) with no program log = %v, want io.Discard", w)
	}
	if w := ExternalLog(&log); w != &log {
		t.Errorf("ExternalLog(own) = %v, want own", w)
	}
}

// SplitQuoted: only the quotes given group, each closed by itself; an
// open quote is returned with its text in the last word.
func TestSplitQuoted(t *testing.T) {
	space := func(r rune) bool { return r == ' ' }
	for _, tc := range []struct {
		in, quotes string
		want       []string
		open       rune
	}{
		{`a  'b c' d"e f"`, `"'`, []string{"a", "b c", "de f"}, 0},
		{`a 'b c'`, `"`, []string{"a", "'b", "c'"}, 0},
		{`x "it's" ""`, `"'`, []string{"x", "it's", ""}, 0},
		{"a\tb", `"`, []string{"a\tb"}, 0},
		{`a "b c`, `"`, []string{"a", "b c"}, '"'},
		{``, `"`, nil, 0},
	} {
		got, open := SplitQuoted(tc.in, tc.quotes, space)
		if !slices.Equal(got, tc.want) || open != tc.open {
			t.Errorf("SplitQuoted(%q, %q) = %q, %q; want %q, %q", tc.in, tc.quotes, got, open, tc.want, tc.open)
		}
	}
}
