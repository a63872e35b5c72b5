package env_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	// Every game, so that the fuzz targets see the whole registry.
	_ "github.com/botarena/botarena/games"
)

// unknownGame is what FuzzConfig asks for when its game index is past the
// registered names.
const unknownGame = "nosuchgame"

// FuzzConfig feeds arbitrary JSON configs to every registered game (and to
// an unknown name). Registry.Config either fails with a *ConfigError that
// names the game, a field and a reason, or with a decode error prefixed by
// the game's name; or it returns a config that re-encodes to itself, that
// Make accepts, and whose env steps and keeps the Env contract: masks,
// rewards, flags, results and a canonical native state that loads back to
// the same bytes.
func FuzzConfig(f *testing.F) {
	names := env.Default.Names()
	index := func(name string) uint8 {
		for i, n := range names {
			if n == name {
				return uint8(i)
			}
		}
		f.Fatalf("no game %q registered", name)
		return 0
	}
	moves := []byte{1, 2, 3, 4, 5, 6, 0, 7, 255, 255, 0, 0, 9, 1, 2, 200, 3, 17}
	for i := range names {
		f.Add(uint8(i), []byte(nil), uint64(1), moves)
		f.Add(uint8(i), []byte(`{}`), uint64(2), bytes.Repeat(moves, 4))
		f.Add(uint8(i), []byte(` null `), uint64(3), []byte{})
		f.Add(uint8(i), []byte(`{"max_rounds":3}`), uint64(4), bytes.Repeat(moves, 8))
		f.Add(uint8(i), []byte(`{"nope":1}`), uint64(5), moves)
		f.Add(uint8(i), []byte(`{} {}`), uint64(6), moves)
	}
	f.Add(uint8(len(names)), []byte(`{}`), uint64(0), moves)
	for _, c := range []struct{ game, config string }{
		{"bomberman", `{"players":12,"powerups":"random","names":["a","b"],"console_seats":[0,11],"map_crlf":true,"points_reward":0.5}`},
		{"bomberman", `{"players":4,"powerups":"distance","legacy_seeding":true,"max_rounds":20}`},
		{"bomberman", `{"players":2,"view_radius":3,"safe_mask":true,"safe_mask_wary":true,"safe_mask_strict":true}`},
		{"bomberman", `{"safe_mask_strict":true}`},
		{"bomberman", `{"players":3,"view_radius":2,"touched_planes":true,"opponent_scalars":true}`},
		{"bomberman", `{"players":8,"touched_planes":true}`},
		{"bomberman", `{"players":13}`},
		{"bomberman", `{"players":"4"}`},
		{"bomberman", `{"names":["a\u0001"]}`},
		{"battleships", `{"size":"small","placement":"learn","max_rounds":40,"names":["x","y"]}`},
		{"battleships", `{"size":"large","placement":"reference","points_reward":1}`},
		{"battleships", `{"size":"huge"}`},
		{"battlecube", `{"players":27,"edge":3,"max_ticks":30,"tasks_per_tick":3,"safe_mask":true}`},
		{"battlecube", `{"players":2,"edge":8,"start_positions":[[1,1,1],[5,5,5]],"names":["John","Paul"],"urls":["http://x",""],"game_id":"g"}`},
		{"battlecube", `{"players":9,"edge":2}`},
		{"battlecube", `{"names":["a","a"]}`},
		{"battlebots", `{"arena":"10x10","max_rounds":50,"names":["r1","r2"],"hp_reward":0.1}`},
		{"battlebots", `{"arena":"11x11"}`},
		{"battlebots", `{"history":3,"max_rounds":30}`},
		{"battlebots", `{"history":9}`},
		{"portalbomber", `{"size":25,"simultaneous":true,"variant_commands":true,"soft_density":100,"apocalypse_after":0,"max_rounds":9}`},
		{"portalbomber", `{"size":8}`},
	} {
		f.Add(index(c.game), []byte(c.config), uint64(7), bytes.Repeat(moves, 3))
	}
	f.Fuzz(func(t *testing.T, game uint8, config []byte, seed uint64, actions []byte) {
		name := unknownGame
		if int(game) < len(names) {
			name = names[game]
		}
		cfg, err := env.Default.Config(name, config)
		if name == unknownGame {
			if !errors.Is(err, env.ErrUnknownGame) {
				t.Fatalf("Config(%q): %v, want ErrUnknownGame", name, err)
			}
			return
		}
		if err != nil {
			checkConfigError(t, name, err)
			if _, err2 := env.Default.Make(name, config); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("Config failed with %v, but Make gives %v", err, err2)
			}
			return
		}
		// The config re-encodes to itself.
		js, err := json.Marshal(cfg)
		if err != nil {
			t.Fatalf("a config Config accepted does not marshal: %v", err)
		}
		again, err := env.Default.Config(name, js)
		if err != nil {
			t.Fatalf("a config Config accepted, re-encoded as %s, fails: %v", js, err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("config %s re-decodes as %+v, want %+v", js, again, cfg)
		}
		e, err := env.Default.Make(name, config)
		if err != nil {
			t.Fatalf("Config accepted %s, but Make fails: %v", config, err)
		}
		// Each input costs one reset, up to 48 steps and one round trip of
		// the state, so that the seed corpus's baseline coverage (with the
		// 41×41 twelve-player maps) fits make fuzz's default 10 s on a
		// busy machine: the state after the reset is a state like any
		// other, and the fresh games' states are the golden tests'.
		// A config may opt out of action 0's legality (Bomberman's
		// safe_mask_strict: a fatal wait), never out of some action's.
		waitMayGo := bytes.Contains(js, []byte(`"safe_mask_strict":true`))
		e.Reset(seed)
		checkEnv(t, e, waitMayGo)
		playBytes(t, e, actions, 48)
		checkEnv(t, e, waitMayGo)
		checkAllFormats(t, e)
		checkCanonicalRoundTrip(t, name, config, e)
	})
}

