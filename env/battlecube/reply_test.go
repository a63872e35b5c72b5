package battlecube

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestParseCommandAsJoi checks replies against what the original server
// does with them: node-fetch's res.json() (JSON.parse of the body decoded
// as UTF-8), the Joi 11.1.1 schema of server/src/validators.ts with Joi's
// conversions (array and object from a JSON string; numbers from strings
// as parseFloat when Number() is finite; integer() is
// Number.isSafeInteger), then game.ts's applyBotDirections and moveBot
// (direction.toLowerCase().split(”)). Every expectation was taken from the
// original's code run on the same body (edge 8).
func TestParseCommandAsJoi(t *testing.T) {
	bombAt := func(x, y, z int) Action { return BombAction(8, x, y, z) }
	tests := []struct {
		name  string
		text  string
		tasks int
		want  Action
		ok    bool
	}{
		// Joi's array type parses a string holding an array; its object
		// type parses a string holding an object.
		{"task_array_sent_as_json_string_moves", `"[{\"task\":\"MOVE\",\"direction\":\"+X\"}]"`, 1, MovePlusX, true},
		{"element_sent_as_json_string_moves", `["{\"task\":\"MOVE\",\"direction\":\"+X\"}"]`, 1, MovePlusX, true},
		{"string_in_a_string_is_no_array", `"\"[]\""`, 1, RejectSchema, false},
		{"element_string_that_is_not_json", `["MOVE"]`, 1, RejectSchema, false},
		// Joi 11 number(): parseFloat(s), NaN unless isFinite(s).
		{"hex_string_is_zero", `[{"task":"BOMB","x":"0x3","y":1,"z":2}]`, 1, bombAt(0, 1, 2), true},
		{"binary_string_is_zero", `[{"task":"BOMB","x":"0b11","y":1,"z":2}]`, 1, bombAt(0, 1, 2), true},
		{"octal_string_is_zero", `[{"task":"BOMB","x":"0o7","y":1,"z":2}]`, 1, bombAt(0, 1, 2), true},
		{"hex_string_too_big_for_number", `[{"task":"BOMB","x":"0x` + strings.Repeat("f", 300) + `","y":1,"z":2}]`, 1, RejectSchema, false},
		{"bom_is_javascript_whitespace", `[{"task":"BOMB","x":"\ufeff5","y":1,"z":2}]`, 1, bombAt(5, 1, 2), true},
		{"bom_before_zero", `[{"task":"BOMB","x":"\ufeff0","y":1,"z":2}]`, 1, bombAt(0, 1, 2), true},
		{"nbsp_is_javascript_whitespace", `[{"task":"BOMB","x":"5\u00a0","y":1,"z":2}]`, 1, bombAt(5, 1, 2), true},
		{"nel_is_not_javascript_whitespace", `[{"task":"BOMB","x":"\u00855","y":1,"z":2}]`, 1, RejectSchema, false},
		{"empty_string_is_nan", `[{"task":"BOMB","x":"","y":1,"z":2}]`, 1, RejectSchema, false},
		{"exponent_and_negative_zero", `[{"task":"BOMB","x":"1e0","y":"-0","z":-0}]`, 1, bombAt(1, 0, 0), true},
		{"infinite_string", `[{"task":"BOMB","x":"1e400","y":1,"z":2}]`, 1, RejectSchema, false},
		{"infinite_number", `[{"task":"BOMB","x":1e400,"y":1,"z":2}]`, 1, RejectSchema, false},
		{"two_to_the_53_is_not_a_safe_integer", `[{"task":"BOMB","x":9007199254740992,"y":1,"z":2}]`, 1, RejectSchema, false},
		{"two_to_the_53_string_is_not_a_safe_integer", `[{"task":"BOMB","x":"9007199254740993","y":1,"z":2}]`, 1, RejectSchema, false},
		{"largest_safe_integer_is_off_the_cube", `[{"task":"BOMB","x":9007199254740991,"y":1,"z":2}]`, 1, Noop, false},
		// moveBot splits the lower-cased direction into UTF-16 code units.
		{"emoji_then_x_sets_a_stray_property", `[{"task":"MOVE","direction":"😀x"}]`, 1, StrayMove(0xDE00), false},
		{"lone_surrogate_then_x_moves", `[{"task":"MOVE","direction":"\ud83dx"}]`, 1, MoveMinusX, true},
		{"invalid_utf8_is_one_replacement_character", "[{\"task\":\"MOVE\",\"direction\":\"\xe2\x82x\"}]", 1, MoveMinusX, true},
		{"capital_i_with_dot_lowers_to_two_units", `[{"task":"MOVE","direction":"İx"}]`, 1, StrayMove(0x307), false},
		{"final_sigma", `[{"task":"MOVE","direction":"AΣ"}]`, 1, StrayMove(0x3C2), false},
		{"sigma_after_a_sign", `[{"task":"MOVE","direction":"+Σ"}]`, 1, StrayMove(0x3C3), false},
		{"one_character_direction", `[{"task":"MOVE","direction":"+"}]`, 1, StrayMove(NoAxis), false},
		{"digit_axis", `[{"task":"MOVE","direction":"+5"}]`, 1, StrayMove('5'), false},
		{"bom_before_the_body_is_no_json", "\ufeff[{\"task\":\"NOOP\"}]", 1, RejectConnection, false},
		// Tasks the server accepts beyond NOOP, the moves and in-cube bombs.
		{"move_without_direction", `[{"task":"MOVE"}]`, 1, CrashMove, false},
		{"move_without_direction_second_task", `[{"task":"NOOP"},{"task":"MOVE"}]`, 2, CrashMove, false},
		{"bomb_without_coordinates", `[{"task":"BOMB"}]`, 1, BombNowhere, false},
		{"bomb_with_a_direction", `[{"task":"BOMB","direction":"+X"}]`, 1, BombNowhere, false},
		{"unknown_task", `[{"task":"JUMP"}]`, 1, Idle, false},
		{"noop_with_coordinates", `[{"task":"NOOP","x":"0x3","y":0,"z":0}]`, 1, Noop, true},
		// Joi copies an element by assigning its keys: "__proto__" becomes
		// the prototype and lends its keys; never an unknown key.
		{"proto_is_no_unknown_key", `[{"task":"NOOP","__proto__":{}}]`, 1, Noop, true},
		{"proto_lends_a_direction", `[{"task":"MOVE","__proto__":{"direction":"+X"}}]`, 1, MovePlusX, true},
		{"proto_lends_a_number_direction", `[{"task":"MOVE","__proto__":{"direction":5}}]`, 1, CrashMove, false},
		{"proto_lends_coordinates", `[{"task":"BOMB","__proto__":{"x":1,"y":2,"z":3}}]`, 1, bombAt(1, 2, 3), true},
		{"proto_lends_unvalidated_coordinates", `[{"task":"BOMB","__proto__":{"x":1.5,"y":2,"z":3}}]`, 1, Noop, false},
		{"proto_of_a_string_element_lends_nothing", `["{\"task\":\"MOVE\",\"__proto__\":{\"direction\":\"+X\"}}"]`, 1, CrashMove, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := parseReply([]byte(tt.text), tt.tasks, tt.tasks-1, 8)
			if a != tt.want || ok != tt.ok {
				t.Errorf("parseReply(%s) = %d, %v; want %d, %v", tt.text, a, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestEventsAsTheOriginal plays scripted games and compares the event
// stream byte for byte with testdata/original/NAME.events, the stream the
// original's Game (server/src/game.ts, with the replies passed through
// JSON.parse and JSON.stringify as on the wire) emitted for the same
// replies. The files come from the original, not from botarena: -update
// does not touch them.
func TestEventsAsTheOriginal(t *testing.T) {
	const (
		noop     = `[{"task":"NOOP"}]`
		minusX   = `[{"task":"MOVE","direction":"-X"}]`
		noDir    = `[{"task":"MOVE"}]`
		nowhere  = `[{"task":"BOMB"}]`
		strayA   = `[{"task":"MOVE","direction":"+a"}]`
		strayDig = `[{"task":"MOVE","direction":"+5"}]`
	)
	tests := []struct {
		name    string
		tasks   int
		ticks   int
		starts  [][3]int
		replies [][]string // per seat, per ask (the last repeats)
	}{
		// game.ts playerLost emits {cause, name}.
		{"lost_key_order", 1, 200, [][3]int{{0, 0, 0}}, [][]string{{minusX}}},
		// moveBot throws at the bot's turn: the loss comes after the
		// tasks of the bots before it.
		{"move_without_direction", 1, 200, [][3]int{{0, 0, 0}, {3, 3, 3}}, [][]string{{noop}, {noDir}}},
		{"move_without_direction_after_out_of_bounds", 1, 200, [][3]int{{0, 0, 0}, {3, 3, 3}, {5, 5, 5}},
			[][]string{{minusX}, {`[{"task":"MOVE","x":1,"y":1,"z":1}]`}, {noop}}},
		// A stray axis adds a NaN property to the position object (sent as
		// null, array-index names first); a BOMB without coordinates adds
		// an item {"type":"BOMB"} that stays; JUMP does nothing.
		{"stray_properties_and_bomb_nowhere", 1, 6, [][3]int{{0, 0, 0}, {3, 3, 3}, {5, 5, 5}}, [][]string{
			{strayA, strayDig, `[{"task":"MOVE","direction":"+"}]`, `[{"task":"MOVE","direction":"😀x"}]`, `[{"task":"MOVE","direction":"+X"}]`, `[{"task":"MOVE","direction":"-0"}]`},
			{nowhere, `[{"task":"BOMB","direction":"+X"}]`, `[{"task":"JUMP"}]`, noop},
			{noop, `[{"task":"BOMB","x":1,"y":0,"z":0}]`, strayA},
		}},
		{"two_tasks_quirks", 2, 8, [][3]int{{1, 1, 1}, {6, 6, 6}}, [][]string{
			{`[{"task":"MOVE","direction":"+q"},{"task":"BOMB"}]`, `[{"task":"MOVE","direction":"+x"},{"task":"MOVE","direction":"+q"}]`},
			{`[{"task":"NOOP"},{"task":"MOVE","direction":"İx"}]`, `"[{\"task\":\"NOOP\"},{\"task\":\"BOMB\",\"x\":\"0x3\",\"y\":0,\"z\":0}]"`, `[{"task":"NOOP"},{"task":"MOVE"}]`},
		}},
	}
	names := []string{"John", "Paul", "Ringo"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := os.ReadFile("testdata/original/" + tt.name + ".events")
			if err != nil {
				t.Fatal(err)
			}
			n := len(tt.starts)
			g, err := New(&Config{Players: n, Edge: 8, MaxTicks: tt.ticks, TasksPerTick: tt.tasks, Names: names[:n], StartPositions: tt.starts, GameID: "mock-socket-id"})
			if err != nil {
				t.Fatal(err)
			}
			got := g.AppendEvents(nil)
			acts, rew := make([]int32, n), make([]float32, n)
			term, trunc := make([]bool, n), make([]bool, n)
			for !g.Done() {
				for s := range n {
					r := tt.replies[s]
					acts[s], _ = g.ParseCommand(s, []byte(r[min(g.Tick()/tt.tasks, len(r)-1)]))
				}
				g.Step(acts, rew, term, trunc)
				got = g.AppendEvents(got)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := range max(len(gl), len(wl)) {
					var a, b string
					if i < len(gl) {
						a = gl[i]
					}
					if i < len(wl) {
						b = wl[i]
					}
					if a != b {
						t.Fatalf("event line %d:\n got %s\nwant %s", i+1, a, b)
					}
				}
			}
		})
	}
}

// TestStrayStateRoundTrip checks that a request.json holding stray
// properties and the bomb without coordinates, as the original sends them
// in every later message, loads and is written back the same, and that
// the stray properties survive a tick.
func TestStrayStateRoundTrip(t *testing.T) {
	cfg := &Config{Players: 2, Edge: 8, MaxTicks: 50, TasksPerTick: 1, Names: []string{"John", "Paul"}, GameID: "mock-socket-id"}
	g, _ := New(cfg)
	req := `{"currentPlayer":{"name":"John"},"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":1,"numOfBotsInPlay":2,"currentTick":3},` +
		`"players":[{"5":null,"name":"John","x":0,"y":0,"z":0,"a":null,"undefined":null,"\ude00":null},{"name":"Paul","x":3,"y":3,"z":3}],` +
		`"items":[{"type":"BOMB"},{"x":1,"y":0,"z":0,"type":"BOMB"}]}`
	if err := g.LoadNative([]byte(req)); err != nil {
		t.Fatal(err)
	}
	out, _ := g.AppendNative(nil, FormatRequest, 0)
	if string(out) != req {
		t.Fatalf("round trip:\n got %s\nwant %s", out, req)
	}
	if g.Player(0).StrayKeys() != 4 {
		t.Errorf("StrayKeys = %d, want 4", g.Player(0).StrayKeys())
	}
	var items []Item
	if items = g.AppendItems(items); len(items) != 1 {
		t.Errorf("AppendItems = %v, want the one bomb on a cell", items)
	}
	a, _ := g.ParseCommand(0, []byte(`[{"task":"MOVE","direction":"+b"}]`))
	b, _ := g.ParseCommand(1, []byte(`[{"task":"BOMB"}]`))
	rew, term, trunc := make([]float32, 2), make([]bool, 2), make([]bool, 2)
	g.Step([]int32{a, b}, rew, term, trunc)
	want := `{"event":"NEXT_TICK","data":{"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":1,"numOfBotsInPlay":2,"currentTick":3},"players":[{"5":null,"name":"John","x":0,"y":0,"z":0,"a":null,"undefined":null,"\ude00":null},{"name":"Paul","x":3,"y":3,"z":3}],"items":[{"type":"BOMB"},{"x":1,"y":0,"z":0,"type":"BOMB"}]}}
{"event":"PLAYER_MOVE_ATTEMPT","data":{"5":null,"name":"John","x":0,"y":0,"z":0,"a":null,"undefined":null,"\ude00":null,"b":null}}
{"event":"PLAYER_PLACED_BOMB","data":{"name":"Paul"}}
`
	if got := string(g.AppendEvents(nil)); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	if g.Invalid(0) != 1 || g.Invalid(1) != 1 {
		t.Errorf("Invalid = %d, %d; want 1, 1", g.Invalid(0), g.Invalid(1))
	}
	for _, bad := range []string{
		`"players":[{"name":"John","x":0,"y":0,"z":0,"ab":null}]`,
		`"players":[{"name":"John","x":0,"y":0,"z":0,"a":1}]`,
		`"items":[{"x":1,"type":"BOMB"}]`,
		`"items":[{"type":"BOMB"},{"type":"BOMB"}]`,
	} {
		h, _ := New(cfg)
		body := `{"gameInfo":{"id":"x","edgeLength":8,"numOfTasksPerTick":1,"currentTick":0},` + bad + `}`
		if err := h.LoadNative([]byte(body)); err == nil {
			t.Errorf("LoadNative accepted %s", bad)
		}
	}
}
