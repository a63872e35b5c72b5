package battleships

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// fuzzConfigs are the configs FuzzLoadNativeStep loads states into, chosen
// by the first fuzz argument.
var fuzzConfigs = []*Config{
	{Size: SizeSmall},
	{Size: SizeSmall, Placement: PlacementLearn},
	{Size: SizeMedium},
	{Size: SizeMedium, Placement: PlacementLearn, MaxRounds: 30},
	{Size: SizeLarge, Placement: PlacementReference},
}

// FuzzLoadNativeStep loads arbitrary full state.json files and plays on
// from them: a failed load leaves the game as it was; a state that loads
// writes every format for every seat, round-trips byte for byte, and steps
// with arbitrary actions (out of range included) without a panic, with
// energy never negative, the round cap kept and the state still
// round-tripping after every step.
func FuzzLoadNativeStep(f *testing.F) {
	moves := []byte{0, 1, 0, 2, 0, 9, 1, 3, 0, 0, 255, 255, 0, 40, 0, 77, 0, 5, 0, 6}
	for k, cfg := range fuzzConfigs {
		g, err := New(cfg)
		if err != nil {
			f.Fatal(err)
		}
		g.Reset(uint64(k))
		f.Add(uint8(k), mustNative(f, g), moves)
		// And a dozen steps on.
		h, _ := New(cfg)
		h.Reset(uint64(k))
		acts := []int32{0, 0}
		var r [2]float32
		var te, tr [2]bool
		for i := 0; i < 12 && !h.done; i++ {
			h.Step(acts, r[:], te[:], tr[:])
			acts[0], acts[1] = int32(i%h.spec.Actions), int32((3*i+1)%h.spec.Actions)
		}
		f.Add(uint8(k), mustNative(f, h), moves)
	}
	f.Fuzz(func(t *testing.T, which uint8, data, actions []byte) {
		cfg := fuzzConfigs[int(which)%len(fuzzConfigs)]
		g, _ := New(cfg)
		g.Reset(uint64(which))
		before := mustNative(t, g)
		if err := g.LoadNative(data); err != nil {
			if after := mustNative(t, g); !bytes.Equal(after, before) {
				t.Fatalf("a failed load (%v) changed the game", err)
			}
			return
		}
		checkRoundTrip(t, cfg, g)
		acts := make([]int32, 2)
		var r [2]float32
		var te, tr [2]bool
		for len(actions) >= 4 && !g.done {
			for s := range 2 {
				acts[s] = int32(binary.BigEndian.Uint16(actions[2*s:]))%int32(g.spec.Actions+2) - 1
			}
			actions = actions[4:]
			g.Step(acts, r[:], te[:], tr[:])
			for s := range Seats {
				if p := &g.players[s]; p.Energy < 0 {
					t.Fatalf("seat %d energy %d", s, p.Energy)
				}
				if te[s] && tr[s] {
					t.Fatalf("seat %d terminated and truncated", s)
				}
			}
			if g.round > g.maxRound+1 {
				t.Fatalf("round %d past the cap %d", g.round, g.maxRound)
			}
			checkRoundTrip(t, cfg, g)
		}
		g.Result()
	})
}

// mustNative returns g's full state.json.
func mustNative(t testing.TB, g *Game) []byte {
	t.Helper()
	out, err := g.AppendNative(nil, FormatStateJSON, -1)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkRoundTrip writes every format for every seat and checks that the
// full state.json loads into a fresh game and writes back the same bytes.
func checkRoundTrip(t *testing.T, cfg *Config, g *Game) {
	t.Helper()
	for _, format := range nativeFormats {
		for seat := -1; seat < Seats; seat++ {
			g.AppendNative(nil, format, seat)
		}
	}
	state := mustNative(t, g)
	h, _ := New(cfg)
	if err := h.LoadNative(state); err != nil {
		t.Fatalf("the state written does not load: %v\n%s", err, state)
	}
	if back := mustNative(t, h); !bytes.Equal(back, state) {
		t.Fatalf("round trip:\n%s\nwant\n%s", back, state)
	}
}