// checkConfigError checks that err, from Registry.Config(name, ...), says
// what is wrong: a *ConfigError naming the game, a field and a reason, or a
// decode error that starts with the game's name.
func checkConfigError(t *testing.T, name string, err error) {
	t.Helper()
	var ce *env.ConfigError
	if errors.As(err, &ce) {
		if ce.Game != name || ce.Field == "" || ce.Reason == "" {
			t.Fatalf("ConfigError %+v does not name game %q, a field and a reason", ce, name)
		}
		return
	}
	prefix := name + ": config: "
	if msg := err.Error(); !strings.HasPrefix(msg, prefix) || len(msg) == len(prefix) {
		t.Fatalf("Config(%q) error %q is neither a *ConfigError nor a decode error starting %q", name, msg, prefix)
	}
}

// playBytes steps e with actions read from data, two bytes per seat per
// step (in range mostly; -2, -1, Actions and the int32 extremes too), at
// most maxSteps steps, checking the step contract after each.
func playBytes(t *testing.T, e env.Env, data []byte, maxSteps int) {
	t.Helper()
	spec := e.Spec()
	n := spec.Seats
	acts := make([]int32, n)
	rewards := make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	for step := 0; step < maxSteps && len(data) >= 2*n; step++ {
		for s := range n {
			v := int(data[2*s])<<8 | int(data[2*s+1])
			switch v {
			case 0xffff:
				acts[s] = math.MaxInt32
			case 0xfffe:
				acts[s] = math.MinInt32
			default:
				acts[s] = int32(v%(spec.Actions+3)) - 2
			}
		}
		data = data[2*n:]
		wasDone, steps := e.Done(), e.Steps()
		e.Step(acts, rewards, term, trunc)
		for s := range n {
			if r := float64(rewards[s]); math.IsNaN(r) || math.IsInf(r, 0) {
				t.Fatalf("step %d: seat %d reward %v", step, s, r)
			}
			if term[s] && trunc[s] {
				t.Fatalf("step %d: seat %d both terminated and truncated", step, s)
			}
			if wasDone && rewards[s] != 0 {
				t.Fatalf("step %d: stepping a finished game gave seat %d reward %v", step, s, rewards[s])
			}
		}
		if wasDone && e.Steps() != steps {
			t.Fatalf("step %d: stepping a finished game moved Steps from %d to %d", step, steps, e.Steps())
		}
		if wasDone && !e.Done() {
			t.Fatalf("step %d: a finished game is no longer done after a step", step)
		}
	}
}

