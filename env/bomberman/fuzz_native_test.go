package bomberman

import (
	"bytes"
	"testing"
)

// FuzzLoadNativeStep loads arbitrary state.json files and plays on from
// them: a failed load leaves the game as it was; a state that loads writes
// every format, steps with arbitrary actions keeping the invariants of
// FuzzStep, and still round-trips after the steps.
func FuzzLoadNativeStep(f *testing.F) {
	moves := []byte{5, 0, 3, 3, 0, 0, 6, 6, 1, 2, 4, 4, 255, 9, 5, 5, 2, 2, 1, 1}
	f.Add(uint8(0), readFile(f, sampleState), moves)
	f.Add(uint8(2), readFile(f, "testdata/golden/4p-seed1-round7.state.json"), moves)
	for _, players := range []int{2, 4, 5, 12} {
		g := mustNew(f, &Config{Players: players})
		g.Reset(uint64(players))
		f.Add(uint8(players-MinPlayers), native(f, g, FormatStateJSON), moves)
		play := make([]int32, players)
		for s := range play {
			play[s] = int32(PlaceBomb)
		}
		g.Step(play, make([]float32, players), make([]bool, players), make([]bool, players))
		f.Add(uint8(players-MinPlayers), native(f, g, FormatStateJSON), moves)
	}
	small := fixture(f, 3, 1)
	addBomb(f, small, 0, 1, 1, 1, 2)
	f.Add(uint8(0), native(f, small, FormatStateJSON), moves)
	f.Fuzz(func(t *testing.T, players uint8, data, actions []byte) {
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		g := mustNew(t, &Config{Players: n})
		g.Reset(1)
		before := native(t, g, FormatStateJSON)
		if err := g.LoadNative(data); err != nil {
			if after := native(t, g, FormatStateJSON); !bytes.Equal(after, before) {
				t.Fatalf("a failed load (%v) changed the game", err)
			}
			return
		}
		native(t, g, FormatMapTxt)
		native(t, g, FormatRoundInfo)
		checkLoadedRoundTrip(t, g)
		obs := g.Spec().NewObsBuffers()
		mask := make([]uint8, NumActions)
		fuzzPlay(t, g, actions, func(s int) {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
		})
		g.Result()
		checkLoadedRoundTrip(t, g)
	})
}

// checkLoadedRoundTrip checks that g's state.json loads into a fresh game
// and writes back the same state.json and map.txt.
func checkLoadedRoundTrip(t *testing.T, g *Game) {
	t.Helper()
	state := native(t, g, FormatStateJSON)
	h := mustNew(t, &Config{Players: g.nPlayers})
	if err := h.LoadNative(state); err != nil {
		t.Fatalf("re-loading the written state: %v\n%s", err, state)
	}
	if again := native(t, h, FormatStateJSON); !bytes.Equal(again, state) {
		t.Fatalf("state.json changed on a round trip at byte %d", firstDiff(again, state))
	}
	if !bytes.Equal(native(t, h, FormatMapTxt), native(t, g, FormatMapTxt)) {
		t.Fatal("map.txt changed on a round trip")
	}
}
