package agents

import (
	"bytes"
	"io"
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
