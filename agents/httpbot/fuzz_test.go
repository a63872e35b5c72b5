package httpbot

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/botarena/botarena/env/battlecube"
)

// Content encodings FuzzBattlecubeReply serves the reply with: the first
// four encode it as they say; the last two claim an encoding that the
// bytes do not have.
var replyEncodings = []struct {
	header string
	encode func([]byte) []byte
}{
	{"", func(b []byte) []byte { return b }},
	{"gzip", compressed(func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) })},
	{"deflate", compressed(func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) })},
	{"deflate", compressed(func(w io.Writer) io.WriteCloser { // raw deflate, as some servers send it
		fw, _ := flate.NewWriter(w, flate.BestSpeed)
		return fw
	})},
	{"gzip", func(b []byte) []byte { return b }},
	{"deflate", func(b []byte) []byte { return b }},
}

// compressed returns an encoding that writes its input through the
// compressor newWriter makes.
func compressed(newWriter func(io.Writer) io.WriteCloser) func([]byte) []byte {
	return func(b []byte) []byte {
		var buf bytes.Buffer
		w := newWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
}

// FuzzBattlecubeReply feeds arbitrary Battle³ bot replies to the server's
// validation (battlecube's ParseCommand) in every sub-tick of a cycle, and
// through an Bot that fetches them from a bot server, plain and
// compressed. Nothing panics; a reply accepted maps to an action index that
// the seat's mask allows; a rejected one maps to NOOP, a reject code or a
// stray task's code, as documented; each action's canonical reply reads
// back the same; and the
// Bot plays exactly what ParseCommand reads from the decoded reply (a
// body that does not decode, such as bytes that claim an encoding they do
// not have, loses the seat as a failed request).
func FuzzBattlecubeReply(f *testing.F) {
	for _, s := range []string{
		`[{"task":"MOVE","direction":"+X"}]`, `[{"task":"BOMB","x":1,"y":"2","z":3}]`, `[]`, `x`, `404 page not found`,
		`[{"task":"NOOP"},{"task":"MOVE","direction":"-z"}]`, `[{"task":"MOVE"}]`, `[{"task":"BOMB","x":9,"y":0,"z":0}]`,
		`[{"task":"BOMB","x":-1,"y":0,"z":0}]`, `[{"task":"JUMP"}]`, `[{"task":"MOVE","direction":"+Q"}]`, `{"task":"NOOP"}`,
		`[{"task":"NOOP","extra":1}]`, `[{"task":"BOMB","x":1.5,"y":0,"z":0}]`, ` [{"task":"NOOP"}] `, `[{"task":"NOOP"}] x`,
	} {
		f.Add(uint8(0), uint8(0), []byte(s))
		f.Add(uint8(1), uint8(1), []byte(s))
	}
	f.Add(uint8(2), uint8(2), []byte(`[{"task":"MOVE","direction":"+Y"},{"task":"BOMB","x":0,"y":"3","z":1},{"task":"NOOP"}]`))
	f.Add(uint8(0), uint8(3), []byte(`[{"task":"MOVE","direction":"+X"}]`))
	f.Add(uint8(0), uint8(4), []byte(`[{"task":"MOVE","direction":"+X"}]`))
	f.Add(uint8(0), uint8(5), []byte("x\x9c"))

	var mu sync.Mutex
	var header string
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h, b := header, body
		mu.Unlock()
		if h != "" {
			w.Header().Set("Content-Encoding", h)
		}
		w.Write(b)
	}))
	f.Cleanup(srv.Close)
	bot, err := New(srv.URL, 0)
	if err != nil {
		f.Fatal(err)
	}
	bot.Log = nil
	f.Cleanup(func() { bot.Close() })

	f.Fuzz(func(t *testing.T, tasks, encoding uint8, reply []byte) {
		cfg := battlecube.DefaultConfig()
		cfg.Players, cfg.Edge, cfg.MaxTicks, cfg.TasksPerTick = 2, 4, 20, 1+int(tasks)%3
		cfg.StartPositions = [][3]int{{0, 0, 0}, {3, 3, 3}}
		g, err := battlecube.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(1)
		spec := g.Spec()
		mask := make([]uint8, spec.Actions)
		for k := range cfg.TasksPerTick {
			if g.SubTick() != k+1 {
				t.Fatalf("sub-tick %d, want %d", g.SubTick(), k+1)
			}
			a, ok := g.ParseCommand(0, reply)
			g.WriteMask(0, mask)
			switch {
			case ok && (a < 0 || int(a) >= spec.Actions):
				t.Fatalf("%q accepted as action %d, outside 0..%d", reply, a, spec.Actions-1)
			case ok && mask[a] != 1:
				t.Fatalf("%q accepted as action %d, which the mask forbids", reply, a)
			case !ok && !notAnAction(a):
				t.Fatalf("%q rejected as action %d, neither NOOP nor a reject or stray-task code", reply, a)
			case !json.Valid(reply) && a != int32(battlecube.RejectConnection):
				t.Fatalf("%q is not JSON, but reads as action %d", reply, a)
			}
			if b, okb := g.ParseCommand(1, reply); b != a || okb != ok {
				t.Fatalf("%q: seat 0 reads %d, %v; seat 1 %d, %v", reply, a, ok, b, okb)
			}
			canon := g.AppendCommand(nil, 0, a)
			want, wantOK := a, ok
			if !ok && a == int32(battlecube.Noop) {
				wantOK = true // NOOP's canonical reply is a plain NOOP task
			}
			if b, okb := g.ParseCommand(0, canon); b != want || okb != wantOK {
				t.Fatalf("%q → %d, %v → %q → %d, %v", reply, a, ok, canon, b, okb)
			}
			if k+1 < cfg.TasksPerTick {
				g.Step([]int32{0, 0}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
			}
		}

		// The same reply from a bot server: the bot plays what ParseCommand
		// reads from the body as decode undoes its Content-Encoding, or
		// loses the seat as a failed request when it does not decode.
		which := int(encoding) % len(replyEncodings)
		enc := replyEncodings[which]
		served := enc.encode(reply)
		want := int32(battlecube.RejectConnection)
		g.Reset(1)
		resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(served))}
		if enc.header != "" {
			resp.Header.Set("Content-Encoding", enc.header)
		}
		r, err := decode(resp)
		var decoded []byte
		if err == nil {
			decoded, err = io.ReadAll(r)
		}
		if err == nil {
			want, _ = g.ParseCommand(0, decoded)
		}
		if which < 4 && (err != nil || !bytes.Equal(decoded, reply)) {
			t.Fatalf("%q encoded with %q decodes to %q, %v", reply, enc.header, decoded, err)
		}
		mu.Lock()
		header, body = enc.header, served
		mu.Unlock()
		bot.Reset(g, 0, 1)
		if got := bot.Act(g, 0); got != want {
			t.Fatalf("%q served with Content-Encoding %q: the bot plays %d, want %d", reply, enc.header, got, want)
		}
	})
}

// notAnAction reports whether a is what ParseCommand returns with ok false:
// NOOP (a bomb off the cube), a reject code, or one of the tasks the server
// accepts that no action expresses.
func notAnAction(a int32) bool {
	switch battlecube.Action(a) {
	case battlecube.Noop, battlecube.RejectAmount, battlecube.RejectSchema, battlecube.RejectConnection,
		battlecube.CrashMove, battlecube.BombNowhere, battlecube.Idle:
		return true
	}
	_, stray := battlecube.StrayUnit(battlecube.Action(a))
	return stray
}
