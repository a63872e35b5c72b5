package portalbomber

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestStateJSONKeyOrder checks state.json's keys against the order in
// which the original's Game.sanitizedForm (modules/games/class/Game.js)
// builds the object: moveNumber last, as the commit that added it
// (340cac8, the ring of fire) appended it after portalMap.
func TestStateJSONKeyOrder(t *testing.T) {
	want := "gameID playerID state boardSize player moveOrder moveIterator playerIndex opponent hardBlockBoard softBlockBoard trailMap bombMap portalMap moveNumber"
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{0, 1} {
		js, err := g.AppendNative(nil, FormatStateJSON, seat)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		if _, err := dec.Token(); err != nil { // {
			t.Fatal(err)
		}
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k.(string))
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
		if got := strings.Join(keys, " "); got != want {
			t.Errorf("seat %d keys:\n got %s\nwant %s", seat, got, want)
		}
		if !bytes.HasSuffix(js, []byte(`},"moveNumber":0}`)) {
			t.Errorf("seat %d: state.json ends %q", seat, js[len(js)-30:])
		}
	}
}
