package upe

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/botarena/env/portalbomber"
)

// fuzzContentTypes are the Content-Types FuzzUPEBody sends bodies with.
var fuzzContentTypes = []string{
	"application/json", "application/json; charset=utf-8", "application/x-www-form-urlencoded",
	"", "text/plain", "multipart/form-data; boundary=x", "APPLICATION/JSON", "application/json; charset",
}

// fuzzRoutes are the paths FuzzUPEBody posts to.
var fuzzRoutes = []string{
	"/api/games/submit/0123456789abcdef01234567", "/api/games/search", "/api/games/practice",
	"/api/games/submit/0123456789ABCDEF01234567/", "/api/games/submit/nonsense", "/api/games/other",
}

// FuzzUPEBody feeds arbitrary request bodies, JSON and form-encoded, to
// the UPE routes. readBody never panics, gives form values as qs makes
// them and refuses a body with 400, 413 or 415;
// a submitted body's move maps, through the Seat that awaits it, to the
// action the engine's ParseCommand reads (InvalidMove for a move that is
// missing or not a string), always an index of the action space, which
// the game then steps with; and every route answers with a known status
// and a JSON body.
func FuzzUPEBody(f *testing.F) {
	for _, s := range []string{
		`{"devkey":"k","playerID":"0123456789abcdef01234567","move":"b"}`, `{"devkey":"k","move":""}`,
		`{"devkey":"k","move":5}`, `{"devkey":"k","move":null}`, `{"devkey":"k","move":["b"]}`,
		`{"move":"buy_count"}`, `{"move":"buy 00"}`, `{"move":" b"}`, `[]`, `"x"`, `{`, ``, `  `,
		`{"devkey":"k","username":"me"}`, `{"devkey":1}`, `{"move":"mr"} {}`,
	} {
		f.Add(uint8(0), uint8(0), []byte(s))
		f.Add(uint8(1), uint8(1), []byte(s))
	}
	for _, s := range []string{"devkey=k&playerID=0123456789abcdef01234567&move=mr", "move=", "move=b&move=op", "devkey=k", "%zz", "move=%62"} {
		f.Add(uint8(0), uint8(2), []byte(s))
		f.Add(uint8(2), uint8(3), []byte(s))
	}
	f.Add(uint8(0), uint8(5), []byte("--x\r\nContent-Disposition: form-data; name=\"move\"\r\n\r\nb\r\n--x--\r\n"))

	// A server that hosts nothing: submits find no game, searches find
	// it closed. It starts no goroutine.
	closed, err := NewHandler(Options{})
	if err != nil {
		f.Fatal(err)
	}
	closed.Close()
	// A server whose seat awaits a move, as in a game.
	srv := newServer(Options{}, true)
	seat := newSeat(srv, false)
	seat.client = &client{devkey: "k", reply: make(chan response, 1)}

	f.Fuzz(func(t *testing.T, route, ctype uint8, body []byte) {
		ct := fuzzContentTypes[int(ctype)%len(fuzzContentTypes)]
		req := httptest.NewRequest(http.MethodPost, "/api/games/submit/0123456789abcdef01234567", bytes.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		fields, err := readBody(req)
		switch {
		case err != nil && err.Error() == "":
			t.Fatal("an empty error")
		case err == nil && fields == nil:
			t.Fatal("no error and no fields")
		case err == nil && !strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "APPLICATION/JSON"):
			for k, v := range fields {
				if !qsValue(v) {
					t.Fatalf("form field %q is %#v, want what qs makes", k, v)
				}
			}
		case err != nil:
			if s := bodyStatus(err); s != http.StatusBadRequest && s != http.StatusRequestEntityTooLarge && s != http.StatusUnsupportedMediaType {
				t.Fatalf("readBody: status %d for %v", s, err)
			}
		}
		if err == nil {
			checkMove(t, seat, fields)
		}

		path := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req = httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		closed.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusServiceUnavailable,
			http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
		default:
			t.Fatalf("%s: status %d", path, rec.Code)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s: the answer is not JSON: %q", path, rec.Body.Bytes())
		}
		if err != nil && rec.Code != bodyStatus(err) && rec.Code != http.StatusNotFound {
			t.Fatalf("%s: a body readBody refuses (%v) got %d %s", path, err, rec.Code, rec.Body.Bytes())
		}
		if err == nil && path == fuzzRoutes[0] && (rec.Code != http.StatusOK || rec.Body.String() != string(jsonBody(GameUndefined))) {
			t.Fatalf("submit to no game: %d %s", rec.Code, rec.Body.Bytes())
		}
	})
}

// qsValue reports whether v is a value qs makes: a string, true, or an
// array or object of them, without holes.
func qsValue(v any) bool {
	switch v := v.(type) {
	case string:
		return true
	case bool:
		return v
	case []any:
		for _, e := range v {
			if e == nil || !qsValue(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range v {
			if !qsValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// checkMove submits fields' move to seat, which awaits it in a new game,
// and checks the action the seat plays.
func checkMove(t *testing.T, seat *Seat, fields map[string]any) {
	t.Helper()
	variant := portalbomber.DefaultConfig()
	variant.VariantCommands = true // the UPE routes need alternating moves
	for _, cfg := range []*portalbomber.Config{portalbomber.DefaultConfig(), variant} {
		g, err := portalbomber.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(1)
		who := g.ToMove()
		move, known := fields["move"].(string)
		seat.moves <- submission{move: move, known: known, reply: make(chan response, 1)}
		a := seat.Act(g, who)
		want := int32(portalbomber.InvalidMove)
		if known {
			var ok bool
			want, ok = g.ParseCommand(who, []byte(move))
			if ok != (want != int32(portalbomber.InvalidMove)) {
				t.Fatalf("move %q: action %d, ok %v", move, want, ok)
			}
		}
		if a != want || a < 0 || a >= portalbomber.NumActions {
			t.Fatalf("move %q (a string: %v): the seat plays %d, want %d", move, known, a, want)
		}
		acts := []int32{0, 0}
		acts[who] = a
		g.Step(acts, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	}
}
