package replay_test

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/botarena/botarena/env/replay"
)

func TestStatesListTheRoundFoldersInOrder(t *testing.T) {
	if got := replay.File("state.json"); got != "state.json" {
		t.Errorf("ReplayFile(state.json) = %q", got)
	}
	if got := replay.File("events"); got != "state.events" {
		t.Errorf("ReplayFile(events) = %q", got)
	}
	file := &fstest.MapFile{Data: []byte("{}")}
	fsys := fstest.MapFS{"0/state.json": file, "1/state.json": file, "10/state.json": file, "notes.txt": file, "01/state.json": file}
	for r := 2; r < 10; r++ {
		fsys[string(rune('0'+r))+"/state.json"] = file
	}
	paths, err := replay.States(fsys, "state.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0/state.json", "1/state.json", "2/state.json", "3/state.json", "4/state.json", "5/state.json", "6/state.json", "7/state.json", "8/state.json", "9/state.json", "10/state.json"}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	if _, err := replay.States(fsys, "state.json", 5); err == nil {
		t.Error("no error past the limit")
	}
	for name, bad := range map[string]fstest.MapFS{
		"empty":        {"notes.txt": file},
		"gap":          {"0/state.json": file, "2/state.json": file},
		"missing_file": {"0/state.json": file, "1/map.txt": file},
	} {
		if _, err := replay.States(bad, "state.json", 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
