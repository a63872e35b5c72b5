package portalbomber

import (
	"bytes"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// fuzzConfigs are the configs FuzzLoadNativeStep loads states into, chosen
// by the first fuzz argument: the scenario board, the original's, and the
// variant (simultaneous moves, variant commands, side 17).
func fuzzConfigs() []*Config {
	bareCfg := DefaultConfig()
	bareCfg.SoftDensity = 0
	return []*Config{bareCfg, DefaultConfig(), VariantConfig()}
}

// FuzzLoadNativeStep loads arbitrary state objects and plays on from them
// with arbitrary actions: a failed load leaves the game as it was; a state
// that loads keeps checkInvariants (which includes the state.json round
// trip for both seats) after the load and after every step, with rewards
// in range and flags consistent.
func FuzzLoadNativeStep(f *testing.F) {
	moves := []byte{7, 0, 10, 0, 8, 0, 4, 9, 11, 0, 3, 1, 9, 9, 0, 0, 16, 2, 12, 13, 255, 4}
	cfgs := fuzzConfigs()
	for k, cfg := range cfgs {
		g := testutil.MustNew(f, New, cfg)
		g.Reset(uint64(k))
		js, _ := g.AppendNative(nil, FormatStateJSON, 1)
		f.Add(uint8(k), js, moves)
		// Nine steps on: portals, a bomb and its blast.
		r := make([]float32, Seats)
		te, tr := make([]bool, Seats), make([]bool, Seats)
		for _, a := range []Action{TurnRight, OrangePortal, TurnDown, BluePortal, MoveRight, PlaceBomb, MoveLeft, Wait, Wait} {
			g.Step([]int32{int32(a), int32(a)}, r, te, tr)
		}
		js, _ = g.AppendNative(nil, FormatStateJSON, 0)
		f.Add(uint8(k), js, moves)
	}
	f.Fuzz(func(t *testing.T, which uint8, data, actions []byte) {
		cfg := cfgs[int(which)%len(cfgs)]
		g := testutil.MustNew(t, New, cfg)
		g.Reset(uint64(which))
		before, _ := g.AppendNative(nil, FormatStateJSON, 0)
		if err := g.LoadNative(data); err != nil {
			if after, _ := g.AppendNative(nil, FormatStateJSON, 0); !bytes.Equal(after, before) {
				t.Fatalf("a failed load (%v) changed the game", err)
			}
			return
		}
		checkInvariants(t, g)
		g.AppendNative(nil, FormatBoardTxt, -1)
		acts := make([]int32, Seats)
		r := make([]float32, Seats)
		te, tr := make([]bool, Seats), make([]bool, Seats)
		obs := g.Spec().NewObsBuffers()
		mask := make([]uint8, NumActions)
		for len(actions) >= 2 && !g.Done() {
			acts[0], acts[1] = int32(int8(actions[0]))%20, int32(int8(actions[1]))%20
			actions = actions[2:]
			g.Step(acts, r, te, tr)
			checkInvariants(t, g)
			for s := range Seats {
				if r[s] < -1 || r[s] > 1 || (te[s] && tr[s]) {
					t.Fatalf("seat %d: reward %v, terminated %v, truncated %v", s, r[s], te[s], tr[s])
				}
				g.WriteObs(s, obs)
				g.WriteMask(s, mask)
				if mask[0] != 1 || mask[InvalidMove] != 0 {
					t.Fatalf("seat %d mask %v", s, mask)
				}
			}
		}
		g.Result()
	})
}
