package replay_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/internal/testutil"
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

// noRefereeView is a real codec whose formats have no referee's view: it
// refuses seat -1, as a game whose native formats are all per seat does.
type noRefereeView struct{ env.Codec }

func (c noRefereeView) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if seat < 0 {
		return dst, errors.New("no referee's view")
	}
	return c.Codec.AppendNative(dst, format, seat)
}

// TestWriteRoundWritesEveryFormatInTheGenericLayout: WriteRound writes each
// native format of the state into <dir>/<round>/File(format), in the
// referee's view or, for a format without one, seat 0's, and States reads
// the rounds back in order.
func TestWriteRoundWritesEveryFormatInTheGenericLayout(t *testing.T) {
	e := testutil.NewEnv(t, "bomberman", 7)
	full, err := env.CodecOf(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    env.Codec
		seat int // the view the files hold
	}{
		{"referee_view", full, -1},
		{"seat_0_without_referee_view", noRefereeView{full}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var buf []byte
			for round := range 2 {
				if buf, err = replay.WriteRound(dir, round, tc.c, buf); err != nil {
					t.Fatal(err)
				}
			}
			formats := full.NativeFormats()
			paths, err := replay.States(os.DirFS(dir), formats[0], 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"0/" + replay.File(formats[0]), "1/" + replay.File(formats[0])}; !slices.Equal(paths, want) {
				t.Errorf("States = %v, want %v", paths, want)
			}
			for _, f := range formats {
				want, err := full.AppendNative(nil, f, tc.seat)
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(dir, "1", replay.File(f)))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the codec's seat %d view", f, tc.seat)
				}
			}
		})
	}
	// A round folder that cannot be made is an error naming the round.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := replay.WriteRound(blocked, 3, full, nil); err == nil || !strings.Contains(err.Error(), "round 3") {
		t.Errorf("WriteRound under a file: %v, want an error naming round 3", err)
	}
}
