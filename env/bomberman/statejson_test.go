package bomberman

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// jsonDoc is a state.json decoded generically, for tests that edit it.
type jsonDoc map[string]any

// decodeDoc decodes data generically, keeping numbers as they are.
func decodeDoc(t testing.TB, data []byte) jsonDoc {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d jsonDoc
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

// cell returns the cell object at 1-based (x, y).
func (d jsonDoc) cell(x, y int) map[string]any {
	return d["GameBlocks"].([]any)[x-1].([]any)[y-1].(map[string]any)
}

// player returns RegisteredPlayerEntities[i].
func (d jsonDoc) player(i int) map[string]any {
	return d["RegisteredPlayerEntities"].([]any)[i].(map[string]any)
}

// encode marshals d (encoding/json sorts the keys, which the loader must
// not mind).
func (d jsonDoc) encode(t testing.TB) []byte {
	t.Helper()
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLoadNativeAccepts(t *testing.T) {
	sample := readFile(t, sampleState)
	tests := []struct {
		name string
		data func(t *testing.T) []byte
	}{
		{"utf8_bom", func(t *testing.T) []byte { return append([]byte("\xef\xbb\xbf"), sample...) }},
		{"indented", func(t *testing.T) []byte {
			var buf bytes.Buffer
			if err := json.Indent(&buf, sample, "", "\t"); err != nil {
				t.Fatal(err)
			}
			buf.WriteString("\r\n")
			return buf.Bytes()
		}},
		{"sorted_keys", func(t *testing.T) []byte { return decodeDoc(t, sample).encode(t) }},
		{"unknown_keys", func(t *testing.T) []byte {
			d := decodeDoc(t, sample)
			d["Extra"] = []any{1, 2}
			d.cell(1, 1)["Note"] = "x"
			return d.encode(t)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, &Config{Players: 2})
			if err := g.LoadNative(tt.data(t)); err != nil {
				t.Fatal(err)
			}
			if got := native(t, g, FormatStateJSON); !bytes.Equal(got, sample) {
				t.Errorf("state.json differs from the sample at byte %d", firstDiff(got, sample))
			}
		})
	}
}

func TestLoadNativeDerived(t *testing.T) {
	sample := readFile(t, sampleState)

	t.Run("exploding_and_hidden_power_up", func(t *testing.T) {
		d := decodeDoc(t, sample)
		d.cell(2, 2)["Exploding"] = true
		d.cell(2, 2)["PowerUp"] = map[string]any{"$type": typeRadiusPowerUp, "Location": map[string]any{"X": 2, "Y": 2}}
		// A power-up under a wall: kept, hidden, not written.
		d.cell(17, 2)["PowerUp"] = map[string]any{"$type": typeBagPowerUp, "Location": map[string]any{"X": 17, "Y": 2}}
		g := mustNew(t, &Config{Players: 2})
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if c := g.At(2, 2); !c.Exploding() || c.PowerUp != BombRadiusPowerUp {
			t.Errorf("cell (2,2) = %+v", c)
		}
		if c := g.At(17, 2); c.Entity != DestructibleWall || c.PowerUp != BombBagPowerUp {
			t.Errorf("cell (17,2) = %+v", c)
		}
		if g.mapSymbol(2, 2) != '*' || g.mapSymbol(17, 2) != '+' {
			t.Errorf("symbols %q %q", g.mapSymbol(2, 2), g.mapSymbol(17, 2))
		}
		out := native(t, g, FormatStateJSON)
		back := decodeDoc(t, out)
		if back.cell(2, 2)["Exploding"] != true || back.cell(17, 2)["PowerUp"] != nil {
			t.Errorf("written back: (2,2) %v, (17,2) %v", back.cell(2, 2), back.cell(17, 2))
		}
	})

	t.Run("one_alive_is_done", func(t *testing.T) {
		d := decodeDoc(t, sample)
		d.player(0)["Killed"] = true
		d.cell(14, 3)["Entity"] = nil
		for _, xy := range [][2]int{{13, 2}, {12, 4}} {
			d.cell(xy[0], xy[1])["Bomb"].(map[string]any)["Owner"].(map[string]any)["Killed"] = true
		}
		g := mustNew(t, &Config{Players: 2})
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if !g.Done() || g.truncatedEnd {
			t.Errorf("Done %t truncated %t, want true false", g.Done(), g.truncatedEnd)
		}
		if p := g.Player(0); !p.Killed || p.Touched != 0 || p.Points() != 346 || p.KilledRound != 0 {
			t.Errorf("dead player = %+v", p)
		}
		// The dead owner's recorded location is not on its bombs.
		if g.mapSymbol(13, 2) != '7' {
			t.Errorf("symbol %q, want '7'", g.mapSymbol(13, 2))
		}
	})

	t.Run("past_the_round_cap", func(t *testing.T) {
		d := decodeDoc(t, sample)
		d["CurrentRound"] = 21*21 + 1
		g := mustNew(t, &Config{Players: 2})
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if !g.Done() || !g.truncatedEnd || g.Round() != 442 {
			t.Errorf("Done %t truncated %t round %d", g.Done(), g.truncatedEnd, g.Round())
		}
		g = mustNew(t, &Config{Players: 2, MaxRounds: 100})
		d["CurrentRound"] = 100
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if !g.Done() || g.maxRound != 99 {
			t.Errorf("MaxRounds 100, round 100: Done %t maxRound %d", g.Done(), g.maxRound)
		}
	})

	t.Run("no_current_round", func(t *testing.T) {
		d := decodeDoc(t, sample)
		delete(d, "CurrentRound")
		g := mustNew(t, &Config{Players: 2})
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if g.Round() != 0 {
			t.Errorf("round %d, want 0", g.Round())
		}
	})

	t.Run("current_schema", func(t *testing.T) {
		d := decodeDoc(t, sample)
		d["PlayerBounty"] = 630
		g := mustNew(t, &Config{Players: 2})
		if err := g.LoadNative(d.encode(t)); err != nil {
			t.Fatal(err)
		}
		if g.PlayerBounty() != 630 || g.noBounty {
			t.Errorf("bounty %d noBounty %t", g.PlayerBounty(), g.noBounty)
		}
		if !bytes.Contains(native(t, g, FormatMapTxt), []byte("Seed: 203279916, PlayerBounty: 630\n")) {
			t.Error("map.txt header lacks PlayerBounty")
		}
		if !bytes.Contains(native(t, g, FormatStateJSON), []byte(`"CurrentRound":165,"PlayerBounty":630,"MapHeight"`)) {
			t.Error("state.json lacks PlayerBounty in its place")
		}
	})
}

func TestLoadNativeErrors(t *testing.T) {
	sample := readFile(t, sampleState)
	edit := func(f func(d jsonDoc)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			d := decodeDoc(t, sample)
			f(d)
			return d.encode(t)
		}
	}
	replace := func(old, new string) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			if !bytes.Contains(sample, []byte(old)) {
				t.Fatalf("sample lacks %s", old)
			}
			return bytes.Replace(sample, []byte(old), []byte(new), 1)
		}
	}
	loc := func(x, y int) map[string]any { return map[string]any{"X": x, "Y": y} }
	tests := []struct {
		name    string
		players int // default 2
		data    func(t *testing.T) []byte
		want    string
	}{
		{"empty", 0, func(*testing.T) []byte { return nil }, "state.json: line 1, column 1: unexpected end of JSON input"},
		{"malformed", 0, func(*testing.T) []byte { return []byte("{\n  \"MapWidth\": 21,\n  \"MapHeight\" 21\n}") },
			"state.json: line 3, column 15: invalid character '2' after object key"},
		{"truncated", 0, func(*testing.T) []byte { return sample[:len(sample)-1] }, "unexpected end of JSON input"},
		{"trailing_garbage", 0, func(*testing.T) []byte { return append(append([]byte(nil), sample...), " x"...) },
			"line 1, column 58026: invalid character 'x' after top-level value"},
		{"not_an_object", 0, func(*testing.T) []byte { return []byte(`[1]`) }, "line 1, column 1: json: cannot unmarshal array"},
		{"wrong_type", 0, replace(`"CurrentRound":165`, `"CurrentRound":"165"`), "line 1, column 268: json: cannot unmarshal string into Go struct field jsonState.CurrentRound of type int32"},
		{"points_overflow", 0, replace(`"Points":346`, `"Points":3460000000000`), "cannot unmarshal number 3460000000000"},
		{"fractional", 0, replace(`"BombBag":3`, `"BombBag":3.5`), "cannot unmarshal number 3.5"},
		{"wrong_player_count", 4, func(*testing.T) []byte { return sample },
			"state.json: state has 2 players, but the game is configured for 4 (set config players)"},
		{"width_zero", 0, edit(func(d jsonDoc) { d["MapWidth"] = 0 }), "state.json: MapWidth: 0 is out of range 1–41"},
		{"height_too_big", 0, edit(func(d jsonDoc) { d["MapHeight"] = 42 }), "MapHeight: 42 is out of range 1–41"},
		{"width_mismatch", 0, edit(func(d jsonDoc) { d["MapWidth"] = 20 }), "GameBlocks: has 21 columns, but MapWidth is 20"},
		{"height_mismatch", 0, edit(func(d jsonDoc) {
			cols := d["GameBlocks"].([]any)
			cols[4] = cols[4].([]any)[:20]
		}), "GameBlocks[4]: has 20 cells, but MapHeight is 21"},
		{"no_seed", 0, edit(func(d jsonDoc) { delete(d, "MapSeed") }), "MapSeed: missing"},
		{"null_cell", 0, edit(func(d jsonDoc) { d["GameBlocks"].([]any)[3].([]any)[5] = nil }), "GameBlocks[3][5]: is null"},
		{"cell_location", 0, edit(func(d jsonDoc) { d.cell(4, 6)["Location"] = loc(4, 7) }),
			"state.json: GameBlocks[3][5].Location: is (4,7), want (4,6)"},
		{"entity_location", 0, edit(func(d jsonDoc) { d.cell(1, 1)["Entity"].(map[string]any)["Location"] = loc(2, 1) }),
			"GameBlocks[0][0].Entity.Location: is (2,1), want the cell's (1,1)"},
		{"unknown_entity_type", 0, edit(func(d jsonDoc) { d.cell(5, 5)["Entity"].(map[string]any)["$type"] = "Domain.Entities.Rock, Domain" }),
			`state.json: GameBlocks[4][4].Entity: unknown $type "Domain.Entities.Rock, Domain"`},
		{"missing_entity_type", 0, edit(func(d jsonDoc) { delete(d.cell(5, 5)["Entity"].(map[string]any), "$type") }),
			"GameBlocks[4][4].Entity: missing $type"},
		{"unknown_power_up_type", 0, edit(func(d jsonDoc) {
			d.cell(2, 2)["PowerUp"] = map[string]any{"$type": "Domain.Entities.PowerUps.BombRadiusPowerUpEntity, Domain", "Location": loc(2, 2)}
		}), `GameBlocks[1][1].PowerUp: unknown $type "Domain.Entities.PowerUps.BombRadiusPowerUpEntity, Domain"`},
		{"power_up_location", 0, edit(func(d jsonDoc) {
			d.cell(2, 2)["PowerUp"] = map[string]any{"$type": typeSuperPowerUp, "Location": loc(11, 11)}
		}), "GameBlocks[1][1].PowerUp.Location: is (11,11), want the cell's (2,2)"},
		{"bad_key", 0, edit(func(d jsonDoc) { d.player(1)["Key"] = "b" }), `RegisteredPlayerEntities[1].Key: "b" is not one upper-case letter A–Z`},
		{"long_key", 0, edit(func(d jsonDoc) { d.player(1)["Key"] = "BB" }), `"BB" is not one upper-case letter`},
		{"duplicate_key", 0, edit(func(d jsonDoc) { d.player(1)["Key"] = "A" }), `RegisteredPlayerEntities[1].Key: "A" is also the key of RegisteredPlayerEntities[0]`},
		{"control_in_name", 0, edit(func(d jsonDoc) { d.player(1)["Name"] = "Jo\nhn" }), `RegisteredPlayerEntities[1].Name: "Jo\nhn" has control characters`},
		{"negative_bag", 0, edit(func(d jsonDoc) { d.player(0)["BombBag"] = -1 }), "RegisteredPlayerEntities[0].BombBag: -1 is negative"},
		{"zero_radius", 0, edit(func(d jsonDoc) { d.player(0)["BombRadius"] = 0 }), "RegisteredPlayerEntities[0].BombRadius: 0 is below 1"},
		{"player_off_map", 0, edit(func(d jsonDoc) { d.player(0)["Location"] = loc(22, 3) }), "RegisteredPlayerEntities[0].Location: (22,3) is off the 21×21 map"},
		{"negative_round", 0, edit(func(d jsonDoc) { d["CurrentRound"] = -1 }), "CurrentRound: -1 is negative"},
		{"entity_differs", 0, edit(func(d jsonDoc) { d.cell(14, 3)["Entity"].(map[string]any)["Points"] = 345 }),
			"GameBlocks[13][2].Entity.Points: 345 differs from RegisteredPlayerEntities[0] (346)"},
		{"entity_name_differs", 0, edit(func(d jsonDoc) { d.cell(3, 18)["Entity"].(map[string]any)["Name"] = "Jon" }),
			`GameBlocks[2][17].Entity.Name: "Jon" differs from RegisteredPlayerEntities[1] ("John")`},
		{"unknown_player_entity", 0, edit(func(d jsonDoc) { d.cell(14, 3)["Entity"].(map[string]any)["Key"] = "Z" }),
			`GameBlocks[13][2].Entity.Key: "Z" is not a registered player`},
		{"player_elsewhere", 0, edit(func(d jsonDoc) {
			e := d.cell(14, 3)["Entity"]
			d.cell(14, 3)["Entity"] = nil
			e.(map[string]any)["Location"] = loc(14, 4)
			d.cell(14, 4)["Entity"] = e
		}), "GameBlocks[13][3].Entity.Location: (14,4) differs from RegisteredPlayerEntities[0] (14,3)"},
		{"alive_not_on_map", 0, edit(func(d jsonDoc) { d.cell(14, 3)["Entity"] = nil }),
			"RegisteredPlayerEntities[0]: player A is alive but not on the map at (14,3)"},
		{"dead_on_map", 0, edit(func(d jsonDoc) {
			d.player(1)["Killed"] = true
			d.cell(3, 18)["Entity"].(map[string]any)["Killed"] = true
		}), "GameBlocks[2][17].Entity: player B is dead but on the map"},
		{"bomb_owner_unknown", 0, edit(func(d jsonDoc) { d.cell(13, 2)["Bomb"].(map[string]any)["Owner"].(map[string]any)["Key"] = "C" }),
			`GameBlocks[12][1].Bomb.Owner.Key: "C" is not a registered player`},
		{"bomb_owner_missing", 0, edit(func(d jsonDoc) { delete(d.cell(13, 2)["Bomb"].(map[string]any), "Owner") }),
			"GameBlocks[12][1].Bomb.Owner: missing"},
		{"bomb_owner_differs", 0, edit(func(d jsonDoc) { d.cell(13, 2)["Bomb"].(map[string]any)["Owner"].(map[string]any)["BombBag"] = 2 }),
			"GameBlocks[12][1].Bomb.Owner.BombBag: 2 differs from RegisteredPlayerEntities[0] (3)"},
		{"bomb_location", 0, edit(func(d jsonDoc) { d.cell(13, 2)["Bomb"].(map[string]any)["Location"] = loc(13, 3) }),
			"GameBlocks[12][1].Bomb.Location: is (13,3), want the cell's (13,2)"},
		{"bomb_radius", 0, edit(func(d jsonDoc) { d.cell(13, 2)["Bomb"].(map[string]any)["BombRadius"] = 0 }),
			"GameBlocks[12][1].Bomb.BombRadius: 0 is below 1"},
		{"bomb_timer", 0, edit(func(d jsonDoc) { d.cell(13, 2)["Bomb"].(map[string]any)["BombTimer"] = -2 }),
			"GameBlocks[12][1].Bomb.BombTimer: -2 is negative"},
		{"too_many_bombs", 0, edit(func(d jsonDoc) {
			owner := d.player(1)
			n := 0
			for y := 1; y <= 21; y++ {
				for x := 1; x <= 21; x++ {
					c := d.cell(x, y)
					if c["Bomb"] == nil {
						c["Bomb"] = map[string]any{"Owner": owner, "BombRadius": 1, "BombTimer": 3, "IsExploding": false, "Location": loc(x, y)}
						n++
					}
				}
			}
		}), "more than 64 bombs"},
		{"all_pillars", 0, edit(func(d jsonDoc) {
			d["MapWidth"], d["MapHeight"] = 1, 1
			d["GameBlocks"] = []any{[]any{map[string]any{"Entity": map[string]any{"$type": typeIndestructible, "Location": loc(1, 1)}, "Location": loc(1, 1)}}}
			for i := range 2 {
				d.player(i)["Killed"] = true
				d.player(i)["Location"] = loc(1, 1)
			}
		}), "GameBlocks: every cell is an indestructible wall"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			players := tt.players
			if players == 0 {
				players = 2
			}
			g := mustNew(t, &Config{Players: players})
			g.Reset(3)
			before := native(t, g, FormatStateJSON)
			err := g.LoadNative(tt.data(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %s", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "state.json: ") {
				t.Errorf("err = %v, want the prefix \"state.json: \"", err)
			}
			if after := native(t, g, FormatStateJSON); !bytes.Equal(after, before) {
				t.Error("a failed load changed the game")
			}
		})
	}
}

// FuzzLoadNative checks that no input panics the loader, and that every
// state it accepts writes without panicking and round-trips exactly.
func FuzzLoadNative(f *testing.F) {
	f.Add(readFile(f, sampleState))
	g := mustNew(f, &Config{Players: 2})
	g.Reset(42)
	f.Add(native(f, g, FormatStateJSON))
	f.Add(readFile(f, "testdata/golden/4p-seed1-round7.state.json"))
	small := fixture(f, 3, 1)
	addBomb(f, small, 0, 1, 1, 1, 2)
	f.Add(native(f, small, FormatStateJSON))
	f.Add([]byte(`{"MapWidth":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, players := range []int{2, 4} {
			g := mustNew(t, &Config{Players: players})
			if err := g.LoadNative(data); err != nil {
				continue
			}
			native(t, g, FormatRoundInfo)
			checkLoadedRoundTrip(t, g)
		}
	})
}
