package upe

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// bodyCase is a submit body shape and what the original server read from
// it. The request is POST /api/games/submit/<id> with the Content-Type
// ctype (none with noType), the Content-Encoding encoding (the body
// compressed with it unless raw), Content-Length (none with noLength),
// and the bytes body followed by repeat × times.
type bodyCase struct {
	name     string
	ctype    string
	noType   bool
	encoding string
	raw      bool
	noLength bool
	body     string
	repeat   string
	times    int

	// The original: status is the status of body-parser's error (the
	// original then redirected to /server-error and the move was not
	// played), 0 when the handler ran; move, devkey and playerID are what
	// it read as req.body.<key>: "string:<value>" (the first 20 UTF-16
	// units and "...(<length>)" past 40), or its kind: "undefined" (also
	// written ""), "array", "object", "number", "boolean" or "null".
	status                 int
	move, devkey, playerID string
}

// bodyCases: the expected columns were produced by running the original's
// parsing, not by reading it. In a temporary folder outside the repository,
// `npm install express@~4.13.4 body-parser@~1.15.0` with npm overrides
// content-type@1.0.2, type-is@1.6.13 and media-typer@0.3.0 (the versions
// of autumn 2016) gave express 4.13.4, body-parser 1.15.2 and what it pins:
// qs 6.2.0, raw-body 2.1.7, iconv-lite 0.4.13, bytes 2.4.0. A script run
// with Node 20.20 built an Express app as config/lib/express.js of
// dubwub/F2016-UPE-AI does (bodyParser.urlencoded({extended: true}), then
// bodyParser.json()), with a POST /api/games/submit/:gameId route that
// answered the view of req.body.move, .devkey and .playerID (a property
// read, as games.server.controller.js's submit does) and an error handler
// that answered the error's status. It sent each case as raw bytes over
// TCP (the same bytes as sendRaw below) and printed these rows.
//
// The game then reads the view as Game.js's submit does: a string that is
// one of the moves (a strict switch) is that move; any other string, and
// anything that is not a string, is an invalid move that uses up the turn.
var bodyCases = []bodyCase{
	{name: "form_plain", ctype: "application/x-www-form-urlencoded", body: "devkey=k&playerID=p&move=b", move: "string:b", devkey: "string:k", playerID: "string:p"},
	{name: "form_repeated_key", ctype: "application/x-www-form-urlencoded", body: "move=b&move=op", move: "array"},
	{name: "form_repeated_devkey", ctype: "application/x-www-form-urlencoded", body: "devkey=k&devkey=k&playerID=p&move=mr", move: "string:mr", devkey: "array", playerID: "string:p"},
	{name: "form_semicolon", ctype: "application/x-www-form-urlencoded", body: "move=b;x=1", move: "string:b;x=1"},
	{name: "form_semicolon_pairs", ctype: "application/x-www-form-urlencoded", body: "devkey=k;playerID=p;move=b", move: "undefined", devkey: "string:k;playerID=p;move=b"},
	{name: "form_bad_percent", ctype: "application/x-www-form-urlencoded", body: "move=b%zz", move: "string:b%zz"},
	{name: "form_bad_percent_keeps_plus", ctype: "application/x-www-form-urlencoded", body: "move=a+b%zz", move: "string:a+b%zz"},
	{name: "form_bad_percent_key", ctype: "application/x-www-form-urlencoded", body: "mo%zve=b&move=mr", move: "string:mr"},
	{name: "form_percent_invalid_utf8", ctype: "application/x-www-form-urlencoded", body: "move=%ff", move: "string:%ff"},
	{name: "form_percent_truncated", ctype: "application/x-www-form-urlencoded", body: "move=b%", move: "string:b%"},
	{name: "form_percent_surrogate", ctype: "application/x-www-form-urlencoded", body: "move=%ed%a0%80", move: "string:%ed%a0%80"},
	{name: "form_percent_encoded", ctype: "application/x-www-form-urlencoded", body: "move=%62", move: "string:b"},
	{name: "form_percent_utf8", ctype: "application/x-www-form-urlencoded", body: "move=%c3%a9", move: "string:\xc3\xa9"},
	{name: "form_percent_ampersand", ctype: "application/x-www-form-urlencoded", body: "move=b%26move%3Dop", move: "string:b&move=op"},
	{name: "form_plus_space", ctype: "application/x-www-form-urlencoded", body: "move=+b", move: "string: b"},
	{name: "form_percent_key", ctype: "application/x-www-form-urlencoded", body: "mo%76e=mr", move: "string:mr"},
	{name: "form_nested_object", ctype: "application/x-www-form-urlencoded", body: "move[a]=b", move: "object"},
	{name: "form_nested_array", ctype: "application/x-www-form-urlencoded", body: "move[]=b", move: "array"},
	{name: "form_index", ctype: "application/x-www-form-urlencoded", body: "move[0]=b", move: "array"},
	{name: "form_index_past_limit", ctype: "application/x-www-form-urlencoded", body: "move[101]=b", move: "object"},
	{name: "form_index_then_key", ctype: "application/x-www-form-urlencoded", body: "move[0]=a&move[x]=b", move: "object"},
	{name: "form_open_bracket", ctype: "application/x-www-form-urlencoded", body: "move[=b", move: "string:b"},
	{name: "form_close_bracket", ctype: "application/x-www-form-urlencoded", body: "move]=b", move: "string:b"},
	{name: "form_bracketed_key", ctype: "application/x-www-form-urlencoded", body: "[move]=b", move: "string:b"},
	{name: "form_encoded_brackets", ctype: "application/x-www-form-urlencoded", body: "move%5Ba%5D=b", move: "object"},
	{name: "form_tail_after_bracket", ctype: "application/x-www-form-urlencoded", body: "move[a]x=b", move: "object"},
	{name: "form_bare_close_bracket", ctype: "application/x-www-form-urlencoded", body: "]=move", move: "boolean"},
	{name: "form_string_then_nested", ctype: "application/x-www-form-urlencoded", body: "move=b&move[x]=c", move: "array"},
	{name: "form_nested_then_string", ctype: "application/x-www-form-urlencoded", body: "move[x]=c&move=b", move: "object"},
	{name: "form_dot_key", ctype: "application/x-www-form-urlencoded", body: "move.x=b", move: "undefined"},
	{name: "form_proto", ctype: "application/x-www-form-urlencoded", body: "__proto__[move]=b&__proto__=b&constructor[prototype][move]=b", move: "undefined"},
	{name: "form_to_string", ctype: "application/x-www-form-urlencoded", body: "toString=x&move=tl", move: "string:tl"},
	{name: "form_empty_value", ctype: "application/x-www-form-urlencoded", body: "move=", move: "string:"},
	{name: "form_no_equals", ctype: "application/x-www-form-urlencoded", body: "move", move: "string:"},
	{name: "form_bracket_equals", ctype: "application/x-www-form-urlencoded", body: "move[a]=b]=c", move: "object"},
	{name: "form_empty_pairs", ctype: "application/x-www-form-urlencoded", body: "&&move=mr&&", move: "string:mr"},
	{name: "form_empty_key", ctype: "application/x-www-form-urlencoded", body: "=x&move=md", move: "string:md"},
	{name: "form_empty_body", ctype: "application/x-www-form-urlencoded", body: "", move: "undefined"},
	{name: "form_bom", ctype: "application/x-www-form-urlencoded", body: "\xef\xbb\xbfmove=b", move: "string:b"},
	{name: "form_raw_invalid_byte", ctype: "application/x-www-form-urlencoded", body: "move=b\xff", move: "string:b\xef\xbf\xbd"},
	{name: "form_raw_utf8", ctype: "application/x-www-form-urlencoded", body: "move=\xc3\xa9", move: "string:\xc3\xa9"},
	{name: "form_charset_utf8", ctype: "application/x-www-form-urlencoded; charset=utf-8", body: "move=b", move: "string:b"},
	{name: "form_charset_upper", ctype: "application/x-www-form-urlencoded; charset=\"UTF-8\"", body: "move=b", move: "string:b"},
	{name: "form_charset_latin1", ctype: "application/x-www-form-urlencoded; charset=iso-8859-1", body: "move=b", status: 415},
	{name: "form_charset_utf8_alias", ctype: "application/x-www-form-urlencoded; charset=utf8", body: "move=b", status: 415},
	{name: "form_charset_latin1_no_body", ctype: "application/x-www-form-urlencoded; charset=iso-8859-1", noLength: true, body: "", move: "undefined"},
	{name: "form_type_upper", ctype: "APPLICATION/X-WWW-FORM-URLENCODED", body: "move=b", move: "string:b"},
	{name: "form_type_spaces", ctype: "  application/x-www-form-urlencoded  ; charset=utf-8", body: "move=b", move: "string:b"},
	{name: "form_bad_parameter", ctype: "application/x-www-form-urlencoded; charset", body: "move=b", move: "undefined"},
	{name: "form_bad_parameter_latin1", ctype: "application/x-www-form-urlencoded; charset=latin1; x", body: "move=b", move: "undefined"},
	{name: "form_long_value", ctype: "application/x-www-form-urlencoded", body: "move=b", repeat: "x", times: 102394, move: "string:bxxxxxxxxxxxxxxxxxxx...(102395)"},
	{name: "form_over_limit", ctype: "application/x-www-form-urlencoded", body: "move=b", repeat: "x", times: 102395, status: 413},
	{name: "form_many_params", ctype: "application/x-www-form-urlencoded", body: "move=b", repeat: "&a=1", times: 999, move: "string:b"},
	{name: "form_too_many_params", ctype: "application/x-www-form-urlencoded", body: "move=b", repeat: "&a=1", times: 1000, status: 413},
	{name: "form_gzip", ctype: "application/x-www-form-urlencoded", encoding: "gzip", body: "move=b", move: "string:b"},
	{name: "form_deflate", ctype: "application/x-www-form-urlencoded", encoding: "deflate", body: "move=b", move: "string:b"},
	{name: "form_identity", ctype: "application/x-www-form-urlencoded", encoding: "identity", body: "move=b", move: "string:b"},
	{name: "form_unknown_encoding", ctype: "application/x-www-form-urlencoded", encoding: "br", body: "move=b", status: 415},
	{name: "form_bad_gzip", ctype: "application/x-www-form-urlencoded", encoding: "gzip", raw: true, body: "move=b", status: 400},
	{name: "form_gzip_over_limit", ctype: "application/x-www-form-urlencoded", encoding: "gzip", body: "move=b", repeat: "x", times: 200000, status: 413},
	{name: "json_plain", ctype: "application/json", body: "{\"devkey\":\"k\",\"playerID\":\"p\",\"move\":\"b\"}", move: "string:b", devkey: "string:k", playerID: "string:p"},
	{name: "json_bom", ctype: "application/json", body: "\xef\xbb\xbf{\"move\":\"b\"}", move: "string:b"},
	{name: "json_bom_only", ctype: "application/json", body: "\xef\xbb\xbf", move: "undefined"},
	{name: "json_move_array", ctype: "application/json", body: "{\"move\":[\"b\"]}", move: "array"},
	{name: "json_move_object", ctype: "application/json", body: "{\"move\":{\"a\":\"b\"}}", move: "object"},
	{name: "json_move_number", ctype: "application/json", body: "{\"move\":5}", move: "number"},
	{name: "json_move_huge_number", ctype: "application/json", body: "{\"move\":1e400}", move: "number"},
	{name: "json_move_bool", ctype: "application/json", body: "{\"move\":true}", move: "boolean"},
	{name: "json_move_null", ctype: "application/json", body: "{\"move\":null}", move: "null"},
	{name: "json_top_array", ctype: "application/json", body: "[\"b\"]", move: "undefined"},
	{name: "json_top_string", ctype: "application/json", body: "\"b\"", status: 400},
	{name: "json_top_null", ctype: "application/json", body: "null", status: 400},
	{name: "json_whitespace", ctype: "application/json", body: "  ", status: 400},
	{name: "json_empty", ctype: "application/json", body: "", move: "undefined"},
	{name: "json_leading_whitespace", ctype: "application/json", body: "\n\t {\"move\":\"b\"}", move: "string:b"},
	{name: "json_trailing_whitespace", ctype: "application/json", body: "{\"move\":\"b\"}\n", move: "string:b"},
	{name: "json_trailing_value", ctype: "application/json", body: "{\"move\":\"b\"} {}", status: 400},
	{name: "json_invalid", ctype: "application/json", body: "{", status: 400},
	{name: "json_single_quotes", ctype: "application/json", body: "{'move':'b'}", status: 400},
	{name: "json_duplicate_key", ctype: "application/json", body: "{\"move\":\"b\",\"move\":\"op\"}", move: "string:op"},
	{name: "json_escape", ctype: "application/json", body: "{\"move\":\"\\u0062\"}", move: "string:b"},
	{name: "json_proto", ctype: "application/json", body: "{\"__proto__\":{\"move\":\"b\"}}", move: "undefined"},
	{name: "json_raw_invalid_byte", ctype: "application/json", body: "{\"move\":\"b\xff\"}", move: "string:b\xef\xbf\xbd"},
	{name: "json_charset_utf8", ctype: "application/json; charset=utf-8", body: "{\"move\":\"b\"}", move: "string:b"},
	{name: "json_charset_utf16le", ctype: "application/json; charset=utf-16le", body: "{\x00\"\x00m\x00o\x00v\x00e\x00\"\x00:\x00\"\x00b\x00\"\x00}\x00", move: "string:b"},
	{name: "json_charset_utf16be", ctype: "application/json; charset=UTF-16BE", body: "\x00{\x00\"\x00m\x00o\x00v\x00e\x00\"\x00:\x00\"\x00b\x00\"\x00}", move: "string:b"},
	{name: "json_charset_utf16_bom", ctype: "application/json; charset=utf-16", body: "\xfe\xff\x00{\x00\"\x00m\x00o\x00v\x00e\x00\"\x00:\x00\"\x00b\x00\"\x00}", move: "string:b"},
	{name: "json_charset_utf16_guess", ctype: "application/json; charset=utf-16", body: "\x00{\x00\"\x00m\x00o\x00v\x00e\x00\"\x00:\x00\"\x00b\x00\"\x00}", move: "string:b"},
	{name: "json_charset_latin1", ctype: "application/json; charset=iso-8859-1", body: "{\"move\":\"b\"}", status: 415},
	{name: "json_charset_utf32", ctype: "application/json; charset=utf-32", body: "{\"move\":\"b\"}", status: 415},
	{name: "json_bad_parameter", ctype: "application/json; charset", body: "{\"move\":\"b\"}", move: "undefined"},
	{name: "json_suffix_type", ctype: "application/vnd.api+json", body: "{\"move\":\"b\"}", move: "undefined"},
	{name: "json_type_upper", ctype: "APPLICATION/JSON", body: "{\"move\":\"b\"}", move: "string:b"},
	{name: "json_type_empty_suffix", ctype: "application/json+", body: "{\"move\":\"b\"}", move: "string:b"},
	{name: "json_over_limit", ctype: "application/json", body: "{\"move\":\"b\",\"x\":\"", repeat: "x", times: 102400, status: 413},
	{name: "json_gzip", ctype: "application/json", encoding: "gzip", body: "{\"move\":\"b\"}", move: "string:b"},
	{name: "text_plain", ctype: "text/plain", body: "move=b", move: "undefined"},
	{name: "no_content_type", noType: true, body: "move=b", move: "undefined"},
	{name: "multipart", ctype: "multipart/form-data; boundary=x", body: "--x\x0d\nContent-Disposition: form-data; name=\"move\"\x0d\n\x0d\nb\x0d\n--x--\x0d\n", move: "undefined"},
	{name: "empty_content_type", ctype: "", body: "move=b", move: "undefined"},
}

