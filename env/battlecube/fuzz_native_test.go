package battlecube

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// fuzzConfigs are the configs FuzzLoadNativeStep loads requests into,
// chosen by the first fuzz argument.
var fuzzConfigs = []*Config{
	{Players: 3, Edge: 4, MaxTicks: 50, TasksPerTick: 1},
	{Players: 2, Edge: 8, MaxTicks: 200, TasksPerTick: 2, Names: []string{"John", "Paul"}, URLs: []string{"http://a", ""}},
	{Players: 6, Edge: 5, MaxTicks: 40, TasksPerTick: 3, SafeMask: true, GameID: "g"},
	{Players: 1, Edge: 1, MaxTicks: 5, TasksPerTick: 1},
}

// FuzzLoadNativeStep loads arbitrary request.json files and plays on from
// them: a failed load leaves the game as it was; a request that loads
// writes back byte for byte (as the referee sees it) and loads again, and
// the game steps with arbitrary actions (rejects and out of range
// included) keeping FuzzStep's invariants, round-tripping after every
// step while the game goes on.
func FuzzLoadNativeStep(f *testing.F) {
	moves := []byte{0, 1, 0, 2, 0, 7, 0, 9, 255, 255, 0, 3, 0, 4, 1, 0, 0, 5, 0, 6, 255, 254, 0, 0}
	for k, cfg := range fuzzConfigs {
		g := testutil.MustNew(f, New, cfg)
		g.Reset(uint64(k))
		f.Add(uint8(k), requestJSON(f, g, -1), moves)
		play(g, uint64(k), 7)
		f.Add(uint8(k), requestJSON(f, g, 0), moves)
	}
	f.Add(uint8(0), []byte(`{"gameInfo":{"id":"x","edgeLength":4,"numOfTasksPerTick":1,"currentTick":3},"players":[{"name":"a","x":1,"y":1,"z":1}],"items":[{"x":9,"y":0,"z":0,"type":"BOMB"}]}`), moves)
	f.Add(uint8(1), []byte(`{"gameInfo":{"id":"y","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":2,"currentTick":1},"players":[{"name":"Paul","x":0,"y":0,"z":0},{"name":"John","x":7,"y":7,"z":7}],"items":[]}`), moves)
	f.Fuzz(func(t *testing.T, which uint8, data, actions []byte) {
		cfg := fuzzConfigs[int(which)%len(fuzzConfigs)]
		g := testutil.MustNew(t, New, cfg)
		g.Reset(uint64(which))
		before := requestJSON(t, g, -1)
		if err := g.LoadNative(data); err != nil {
			if after := requestJSON(t, g, -1); !bytes.Equal(after, before) {
				t.Fatalf("a failed load (%v) changed the game", err)
			}
			return
		}
		if !g.Done() {
			checkRequestRoundTrip(t, cfg, g)
		}
		n := g.Players()
		a := make([]int32, n)
		rew := make([]float32, n)
		term, trunc := make([]bool, n), make([]bool, n)
		obs := g.Spec().NewObsBuffers()
		mask := make([]uint8, g.Spec().Actions)
		for len(actions) >= 2*n && !g.Done() {
			for s := range n {
				a[s] = int32(int16(binary.BigEndian.Uint16(actions[2*s:]))) % int32(g.Spec().Actions+4)
			}
			actions = actions[2*n:]
			g.Step(a, rew, term, trunc)
			checkSeats(t, g, term, trunc)
			for s := range n {
				g.WriteObs(s, obs)
				g.WriteMask(s, mask)
			}
			g.AppendEvents(nil)
			if !g.Done() {
				checkRequestRoundTrip(t, cfg, g)
			}
		}
		g.Result()
	})
}

// requestJSON returns g's request.json as seat sees it.
func requestJSON(t testing.TB, g *Game, seat int) []byte {
	t.Helper()
	out, err := g.AppendNative(nil, FormatRequest, seat)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkRequestRoundTrip checks that g's request, for the referee and for
// every seat, loads into a fresh game that writes back the referee's
// request byte for byte. A request lists only the bots in play, by name:
// once a seat is lost, bots whose names are not the config's (a request
// loaded with other names) cannot be given their seats back, so that case
// is left out.
func checkRequestRoundTrip(t *testing.T, cfg *Config, g *Game) {
	t.Helper()
	if g.nLost > 0 {
		for s := range g.n {
			if g.players[s].Name != cfg.name(s) {
				return
			}
		}
	}
	want := requestJSON(t, g, -1)
	for seat := -1; seat < g.Players(); seat++ {
		req := requestJSON(t, g, seat)
		h, _ := New(cfg)
		if err := h.LoadNative(req); err != nil {
			t.Fatalf("seat %d's request does not load: %v\n%s", seat, err, req)
		}
		if back := requestJSON(t, h, -1); !bytes.Equal(back, want) {
			t.Fatalf("seat %d's request round trip:\n%s\nwant\n%s", seat, back, want)
		}
	}
}
