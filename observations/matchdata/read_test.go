package matchdata_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations/matchdata"
)

var spec = &env.Spec{Game: "tiny/3p", Seats: 3, Actions: 4, MaxSteps: 10, Reward: "win",
	Obs: []env.Tensor{{Name: "planes", DType: env.Uint8, Shape: []int{2, 2}, Layout: "[C,W] c*2+w"}}}

// rows makes a game of steps steps whose seat s plays step*10+s.
func rows(game int64, steps int) *matchdata.Rows {
	r := &matchdata.Rows{Game: game, Seed: uint64(100 + game), Agents: []string{"a", "b", "c"}, Steps: steps, Obs: [][]byte{make([]byte, steps*3*4)}, Mask: make([]byte, steps*3*4)}
	for st := range steps {
		for s := range 3 {
			r.Action = append(r.Action, int32(st*10+s))
			r.Label = append(r.Label, int32(st*10+s+1))
			r.Reward = append(r.Reward, float32(s))
			r.Terminated = append(r.Terminated, st == steps-1)
			r.Truncated = append(r.Truncated, false)
		}
	}
	return r
}

// writeFile writes w's games to a file in a temporary folder and returns
// the file, open for reading until the test ends, and its size.
func writeFile(t *testing.T, w *matchdata.Writer) (*os.File, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.parquet")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return f, st.Size()
}

func TestReadFile(t *testing.T) {
	w, err := matchdata.NewWriter(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	for g, steps := range []int{3, 1, 40000} { // the last game spans two row groups
		if err := w.Append(rows(int64(g+5), steps)); err != nil {
			t.Fatal(err)
		}
	}
	f, size := writeFile(t, w)
	for _, want := range []int64{-1, 5, 7} {
		got, err := matchdata.ReadFile(f, size, want)
		if err != nil {
			t.Fatal(err)
		}
		if got.Game != "tiny/3p" || got.Seats != 3 || len(got.Games) != 3 {
			t.Fatalf("%s, %d seats, %d games", got.Game, got.Seats, len(got.Games))
		}
		for i, g := range got.Games {
			w := rows(int64(i+5), []int{3, 1, 40000}[i])
			if g.Game != w.Game || g.Seed != w.Seed || g.Steps != w.Steps || !slices.Equal(g.Agents, w.Agents) || g.Obs != nil || g.Mask != nil {
				t.Errorf("game %d: %d seed %d steps %d agents %v", i, g.Game, g.Seed, g.Steps, g.Agents)
			}
			if g.Game != want {
				if g.Action != nil {
					t.Errorf("game %d has actions, asked for %d", g.Game, want)
				}
				continue
			}
			if !slices.Equal(g.Action, w.Action) || !slices.Equal(g.Label, w.Label) || !slices.Equal(g.Reward, w.Reward) || !slices.Equal(g.Terminated, w.Terminated) || !slices.Equal(g.Truncated, w.Truncated) {
				t.Errorf("game %d: the actions and outcomes differ", g.Game)
			}
		}
	}
	if _, err := matchdata.ReadFile(strings.NewReader("not parquet at all"), 18, -1); err == nil {
		t.Error("read a file that is not Parquet")
	}
}

func TestLabelsDefaultToTheActions(t *testing.T) {
	w, err := matchdata.NewWriter(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	r := rows(1, 4)
	r.Label = nil
	if err := w.Append(r); err != nil {
		t.Fatal(err)
	}
	r.Label = []int32{1, 2} // neither none nor one per row
	if err := w.Append(r); err == nil {
		t.Error("Append took labels of the wrong length")
	}
	f, size := writeFile(t, w)
	got, err := matchdata.ReadFile(f, size, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Games) != 1 || !slices.Equal(got.Games[0].Label, got.Games[0].Action) || len(got.Games[0].Label) != 12 {
		t.Errorf("labels %v, want the actions %v", got.Games[0].Label, got.Games[0].Action)
	}
}