// TestBodyTable: readBody, under Go's HTTP server, reads every body shape
// as the original did (see bodyCases).
func TestBodyTable(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fields, err := readBody(r)
		out := map[string]any{"status": 0}
		if err != nil {
			out["status"] = bodyStatus(err)
		} else {
			for _, k := range []string{"move", "devkey", "playerID"} {
				out[k] = bodyView(fields, k)
			}
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(ts.Close)
	for _, c := range bodyCases {
		t.Run(c.name, func(t *testing.T) {
			resp := sendRaw(t, ts.Listener.Addr().String(), c)
			var got struct {
				Status                 int
				Move, Devkey, PlayerID string
			}
			if err := json.Unmarshal(resp, &got); err != nil {
				t.Fatalf("answer %q: %v", resp, err)
			}
			want := c
			for _, f := range []*string{&want.move, &want.devkey, &want.playerID} {
				if *f == "" && want.status == 0 {
					*f = "undefined"
				}
			}
			if got.Status != want.status || got.Move != want.move || got.Devkey != want.devkey || got.PlayerID != want.playerID {
				t.Errorf("status %d, move %q, devkey %q, playerID %q; the original: status %d, move %q, devkey %q, playerID %q",
					got.Status, got.Move, got.Devkey, got.PlayerID, want.status, want.move, want.devkey, want.playerID)
			}
		})
	}
}

// bodyView describes body[key] as bodyCase does.
func bodyView(body map[string]any, key string) string {
	v, ok := body[key]
	if !ok {
		return "undefined"
	}
	switch v := v.(type) {
	case string:
		u := utf16.Encode([]rune(v))
		if len(u) <= 40 {
			return "string:" + v
		}
		return "string:" + string(utf16.Decode(u[:20])) + "...(" + strconv.Itoa(len(u)) + ")"
	case nil:
		return "null"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// caseBody is the body bytes c sends.
func caseBody(t *testing.T, c bodyCase) []byte {
	t.Helper()
	data := []byte(c.body + strings.Repeat(c.repeat, c.times))
	if c.raw || c.encoding != "gzip" && c.encoding != "deflate" {
		return data
	}
	var b bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	if c.encoding == "gzip" {
		w = gzip.NewWriter(&b)
	} else {
		w = zlib.NewWriter(&b)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// sendRaw sends c to addr as raw HTTP/1.1 and returns the answer's body.
func sendRaw(t *testing.T, addr string, c bodyCase) []byte {
	t.Helper()
	return sendRawTo(t, addr, "/api/games/submit/0123456789abcdef01234567", c)
}

// sendRawTo sends c to addr's path as raw HTTP/1.1 and returns the
// answer's body.
func sendRawTo(t *testing.T, addr, path string, c bodyCase) []byte {
	t.Helper()
	body := caseBody(t, c)
	var req bytes.Buffer
	fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n", path)
	if !c.noType {
		fmt.Fprintf(&req, "Content-Type: %s\r\n", c.ctype)
	}
	if c.encoding != "" {
		fmt.Fprintf(&req, "Content-Encoding: %s\r\n", c.encoding)
	}
	if !c.noLength {
		fmt.Fprintf(&req, "Content-Length: %d\r\n", len(body))
	}
	req.WriteString("\r\n")
	req.Write(body)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write(req.Bytes()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return b.Bytes()
}

// TestSubmitBodyShapesPlay: the shapes that botarena read differently
// before, played in a practice game as the original plays them: a
// repeated move (an array), a move with ';' and one with a bad percent
// escape are invalid moves that use up the turn; a JSON body with a
// byte-order mark is read, and its "b" places a bomb.
func TestSubmitBodyShapesPlay(t *testing.T) {
	t.Parallel()
	_, base := newHosted(t, Options{Timeout: 5 * time.Second})
	s := decode(t, post(t, t.Context(), base+"/api/games/practice", map[string]string{"devkey": key}))
	addr := strings.TrimPrefix(base, "http://")
	form := "application/x-www-form-urlencoded"
	ids := "devkey=" + key + "&playerID=" + s.PlayerID
	for _, c := range []struct {
		name string
		req  bodyCase
		bomb bool
	}{
		{"repeated_move", bodyCase{ctype: form, body: ids + "&move=b&move=op"}, false},
		{"semicolon", bodyCase{ctype: form, body: ids + "&move=b;x=1"}, false},
		{"bad_percent", bodyCase{ctype: form, body: ids + "&move=b%zz"}, false},
		{"json_bom", bodyCase{ctype: "application/json", body: "\xef\xbb\xbf" + `{"devkey":"` + key + `","playerID":"` + s.PlayerID + `","move":"b"}`}, true},
	} {
		answer := sendRawTo(t, addr, "/api/games/submit/"+s.GameID, c.req)
		var next struct {
			state
			BombMap map[string]any `json:"bombMap"`
		}
		if err := json.Unmarshal(answer, &next); err != nil || next.GameID != s.GameID {
			t.Fatalf("%s: answer %s (%v)", c.name, answer, err)
		}
		if next.MoveNumber <= s.MoveNumber || next.State != "in progress" {
			t.Fatalf("%s: moveNumber %d → %d, state %q; want the turn used", c.name, s.MoveNumber, next.MoveNumber, next.State)
		}
		if bomb := len(next.BombMap) > 0; bomb != c.bomb {
			t.Fatalf("%s: a bomb on the board: %v, want %v (%v)", c.name, bomb, c.bomb, next.BombMap)
		}
		s = next.state
	}
}
