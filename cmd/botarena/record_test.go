package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// TestPlayRecord: play --record writes a recording whose header, rounds
// and result are those of the match play prints.
func TestPlayRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bb.jsonl")
	stdout := runOK(t, "play", "battlebots", "--seed", "12", "--agents", "random", "--max-rounds", "30", "--json", "--record", path)
	var printed map[string]any
	if err := json.Unmarshal([]byte(stdout), &printed); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := match.ReadRecording(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	h, rounds, result := rec.Header, len(rec.Rounds), rec.Result
	if h.Game != "battlebots" || h.Seed != 12 || h.Seats != 2 || strings.Join(h.Agents, ",") != "random,random" || h.StateFormat != "arena.txt" || h.Loaded {
		t.Errorf("header %+v", h)
	}
	var recorded map[string]any
	if err := json.Unmarshal(result, &recorded); err != nil {
		t.Fatal(err)
	}
	if want := int(printed["rounds"].(float64)) + 1; rounds != want || recorded["winner"] != printed["winner"] || recorded["rounds"] != printed["rounds"] {
		t.Errorf("%d round lines (want %d), result %v, printed %v", rounds, want, recorded, printed)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestPlayRecordRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "2"}, "--record: records one game; leave out --games 2"},
		{[]string{"--record-max-bytes", "2KiB"}, "--record " + path + ": recording: round "},
		{[]string{"--record-max-bytes", "0"}, "--record-max-bytes: want 1 or more"},
	} {
		_, stderr, code := runCLI(t, "", append([]string{"play", "bomberman", "--seed", "1", "--record", path}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("files left after the failures: %v", left)
	}
}
