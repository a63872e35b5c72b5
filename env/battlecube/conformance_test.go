package battlecube

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// The original's test suite (spec §9), as named tests. Bots reply through
// ParseCommand with the same task arrays the original's test bots return;
// the event streams are compared with the original's expectations.

// bot returns seat's reply for the coming tick.
type bot func(g *Game) string

// same always replies text.
func same(text string) bot { return func(*Game) string { return text } }

// seq replies replies[i] at the i-th ask (one ask per cycle).
func seq(replies ...string) bot {
	return func(g *Game) string {
		i := g.Tick() / g.TasksPerTick()
		if i >= len(replies) {
			return "not json"
		}
		return replies[i]
	}
}

// runEvents plays cfg to the end with the bots and returns every event
// line, GAME_STARTED first.
func runEvents(t *testing.T, cfg *Config, bots ...bot) ([]map[string]any, *Game) {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	var lines []string
	take := func() {
		for _, l := range strings.Split(strings.TrimSpace(string(g.AppendEvents(nil))), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	take()
	n := g.Players()
	acts := make([]int32, n)
	rew := make([]float32, n)
	term, trunc := make([]bool, n), make([]bool, n)
	for steps := 0; !g.Done(); steps++ {
		if steps > 10000 {
			t.Fatal("the game did not end")
		}
		for s := range n {
			acts[s], _ = g.ParseCommand(s, []byte(bots[s](g)))
		}
		g.Step(acts, rew, term, trunc)
		take()
	}
	var events []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("event line %q: %v", l, err)
		}
		events = append(events, m)
	}
	return events, g
}

func kinds(events []map[string]any) []string {
	var k []string
	for _, e := range events {
		k = append(k, e["event"].(string))
	}
	return k
}

func wantKinds(t *testing.T, events []map[string]any, want ...string) {
	t.Helper()
	if got := kinds(events); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("events:\n got %v\nwant %v", got, want)
	}
}

// wantJSON compares v, marshalled, with the JSON text want.
func wantJSON(t *testing.T, what string, v any, want string) {
	t.Helper()
	got, _ := json.Marshal(v)
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(w)
	if string(got) != string(wb) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, wb)
	}
}

func data(e map[string]any) map[string]any { return e["data"].(map[string]any) }

// testConfig is the original tests' setup: edge 8, speed 0.
func testConfig(tasks, maxTicks int, names []string, starts ...[3]int) *Config {
	return &Config{Players: len(names), Edge: 8, MaxTicks: maxTicks, TasksPerTick: tasks, Names: names, StartPositions: starts, GameID: "mock-socket-id"}
}

const (
	moveMinusX = `[{"task":"MOVE","direction":"-X"}]`
	movePlusX  = `[{"task":"MOVE","direction":"+X"}]`
	movePlusY  = `[{"task":"MOVE","direction":"+Y"}]`
	movePlusZ  = `[{"task":"MOVE","direction":"+Z"}]`
	noop       = `[{"task":"NOOP"}]`
)

func bomb(x, y, z string) string {
	return `[{"task":"BOMB","x":` + x + `,"y":` + y + `,"z":` + z + `}]`
}

