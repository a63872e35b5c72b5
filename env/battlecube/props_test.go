package battlecube

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// play steps g with random in-range actions (and a few rejects) until done
// or steps run out, returning every seat's obs bytes concatenated.
func play(g *Game, seed uint64, steps int) []byte {
	n := g.Players()
	rng := rand.New(rand.NewPCG(seed, 1))
	acts := make([]int32, n)
	rew := make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	obs := g.Spec().NewObsBuffers()
	var out []byte
	for range steps {
		if g.Done() {
			break
		}
		for s := range n {
			if rng.IntN(3) == 0 {
				acts[s] = int32(rng.IntN(int(NumFixedActions)))
			} else {
				acts[s] = int32(rng.IntN(g.Spec().Actions))
			}
		}
		g.Step(acts, rew, term, trunc)
		for s := range n {
			g.WriteObs(s, obs)
			out = append(out, obs[0]...)
			out = append(out, obs[1]...)
		}
		out = g.AppendEvents(out)
	}
	return out
}

func TestDeterminism(t *testing.T) {
	mk := func() *Game {
		g, err := New(&Config{Players: 6, Edge: 5, MaxTicks: 200, TasksPerTick: 2})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := mk(), mk()
	a.Reset(42)
	b.Reset(42)
	if !bytes.Equal(play(a, 1, 300), play(b, 1, 300)) {
		t.Fatal("same seed and actions, different trajectories")
	}
	a.Reset(42)
	b.Reset(43)
	ra, _ := a.AppendNative(nil, FormatRequest, -1)
	rb, _ := b.AppendNative(nil, FormatRequest, -1)
	if bytes.Equal(ra, rb) {
		t.Error("different seeds, same start")
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, history := range []bool{false, true} {
		g, err := New(&Config{Players: 4, Edge: 8, MaxTicks: 1000, TasksPerTick: 1, SafeMask: true, History: history})
		if err != nil {
			t.Fatal(err)
		}
		zeroAllocs(t, g)
	}
	g, err := New(&Config{Players: 4, Edge: 8, MaxTicks: 1000, TasksPerTick: 3, SafeMask: true, History: true, CycleMarks: true})
	if err != nil {
		t.Fatal(err)
	}
	zeroAllocs(t, g)
}

// zeroAllocs checks that g's steps, observations, masks and resets do not
// allocate.
func zeroAllocs(t *testing.T, g *Game) {
	t.Helper()
	n := 4
	acts := []int32{1, int32(BombAction(8, 3, 3, 3)), 0, -1}
	rew := make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	obs := g.Spec().NewObsBuffers()
	mask := make([]uint8, g.Spec().Actions)
	seed := uint64(0)
	allocs := testing.AllocsPerRun(200, func() {
		g.Step(acts, rew, term, trunc)
		for s := range n {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
		}
		g.Outcome()
		seed++
		if g.Done() || seed%3 == 0 {
			g.Reset(seed)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per step", allocs)
	}
}

func TestRoundTrip(t *testing.T) {
	g, _ := New(&Config{Players: 3, Edge: 6, MaxTicks: 100, TasksPerTick: 1})
	g.Reset(9)
	play(g, 3, 5)
	if g.Done() {
		t.Skip("game over early")
	}
	req, err := g.AppendNative(nil, FormatRequest, 0)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := New(&Config{Players: 3, Edge: 6, MaxTicks: 100, TasksPerTick: 1})
	if err := h.LoadNative(req); err != nil {
		t.Fatal(err)
	}
	req2, _ := h.AppendNative(nil, FormatRequest, 0)
	if !bytes.Equal(req, req2) {
		t.Errorf("round trip:\n%s\n%s", req, req2)
	}
	for a := range int32(g.Spec().Actions) {
		cmd := g.AppendCommand(nil, 0, a)
		if got, ok := g.ParseCommand(0, cmd); got != a || !ok {
			t.Fatalf("action %d: %s parses as %d, %v", a, cmd, got, ok)
		}
	}
	for _, a := range []Action{CrashMove, BombNowhere, Idle, StrayMove('a'), StrayMove('5'), StrayMove(0xDE00), StrayMove('"'), StrayMove(NoAxis)} {
		cmd := g.AppendCommand(nil, 0, int32(a))
		if got, ok := g.ParseCommand(0, cmd); Action(got) != a || ok {
			t.Fatalf("action %d: %s parses as %d, %v", a, cmd, got, ok)
		}
	}
}

func TestParseCommand(t *testing.T) {
	g, _ := New(&Config{Players: 2, Edge: 8, MaxTicks: 10, TasksPerTick: 1})
	tests := []struct {
		name, text string
		want       Action
		ok         bool
	}{
		{"move", `[{"task":"MOVE","direction":"+X"}]`, MovePlusX, true},
		{"lower_case_direction", `[{"task":"MOVE","direction":"+x"}]`, MovePlusX, true},
		{"long_direction_reads_two_chars", `[{"task":"MOVE","direction":"-XY"}]`, MoveMinusX, true},
		{"bomb", `[{"task":"BOMB","x":1,"y":2,"z":3}]`, BombAction(8, 1, 2, 3), true},
		{"numeric_strings", `[{"task":"BOMB","x":"1","y":2,"z":3}]`, BombAction(8, 1, 2, 3), true},
		{"noop", `[{"task":"NOOP"}]`, Noop, true},
		{"not_json", `hello`, RejectConnection, false},
		{"json_then_garbage", `404 page not found`, RejectConnection, false},
		{"two_values", `[] []`, RejectConnection, false},
		{"not_array", `{"task":"NOOP"}`, RejectSchema, false},
		{"extra_key", `[{"task":"NOOP","x":1}]`, RejectSchema, false},
		{"negative_coordinate", `[{"task":"BOMB","x":-1,"y":2,"z":3}]`, RejectSchema, false},
		{"fraction", `[{"task":"BOMB","x":1.5,"y":2,"z":3}]`, RejectSchema, false},
		{"empty_task", `[{"task":""}]`, RejectSchema, false},
		{"too_many", `[{"task":"NOOP"},{"task":"NOOP"}]`, RejectAmount, false},
		{"none", `[]`, RejectAmount, false},
		{"jump_does_nothing", `[{"task":"JUMP"}]`, Idle, false},
		{"bomb_outside_cube", `[{"task":"BOMB","x":8,"y":2,"z":3}]`, Noop, false},
		{"move_without_direction_crashes", `[{"task":"MOVE"}]`, CrashMove, false},
		{"move_with_coordinates_crashes", `[{"task":"MOVE","x":1,"y":1,"z":1}]`, CrashMove, false},
		{"direction_without_axis", `[{"task":"MOVE","direction":"foo"}]`, StrayMove('o'), false},
		{"bomb_without_coordinates", `[{"task":"BOMB"}]`, BombNowhere, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := g.ParseCommand(0, []byte(tt.text))
			if Action(a) != tt.want || ok != tt.ok {
				t.Errorf("ParseCommand(%s) = %d, %v; want %d, %v", tt.text, a, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzStep(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint8(8), uint8(1), []byte{1, 2, 3, 4, 5, 6, 0, 200, 255})
	f.Add(uint64(2), uint8(1), uint8(2), uint8(3), make([]byte, 64))
	f.Fuzz(func(t *testing.T, seed uint64, players, edge, tasks uint8, acts []byte) {
		e := 1 + int(edge)%8
		n := 1 + int(players)%min(MaxPlayers, e*e*e)
		g, err := New(&Config{Players: n, Edge: e, MaxTicks: 1 + int(seed%300), TasksPerTick: 1 + int(tasks)%4, DistinctStarts: seed%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		a := make([]int32, n)
		rew := make([]float32, n)
		term, trunc := make([]bool, n), make([]bool, n)
		for len(acts) >= n && !g.Done() {
			for s := range n {
				a[s] = int32(int8(acts[s])) * int32(1+e*e*e/100)
			}
			acts = acts[n:]
			g.Step(a, rew, term, trunc)
			inPlay := checkSeats(t, g, term, trunc)
			if g.Done() {
				if inPlay > 1 && g.Tick() != g.MaxTicks() {
					t.Fatalf("done at tick %d with %d in play", g.Tick(), inPlay)
				}
			}
		}
	})
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{`[{"task":"MOVE","direction":"+X"}]`, `[{"task":"BOMB","x":1,"y":"2","z":3}]`, `[]`, `x`, `[{"task":"NOOP"},{"task":"MOVE"}]`} {
		f.Add([]byte(s))
	}
	g, _ := New(&Config{Players: 2, Edge: 8, MaxTicks: 10, TasksPerTick: 2})
	f.Fuzz(func(t *testing.T, text []byte) {
		a, ok := g.ParseCommand(0, text)
		if ok && (a < 0 || int(a) >= g.Spec().Actions) {
			t.Fatalf("ok with action %d", a)
		}
	})
}

func FuzzLoadNative(f *testing.F) {
	g, _ := New(&Config{Players: 3, Edge: 4, MaxTicks: 50, TasksPerTick: 1})
	req, _ := g.AppendNative(nil, FormatRequest, 0)
	f.Add(req)
	f.Add([]byte(`{"gameInfo":{"id":"x","edgeLength":4,"numOfTasksPerTick":1,"currentTick":3},"players":[{"name":"a","x":1,"y":1,"z":1}],"items":[{"x":9,"y":0,"z":0,"type":"BOMB"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, _ := New(&Config{Players: 3, Edge: 4, MaxTicks: 50, TasksPerTick: 1})
		if err := h.LoadNative(data); err != nil {
			return
		}
		out, err := h.AppendNative(nil, FormatRequest, -1)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := New(&Config{Players: 3, Edge: 4, MaxTicks: 50, TasksPerTick: 1})
		if err := k.LoadNative(out); err != nil {
			t.Fatalf("written state does not load: %v\n%s", err, out)
		}
		play(h, 1, 20)
	})
}

// checkSeats fails t unless the seats of g are consistent after a step
// that returned term and trunc: a seat in play is in the cube and not
// lost, a seat out of play is lost and terminated, no seat is both
// terminated and truncated, and the seats in play and the lost ones are
// all of them. It returns the seats in play.
func checkSeats(t *testing.T, g *Game, term, trunc []bool) int {
	t.Helper()
	inPlay := 0
	for s := range g.Players() {
		p := g.Player(s)
		if p.InPlay {
			inPlay++
			if !g.inCube(p.X, p.Y, p.Z) || p.Lost {
				t.Fatalf("seat %d in play at (%d,%d,%d) lost=%v", s, p.X, p.Y, p.Z, p.Lost)
			}
		} else if !p.Lost {
			t.Fatalf("seat %d out of play but not lost", s)
		}
		if term[s] && trunc[s] {
			t.Fatalf("seat %d terminated and truncated", s)
		}
		if p.Lost && !term[s] {
			t.Fatalf("lost seat %d not terminated", s)
		}
	}
	if inPlay+g.nLost != g.Players() {
		t.Fatalf("%d in play + %d lost != %d", inPlay, g.nLost, g.Players())
	}
	return inPlay
}
