package battleships

import (
	"bytes"
	"os"
	"testing"
)

// TestReplayStatesReadsTheReplayBack: the kit's ReplayStates lists the
// full state.json of every state the Replay writer wrote, in order, and
// each loads back as the state it was written from.
func TestReplayStatesReadsTheReplayBack(t *testing.T) {
	dir := t.TempDir()
	g, err := New(&Config{Size: SizeSmall, Placement: PlacementLearn})
	if err != nil {
		t.Fatal(err)
	}
	write := Kit{}.ReplayWriter(dir, nil)
	g.Reset(4)
	var states [][]byte
	acts, r, te, tr := make([]int32, 2), make([]float32, 2), make([]bool, 2), make([]bool, 2)
	for round := 0; ; round++ {
		if err := write(g, round); err != nil {
			t.Fatal(err)
		}
		full, _ := g.AppendNative(nil, FormatStateJSON, -1)
		states = append(states, full)
		if g.Done() || round == 30 {
			break
		}
		acts[0], acts[1] = int32(round%7), int32(round%5)
		g.Step(acts, r, te, tr)
	}
	paths, err := Kit{}.ReplayStates(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(states) {
		t.Fatalf("%d states listed, %d written: %v", len(paths), len(states), paths)
	}
	h, _ := New(&Config{Size: SizeSmall, Placement: PlacementLearn})
	for i, p := range paths {
		data, err := os.ReadFile(dir + "/" + p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, states[i]) {
			t.Fatalf("%s is not state %d", p, i)
		}
		if err := h.LoadNative(data); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if _, err := (Kit{}).ReplayStates(os.DirFS(t.TempDir())); err == nil {
		t.Error("an empty folder lists states")
	}
}