func TestConfigValidation(t *testing.T) {
	four := []string{"John", "Petra", "Carmine", "Whoopie"}
	tests := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"v1_no_max_num_of_ticks", Config{Players: 4, Edge: 8, TasksPerTick: 1, Names: four}, "max_ticks"},
		{"v2_nine_players_in_eight_cells", Config{Players: 9, Edge: 2, MaxTicks: 200, TasksPerTick: 1}, "players"},
		{"v3_duplicate_names", Config{Players: 4, Edge: 8, MaxTicks: 200, TasksPerTick: 1, Names: []string{"John", "John", "Carmine", "Whoopie"}}, "names[1]"},
		{"v4_negative_speed", Config{Players: 4, Edge: 8, MaxTicks: 200, TasksPerTick: 1, Speed: -1, Names: four}, "speed"},
		{"v5_zero_tasks_per_tick", Config{Players: 4, Edge: 8, MaxTicks: 200, TasksPerTick: 0, Names: four}, "tasks_per_tick"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			var ce *env.ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("Validate = %v, want a ConfigError on %s", err, tt.field)
			}
			var ev map[string]any
			if err := json.Unmarshal(ErrorEvent(err), &ev); err != nil {
				t.Fatal(err)
			}
			if ev["event"] != "ERROR" || data(ev)["error"] != "INVALID_GAME_CONFIGURATION" {
				t.Errorf("ERROR event: %v", ev)
			}
			if _, err := New(&tt.cfg); err == nil {
				t.Error("New accepted the config")
			}
		})
	}
	t.Run("valid_defaults", func(t *testing.T) {
		if err := DefaultConfig().Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestOriginalGames(t *testing.T) {
	t.Run("g1_constructor_only", func(t *testing.T) {
		g, err := New(testConfig(1, 200, []string{"John", "Petra", "Carmine", "Whoopie"}))
		if err != nil {
			t.Fatal(err)
		}
		// The original's constructor places nobody; botarena's New resets,
		// so the first tick has not run: no events but GAME_STARTED.
		if g.Tick() != 0 || g.Done() || g.nEvents != 1 || g.events[0].kind != evGameStarted {
			t.Errorf("after New: tick %d done %v events %d", g.Tick(), g.Done(), g.nEvents)
		}
	})
	t.Run("g2_out_of_bounds", func(t *testing.T) {
		ev, _ := runEvents(t, testConfig(1, 200, []string{"John"}, [3]int{0, 0, 0}), same(moveMinusX))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_LOST", "GAME_ENDED")
		wantJSON(t, "GAME_STARTED", data(ev[0]), `{"id":"mock-socket-id"}`)
		wantJSON(t, "NEXT_TICK players", data(ev[1])["players"], `[{"name":"John","x":0,"y":0,"z":0}]`)
		wantJSON(t, "MOVE_ATTEMPT", data(ev[2]), `{"name":"John","x":-1,"y":0,"z":0}`)
		wantJSON(t, "PLAYER_LOST", data(ev[3]), `{"name":"John","cause":"Player moved out of bounds"}`)
		wantJSON(t, "GAME_ENDED", data(ev[4]), `{"scores":[{"name":"John","highScore":0}],"id":"mock-socket-id","result":"TIE"}`)
	})
	t.Run("g3_bomb_on_itself", func(t *testing.T) {
		ev, _ := runEvents(t, testConfig(1, 200, []string{"John"}, [3]int{0, 0, 0}), same(bomb("0", "0", "0")))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_PLACED_BOMB", "PLAYER_LOST", "GAME_ENDED")
		wantJSON(t, "PLACED_BOMB", data(ev[2]), `{"x":0,"y":0,"z":0,"name":"John"}`)
		wantJSON(t, "PLAYER_LOST", data(ev[3]), `{"name":"John","cause":"Player stepped on a BOMB"}`)
		if data(ev[4])["result"] != "TIE" {
			t.Errorf("result %v", data(ev[4])["result"])
		}
	})
	t.Run("g4_too_many_directions", func(t *testing.T) {
		ev, g := runEvents(t, testConfig(1, 200, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{2, 3, 4}),
			same(`[{"task":"MOVE","direction":"+X"},{"task":"BOMB","x":0,"y":0,"z":0}]`), same(movePlusX))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_LOST", "PLAYER_MOVE_ATTEMPT", "GAME_ENDED")
		wantJSON(t, "PLAYER_LOST", data(ev[2]), `{"name":"John","cause":{"error":"VALIDATION_ERROR","details":"Invalid amount of directions sent"}}`)
		wantJSON(t, "MOVE_ATTEMPT", data(ev[3]), `{"name":"Paul","x":3,"y":3,"z":4}`)
		if data(ev[4])["result"] != "WINNER_FOUND" {
			t.Errorf("result %v", data(ev[4])["result"])
		}
		if g.Invalid(0) != 1 {
			t.Errorf("Invalid(John) = %d, want 1", g.Invalid(0))
		}
	})
	t.Run("g5_crash", func(t *testing.T) {
		// The original test leaves maxNumOfTicks out; botarena requires it
		// (the game ends in its first tick either way).
		ev, _ := runEvents(t, testConfig(1, 200, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{0, 0, 1}),
			same(movePlusZ), same(bomb("1", "2", "3")))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_PLACED_BOMB", "PLAYER_LOST", "PLAYER_LOST", "GAME_ENDED")
		wantJSON(t, "LOST John", data(ev[4]), `{"name":"John","cause":"Player crashed to other player"}`)
		wantJSON(t, "LOST Paul", data(ev[5]), `{"name":"Paul","cause":"Player crashed to other player"}`)
		wantJSON(t, "GAME_ENDED", data(ev[6]), `{"scores":[{"name":"John","highScore":0},{"name":"Paul","highScore":0}],"id":"mock-socket-id","result":"TIE"}`)
	})
	t.Run("g6_paul_wins", func(t *testing.T) {
		ev, g := runEvents(t, testConfig(1, 200, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{0, 0, 1}),
			same(movePlusY), same(bomb("0", "1", "0")))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_PLACED_BOMB", "PLAYER_LOST", "GAME_ENDED")
		wantJSON(t, "LOST John", data(ev[4]), `{"name":"John","cause":"Player stepped on a BOMB"}`)
		wantJSON(t, "GAME_ENDED", data(ev[5]), `{"winner":{"name":"Paul","highScore":1},"scores":[{"name":"John","highScore":0},{"name":"Paul","highScore":1}],"id":"mock-socket-id","result":"WINNER_FOUND"}`)
		if w, draw := g.Outcome(); w != 1 || draw {
			t.Errorf("Outcome = %d, %v", w, draw)
		}
	})
	t.Run("g7_paul_wins_after_three_ticks", func(t *testing.T) {
		ev, _ := runEvents(t, testConfig(1, 200, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{0, 0, 1}),
			seq(movePlusY, movePlusX, noop), seq(bomb("0", "0", "0"), movePlusY, bomb("1", "1", "0")))
		wantKinds(t, ev, "GAME_STARTED", "NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_PLACED_BOMB",
			"NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_MOVE_ATTEMPT",
			"NEXT_TICK", "PLAYER_DID_NOTHING", "PLAYER_PLACED_BOMB", "PLAYER_LOST", "GAME_ENDED")
		wantJSON(t, "tick 1 items", data(ev[4])["items"], `[{"x":0,"y":0,"z":0,"type":"BOMB"}]`)
		wantJSON(t, "tick 1 players", data(ev[4])["players"], `[{"name":"John","x":0,"y":1,"z":0},{"name":"Paul","x":0,"y":0,"z":1}]`)
		wantJSON(t, "tick 2 items", data(ev[7])["items"], `[{"x":0,"y":0,"z":0,"type":"BOMB"}]`)
		wantJSON(t, "tick 2 players", data(ev[7])["players"], `[{"name":"John","x":1,"y":1,"z":0},{"name":"Paul","x":0,"y":1,"z":1}]`)
		wantJSON(t, "LOST John", data(ev[10]), `{"name":"John","cause":"Player stepped on a BOMB"}`)
		wantJSON(t, "winner", data(ev[11])["winner"], `{"name":"Paul","highScore":3}`)
	})
	t.Run("g8_two_tasks_per_tick", func(t *testing.T) {
		ev, _ := runEvents(t, testConfig(2, 200, []string{"John", "Paul"}, [3]int{6, 6, 0}, [3]int{0, 0, 0}),
			same(`[{"task":"MOVE","direction":"+X"},{"task":"MOVE","direction":"+Y"}]`), same(`[{"task":"NOOP"},{"task":"NOOP"}]`))
		// The original's snapshot (keys as the code sends them, ids as
		// GAME_STARTED {id} and GAME_ENDED's id at HEAD).
		gi := func(tick int) string {
			return `{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":2,"currentTick":` + string(rune('0'+tick)) + `}`
		}
		players := func(jx, jy int) string {
			return `[{"name":"John","x":` + string(rune('0'+jx)) + `,"y":` + string(rune('0'+jy)) + `,"z":0},{"name":"Paul","x":0,"y":0,"z":0}]`
		}
		want := []string{
			`{"event":"GAME_STARTED","data":{"id":"mock-socket-id"}}`,
			`{"event":"NEXT_TICK","data":{"gameInfo":` + gi(0) + `,"players":` + players(6, 6) + `,"items":[]}}`,
			`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":7,"y":6,"z":0}}`,
			`{"event":"PLAYER_DID_NOTHING","data":{"x":0,"y":0,"z":0,"name":"Paul"}}`,
			`{"event":"NEXT_TICK","data":{"gameInfo":` + gi(1) + `,"players":` + players(7, 6) + `,"items":[]}}`,
			`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":7,"y":7,"z":0}}`,
			`{"event":"PLAYER_DID_NOTHING","data":{"x":0,"y":0,"z":0,"name":"Paul"}}`,
			`{"event":"NEXT_TICK","data":{"gameInfo":` + gi(2) + `,"players":` + players(7, 7) + `,"items":[]}}`,
			`{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":8,"y":7,"z":0}}`,
			`{"event":"PLAYER_LOST","data":{"name":"John","cause":"Player moved out of bounds"}}`,
			`{"event":"PLAYER_DID_NOTHING","data":{"x":0,"y":0,"z":0,"name":"Paul"}}`,
			`{"event":"GAME_ENDED","data":{"winner":{"name":"Paul","highScore":3},"scores":[{"name":"John","highScore":2},{"name":"Paul","highScore":3}],"id":"mock-socket-id","result":"WINNER_FOUND"}}`,
		}
		if len(ev) != len(want) {
			t.Fatalf("%d events, want %d: %v", len(ev), len(want), kinds(ev))
		}
		for i := range want {
			wantJSON(t, "event "+string(rune('0'+i)), ev[i], want[i])
		}
	})
	t.Run("g9_tick_limit", func(t *testing.T) {
		ev, g := runEvents(t, testConfig(2, 200, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{0, 0, 1}),
			same(`[{"task":"MOVE","direction":"+Y"},{"task":"MOVE","direction":"-Y"}]`), same(`[{"task":"NOOP"},{"task":"NOOP"}]`))
		wantJSON(t, "last event", ev[len(ev)-1], `{"event":"GAME_ENDED","data":{"scores":[{"name":"John","highScore":200},{"name":"Paul","highScore":200}],"id":"mock-socket-id","result":"TIE"}}`)
		if g.Steps() != 200 {
			t.Errorf("ticks %d, want 200", g.Steps())
		}
	})
	t.Run("g10_no_duplicate_items", func(t *testing.T) {
		twice := `[{"task":"BOMB","x":2,"y":2,"z":2},{"task":"BOMB","x":2,"y":2,"z":2}]`
		ev, _ := runEvents(t, testConfig(2, 4, []string{"John", "Paul"}, [3]int{0, 0, 0}, [3]int{0, 0, 1}), same(twice), same(twice))
		bombs := 0
		for _, e := range ev {
			switch e["event"] {
			case "NEXT_TICK":
				if items := data(e)["items"].([]any); len(items) > 1 {
					t.Errorf("items %v", items)
				}
			case "PLAYER_PLACED_BOMB":
				bombs++
			}
		}
		if bombs != 8 {
			t.Errorf("%d PLACED_BOMB, want 8", bombs)
		}
		wantJSON(t, "last event", ev[len(ev)-1], `{"event":"GAME_ENDED","data":{"scores":[{"name":"John","highScore":4},{"name":"Paul","highScore":4}],"id":"mock-socket-id","result":"TIE"}}`)
	})
	t.Run("g11_used_bomb_removed", func(t *testing.T) {
		ev, _ := runEvents(t, testConfig(2, 12, []string{"John", "Ringo", "Paul"}, [3]int{0, 0, 0}, [3]int{7, 2, 2}, [3]int{0, 0, 1}),
			same(`[{"task":"BOMB","x":2,"y":2,"z":2},{"task":"BOMB","x":0,"y":4,"z":5}]`),
			same(`[{"task":"MOVE","direction":"-X"},{"task":"NOOP"}]`),
			same(`[{"task":"BOMB","x":2,"y":2,"z":2},{"task":"BOMB","x":2,"y":1,"z":3}]`))
		wantJSON(t, "event 33", ev[33], `{"event":"NEXT_TICK","data":{"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":3,"currentTick":8},
			"players":[{"name":"John","x":0,"y":0,"z":0},{"name":"Ringo","x":3,"y":2,"z":2},{"name":"Paul","x":0,"y":0,"z":1}],
			"items":[{"x":2,"y":2,"z":2,"type":"BOMB"},{"x":0,"y":4,"z":5,"type":"BOMB"},{"x":2,"y":1,"z":3,"type":"BOMB"}]}}`)
		wantJSON(t, "event 37", ev[37], `{"event":"PLAYER_LOST","data":{"name":"Ringo","cause":"Player stepped on a BOMB"}}`)
		wantJSON(t, "event 38", ev[38], `{"event":"NEXT_TICK","data":{"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":2,"currentTick":9},
			"players":[{"name":"John","x":0,"y":0,"z":0},{"name":"Paul","x":0,"y":0,"z":1}],
			"items":[{"x":0,"y":4,"z":5,"type":"BOMB"},{"x":2,"y":1,"z":3,"type":"BOMB"}]}}`)
	})
}
