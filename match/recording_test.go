package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/portalbomber"
	"github.com/botarena/botarena/match"
)

// textCounter is the counter game with a native codec: "total.txt", the
// seats' scores separated by spaces.
type textCounter struct{ *counter }

func (g textCounter) NativeFormats() []string { return []string{"total.txt"} }
func (g textCounter) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if format != "total.txt" {
		return dst, fmt.Errorf("no format %s", format)
	}
	for i, s := range g.scores {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, int64(s), 10)
	}
	return dst, nil
}
func (g textCounter) LoadNative([]byte) error { return errors.New("not loadable") }
func (g textCounter) ParseCommand(seat int, text []byte) (int32, bool) {
	n, err := strconv.Atoi(string(text))
	return int32(n), err == nil
}

// AppendCommand names the seat's score too, so that a recording shows
// which state a command was taken in (before the step).
func (g textCounter) AppendCommand(dst []byte, seat int, action int32) []byte {
	return append(dst, "add "+strconv.Itoa(int(action))+" to "+strconv.Itoa(g.scores[seat])...)
}

// readRecording reads a whole recording and checks that every line's
// offset and length locate it.
func readRecording(t *testing.T, data []byte) (match.RecordingHeader, []match.RecordedRound, json.RawMessage) {
	t.Helper()
	rec, err := match.ReadRecording(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	rr, _, _ := match.NewRecordingReader(bytes.NewReader(data), 0)
	for l, err := rr.Next(); err != io.EOF; l, err = rr.Next() {
		if got := data[l.Offset : l.Offset+int64(l.Len)]; err != nil || !json.Valid(got) || got[0] != '{' || got[len(got)-1] != '}' {
			t.Fatalf("line at %d+%d: %q, %v", l.Offset, l.Len, got, err)
		}
	}
	return rec.Header, rec.Rounds, rec.Result
}

func TestRecorderWritesEveryStateActionAndTheResult(t *testing.T) {
	g := textCounter{newCounter(2, 3)}
	var buf bytes.Buffer
	rec := match.NewRecorder(&buf, match.RecordingHeader{Game: "counter", Seed: 5, Agents: []string{"one", "two"}}, 0)
	states := 0
	m := &match.Match{Env: g, Agents: agentsOf(&fixed{action: 1, panicAt: -1}, &fixed{action: 2, panicAt: -1}), Seed: 5,
		Hooks: rec.Hooks(match.Hooks{State: func(env.Env, int) error { states++; return nil }})}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Finish(res); err != nil {
		t.Fatal(err)
	}
	if states != 4 {
		t.Errorf("the next hooks saw %d states, want 4", states)
	}
	h, rounds, result := readRecording(t, buf.Bytes())
	if h.Format != match.RecordingFormat || h.Version != match.RecordingVersion || h.Game != "counter" || h.Seed != 5 || h.Seats != 2 || h.StateFormat != "total.txt" || !slices.Equal(h.Agents, []string{"one", "two"}) {
		t.Errorf("header %+v", h)
	}
	if len(rounds) != 4 {
		t.Fatalf("%d rounds, want 4 (the initial state and 3 rounds)", len(rounds))
	}
	for i, r := range rounds {
		want := fmt.Sprintf("%q", fmt.Sprintf("%d %d", i, 2*i))
		if r.Round != i || string(r.State) != want {
			t.Errorf("round %d: %d %s, want state %s", i, r.Round, r.State, want)
		}
		last := i == len(rounds)-1
		if last != (r.Actions == nil) || (!last && (!slices.Equal(r.Actions, []int32{1, 2}) || !slices.Equal(r.Commands, []string{fmt.Sprintf("add 1 to %d", i), fmt.Sprintf("add 2 to %d", 2*i)}) || len(r.Rewards) != 2 || len(r.Terminated) != 2 || len(r.Truncated) != 2)) {
			t.Errorf("round %d: %+v", i, r)
		}
	}
	want := `{"game":"counter","seed":5,"rounds":3,"winner":1,"draw":false,"leaderboard":[` +
		`{"rank":1,"seat":1,"agent":"","name":"","score":6,"alive":true},{"rank":2,"seat":0,"agent":"","name":"","score":3,"alive":true}]}`
	if string(result) != want {
		t.Errorf("result %s, want %s", result, want)
	}
	if got, err := match.ParseResult(result); err != nil || !reflect.DeepEqual(got, res) {
		t.Errorf("ParseResult = %+v, %v; want %+v", got, err, res)
	}
	if rec.Written() != int64(buf.Len()) {
		t.Errorf("Written %d, buffer %d", rec.Written(), buf.Len())
	}
}

func TestRecorderForfeitEndsWithTheLastState(t *testing.T) {
	g := textCounter{newCounter(2, 10)}
	var buf bytes.Buffer
	rec := match.NewRecorder(&buf, match.RecordingHeader{Game: "counter"}, 0)
	m := &match.Match{Env: g, Agents: agentsOf(&fixed{action: 1, panicAt: 2}, &fixed{action: 2, panicAt: -1}), Hooks: rec.Hooks(match.Hooks{})}
	res, err := m.Run(context.Background())
	if err != nil || res.Forfeit == nil || res.Forfeit.Seat != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if err := rec.Finish(res); err != nil {
		t.Fatal(err)
	}
	_, rounds, result := readRecording(t, buf.Bytes())
	if len(rounds) != 3 || rounds[2].Actions != nil || rounds[1].Actions == nil || !strings.Contains(string(result), `"forfeit":{"seat":0,"round":2,"reason":"the agent panicked`) {
		t.Errorf("%d rounds, last %+v, result %s", len(rounds), rounds[len(rounds)-1], result)
	}
}

func TestRecorderLimit(t *testing.T) {
	g := textCounter{newCounter(2, 100)}
	var buf bytes.Buffer
	rec := match.NewRecorder(&buf, match.RecordingHeader{Game: "counter"}, 1000)
	m := &match.Match{Env: g, Agents: agentsOf(&fixed{action: 1, panicAt: -1}, &fixed{action: 2, panicAt: -1}), Hooks: rec.Hooks(match.Hooks{})}
	_, err := m.Run(context.Background())
	if !errors.Is(err, match.ErrRecordingTooLarge) || !strings.Contains(err.Error(), "would pass the recording size limit of 1000 bytes") {
		t.Fatalf("error %v, want the limit of 1000 bytes at a round", err)
	}
	if buf.Len() > 1000 {
		t.Errorf("%d bytes written past the limit", buf.Len())
	}
	if err := rec.Finish(match.Result{}); !errors.Is(err, match.ErrRecordingTooLarge) {
		t.Errorf("Finish after the limit: %v", err)
	}
}

func TestRecorderNeedsACodec(t *testing.T) {
	rec := match.NewRecorder(io.Discard, match.RecordingHeader{Game: "counter"}, 0)
	m := &match.Match{Env: newCounter(2, 3), Agents: agentsOf(&fixed{panicAt: -1}, &fixed{panicAt: -1}), Hooks: rec.Hooks(match.Hooks{})}
	if _, err := m.Run(context.Background()); !errors.Is(err, env.ErrNoCodec) {
		t.Errorf("error %v, want env.ErrNoCodec", err)
	}
}

// TestRecordingOfAJSONGame: a JSON native state is embedded as JSON, and
// each recorded state loads back into the game.
func TestRecordingOfAJSONGame(t *testing.T) {
	e, err := env.Make("portalbomber", nil)
	if err != nil {
		t.Fatal(err)
	}
	ags, err := match.NewAgents("portalbomber", []string{"random", "random"}, e.Spec(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec := match.NewRecorder(&buf, match.RecordingHeader{Game: "portalbomber", Seed: 9}, 0)
	m := &match.Match{Env: e, Agents: ags, Seed: 9, MaxRounds: 20, Hooks: rec.Hooks(match.Hooks{})}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Finish(res); err != nil {
		t.Fatal(err)
	}
	h, rounds, _ := readRecording(t, buf.Bytes())
	if h.StateFormat != "state.json" || len(rounds) != e.Steps()+1 {
		t.Fatalf("format %s, %d rounds, result %+v", h.StateFormat, len(rounds), res)
	}
	f, _ := env.Make("portalbomber", nil)
	for _, r := range rounds {
		if r.State[0] != '{' {
			t.Fatalf("round %d: state %.20s is not a JSON object", r.Round, r.State)
		}
		if err := f.(env.Codec).LoadNative(r.State); err != nil {
			t.Fatalf("round %d: %v", r.Round, err)
		}
	}
}

func TestRecordingReaderRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		data, want string
		max        int
	}{
		"empty":        {"", "empty", 0},
		"not_a_header": {`{"game":"x"}` + "\n", "not a botarena recording header", 0},
		"version":      {`{"format":"botarena-recording","version":9,"game":"x","seats":2,"state_format":"s"}` + "\n", "version 9", 0},
		"incomplete":   {`{"format":"botarena-recording","version":1}` + "\n", "lacks game", 0},
		"long_line":    {`{"format":"botarena-recording","version":1,"game":"x","seats":2,"state_format":"s"}` + "\n", "longer than 10 bytes", 10},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := match.NewRecordingReader(strings.NewReader(c.data), c.max)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	rr, _, err := match.NewRecordingReader(strings.NewReader(`{"format":"botarena-recording","version":1,"game":"x","seats":2,"state_format":"s"}`+"\n\n"+`{"what":1}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Next(); err == nil || !strings.Contains(err.Error(), "line 3 is neither") {
		t.Errorf("a line that is neither: %v", err)
	}
}