// checkEnv checks the parts of the Env contract that hold in any state:
// every seat's mask and observation, and the result. With waitMayGo the
// config lets the mask clear action 0, so only some action must be legal.
func checkEnv(t *testing.T, e env.Env, waitMayGo bool) {
	t.Helper()
	spec := e.Spec()
	if spec.Seats < 1 || spec.Actions < 1 || len(spec.ActionNames) != spec.Actions {
		t.Fatalf("spec %+v", spec)
	}
	if spec.Factors != nil {
		if err := spec.Factors.Check(spec.Actions); err != nil {
			t.Fatalf("%s: %v", spec.Game, err)
		}
	}
	if e.Steps() < 0 {
		t.Fatalf("Steps() = %d", e.Steps())
	}
	obs := spec.NewObsBuffers()
	mask := make([]uint8, spec.Actions)
	for s := range spec.Seats {
		e.WriteObs(s, obs)
		e.WriteMask(s, mask)
		if mask[0] != 1 && !waitMayGo {
			t.Fatalf("seat %d: action 0 is masked", s)
		}
		legal := 0
		for a, m := range mask {
			if m > 1 {
				t.Fatalf("seat %d: mask[%d] = %d", s, a, m)
			}
			legal += int(m)
		}
		if legal == 0 {
			t.Fatalf("seat %d: no action is legal", s)
		}
	}
	res := e.Result()
	if res.Winner < -1 || res.Winner >= spec.Seats {
		t.Fatalf("winner %d of %d seats", res.Winner, spec.Seats)
	}
	if len(res.Standings) != spec.Seats {
		t.Fatalf("%d standings for %d seats", len(res.Standings), spec.Seats)
	}
	seen := make([]bool, spec.Seats)
	for i, st := range res.Standings {
		if st.Seat < 0 || st.Seat >= spec.Seats || seen[st.Seat] {
			t.Fatalf("standings %+v: seat %d", res.Standings, st.Seat)
		}
		seen[st.Seat] = true
		if st.Rank != i+1 {
			t.Fatalf("standings %+v: entry %d has rank %d", res.Standings, i, st.Rank)
		}
	}
	if w, d := e.Outcome(); w != res.Winner || d != res.Draw {
		t.Fatalf("Outcome() = %d, %v; Result says %d, %v", w, d, res.Winner, res.Draw)
	}
}

// checkAllFormats writes every native format for the referee, the first
// seat and the last: no panics; an error only names the game. (The seats
// between write the same code path as these two; writing all twelve of a
// 41×41 map cost more than the rest of an input.)
func checkAllFormats(t *testing.T, e env.Env) {
	t.Helper()
	c, err := env.CodecOf(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range c.NativeFormats() {
		for _, seat := range []int{-1, 0, e.Spec().Seats - 1} {
			if _, err := c.AppendNative(nil, format, seat); err != nil && err.Error() == "" {
				t.Fatalf("%s for seat %d: an empty error", format, seat)
			}
		}
	}
	if _, err := c.AppendNative(nil, "no such format", 0); err == nil {
		t.Fatal("an unknown format is no error")
	}
}

// canonicalState returns e's codec, its canonical native format (the
// first it lists) and e's state in that format as seat sees it; it fails
// tb when e has no codec or the state cannot be written.
func canonicalState(tb testing.TB, e env.Env, seat int) (c env.Codec, format string, state []byte) {
	tb.Helper()
	c, err := env.CodecOf(e)
	if err != nil {
		tb.Fatal(err)
	}
	format = c.NativeFormats()[0]
	state, err = c.AppendNative(nil, format, seat)
	if err != nil {
		tb.Fatalf("%s for seat %d: %v", format, seat, err)
	}
	return c, format, state
}

// checkCanonicalRoundTrip checks that e's canonical native state, as the
// referee sees it, loads into a fresh env of the same config and writes
// back the same bytes.
func checkCanonicalRoundTrip(t *testing.T, name string, config []byte, e env.Env) {
	t.Helper()
	_, format, state := canonicalState(t, e, -1)
	if env.IsJSONFormat(format) && !json.Valid(state) {
		t.Fatalf("%s is not JSON:\n%s", format, state)
	}
	h, err := env.Default.Make(name, config)
	if err != nil {
		t.Fatal(err)
	}
	hc := h.(env.Codec)
	if err := hc.LoadNative(state); err != nil {
		t.Fatalf("the %s written does not load: %v\n%s", format, err, state)
	}
	back, _ := hc.AppendNative(nil, format, -1)
	if !bytes.Equal(back, state) {
		t.Fatalf("%s round trip:\n%s\nwant\n%s", format, back, state)
	}
}
