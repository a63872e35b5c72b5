package upe

import (
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads request bodies as the original server did: Express 4.13
// with body-parser 1.15.2's urlencoded({extended: true}) and json()
// (config/lib/express.js of dubwub/F2016-UPE-AI), with the packages they
// pinned (qs 6.2.0, raw-body 2.1.7, iconv-lite 0.4.13, type-is 1.6.13,
// media-typer 0.3.0, content-type 1.0.2). body_table_test.go holds the
// table of body shapes and what the original made of each.

// bodyLimit is body-parser's default limit, "100kb": a larger body (after
// inflating a compressed one) is refused with 413.
const bodyLimit = 100 << 10

// maxEncodedBody bounds the bytes read of a compressed body (its inflated
// size is bounded by bodyLimit).
const maxEncodedBody = 1 << 20

// maxParams is body-parser's parameterLimit: a form body with this many
// '&' or more is refused with 413.
const maxParams = 1000

// bodyError is a body the original's body-parser refused, with the status
// of its error (400, 413 or 415). The original then redirected to
// /server-error; botarena answers the status with a JSON message.
type bodyError struct {
	status int
	msg    string
}

func (e *bodyError) Error() string { return "body: " + e.msg }

// readBody reads the request body as the original's body parsers did:
// a form-encoded body (Content-Type application/x-www-form-urlencoded) as
// qs 6.2.0 parses it, values being strings, []any and map[string]any (and
// true, qs's quirk); a JSON body as JSON.parse does, numbers being
// json.Number, after body-parser's strict check (the first character
// must be '{' or '['; a top-level array gives no fields); anything else,
// or no body, gives no fields. Errors are *bodyError.
func readBody(r *http.Request) (map[string]any, error) {
	out := map[string]any{}
	// type-is's hasBody: a Transfer-Encoding or a Content-Length header.
	if len(r.TransferEncoding) == 0 && r.Header.Get("Content-Length") == "" && r.ContentLength <= 0 {
		return out, nil
	}
	header := r.Header.Get("Content-Type")
	kind := mediaType(header)
	if kind != "application/json" && kind != "application/x-www-form-urlencoded" {
		return out, nil
	}
	charset := contentCharset(header)
	if charset == "" {
		charset = "utf-8"
	}
	unsupported := &bodyError{http.StatusUnsupportedMediaType, fmt.Sprintf("unsupported charset %q", strings.ToUpper(charset))}
	if kind == "application/x-www-form-urlencoded" && charset != "utf-8" ||
		kind == "application/json" && !strings.HasPrefix(charset, "utf-") {
		return nil, unsupported
	}
	data, err := readRaw(r)
	if err != nil {
		return nil, err
	}
	text, ok := decodeText(data, charset)
	if !ok {
		return nil, unsupported
	}
	if kind == "application/x-www-form-urlencoded" {
		if text == "" {
			return out, nil
		}
		if strings.Count(text, "&") >= maxParams {
			return nil, &bodyError{http.StatusRequestEntityTooLarge, "too many parameters"}
		}
		return parseQS(text), nil
	}
	if text == "" {
		return out, nil
	}
	if first := strings.TrimLeft(text, " \t\n\r"); first == "" || first[0] != '{' && first[0] != '[' {
		return nil, &bodyError{http.StatusBadRequest, "not a JSON object or array"}
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &bodyError{http.StatusBadRequest, "not JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &bodyError{http.StatusBadRequest, "not JSON: data after the value"}
	}
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	return out, nil // an array: its properties (move, ...) are undefined
}

// readRaw reads the body, inflated as its Content-Encoding says (identity,
// gzip or deflate, as body-parser), at most bodyLimit bytes.
func readRaw(r *http.Request) ([]byte, error) {
	tooLarge := &bodyError{http.StatusRequestEntityTooLarge, "request entity too large"}
	var body io.Reader = http.MaxBytesReader(nil, r.Body, maxEncodedBody)
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
		if r.ContentLength > bodyLimit {
			return nil, tooLarge
		}
	case "gzip", "deflate":
		var err error
		if enc == "gzip" {
			body, err = gzip.NewReader(body)
		} else {
			body, err = zlib.NewReader(body)
		}
		if err != nil {
			return nil, inflateError(err)
		}
	default:
		return nil, &bodyError{http.StatusUnsupportedMediaType, fmt.Sprintf("unsupported content encoding %q", enc)}
	}
	data, err := io.ReadAll(io.LimitReader(body, bodyLimit+1))
	if err != nil {
		return nil, inflateError(err)
	}
	if len(data) > bodyLimit {
		return nil, tooLarge
	}
	return data, nil
}

// inflateError is the error of a body that cannot be read or inflated.
func inflateError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &bodyError{http.StatusRequestEntityTooLarge, "request entity too large"}
	}
	return &bodyError{http.StatusBadRequest, err.Error()}
}

// decodeText decodes data in charset as iconv-lite does (its byte-order
// mark dropped, invalid UTF-8 replaced by U+FFFD); false for a charset
// botarena does not decode: one iconv-lite does not know, and UTF-7, which
// it knew (a departure: refused with 415).
func decodeText(data []byte, charset string) (string, bool) {
	var s string
	switch canonicalCharset(charset) {
	case "utf8":
		s = validUTF8(data)
	case "utf16le":
		s = decodeUTF16(data, false)
	case "utf16be":
		s = decodeUTF16(data, true)
	case "utf16":
		s = decodeUTF16(data, utf16BigEndian(data))
	default:
		return "", false
	}
	return strings.TrimPrefix(s, "\ufeff"), true
}

// canonicalCharset is iconv-lite's canonical name: lower case, letters and
// digits only.
func canonicalCharset(charset string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(charset) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// validUTF8 decodes UTF-8 as Node does: each maximal invalid subpart
// (WHATWG) becomes one U+FFFD.
func validUTF8(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n <= 1 {
			n = invalidPrefix(data)
		}
		b.WriteRune(r)
		data = data[n:]
	}
	return b.String()
}

// invalidPrefix is the length of the maximal subpart of an invalid UTF-8
// sequence at the start of data (at least 1).
func invalidPrefix(data []byte) int {
	c := data[0]
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case 0xE1 <= c && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	}
	n := 1
	for n <= need && n < len(data) && lo <= data[n] && data[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// decodeUTF16 decodes UTF-16 code units (an odd last byte is dropped, as
// Node drops it).
func decodeUTF16(data []byte, bigEndian bool) string {
	units := make([]uint16, len(data)/2)
	for i := range units {
		a, b := uint16(data[2*i]), uint16(data[2*i+1])
		if bigEndian {
			units[i] = a<<8 | b
		} else {
			units[i] = b<<8 | a
		}
	}
	return string(utf16.Decode(units))
}

// utf16BigEndian is iconv-lite's choice for "utf-16": a byte-order mark,
// else the order in which more of the first 32 code units look like
// ASCII; little-endian when undecided.
func utf16BigEndian(data []byte) bool {
	if len(data) < 2 {
		return false
	}
	switch {
	case data[0] == 0xFE && data[1] == 0xFF:
		return true
	case data[0] == 0xFF && data[1] == 0xFE:
		return false
	}
	le, be := 0, 0
	for i := 0; i+1 < min(len(data), 64); i += 2 {
		if data[i] == 0 && data[i+1] != 0 {
			be++
		}
		if data[i] != 0 && data[i+1] == 0 {
			le++
		}
	}
	return be > le
}

// latin1 reads a header's bytes as Node does, one character per byte.
func latin1(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// media-typer 0.3.0's grammar, which type-is uses to decide whether a body
// parser reads the body.
var (
	mtType    = regexp.MustCompile(`^ *([A-Za-z0-9][A-Za-z0-9!#$&^_-]{0,126})/([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}) *$`)
	mtName    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_-]{0,126}$`)
	mtSubtype = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.-]{0,126}$`)
	mtParam   = regexp.MustCompile("^; *[!#$%&'*+\\-.0-9A-Z^_`a-z|~]+ *= *(?:\"(?:[ !\\x{23}-\\x{5b}\\x{5d}-\\x{7e}\\x{80}-\\x{ff}]|\\\\[\\x{20}-\\x{7e}])*\"|[!#$%&'*+\\-.0-9A-Z^_`a-z|~]+) *")
)

// mediaType is the Content-Type header's type/subtype(+suffix) as type-is
// normalizes it, "" for a header it cannot parse (the body is then not
// read).
func mediaType(header string) string {
	if header == "" {
		return ""
	}
	s := latin1(header)
	typ, params, hasParams := strings.Cut(s, ";")
	m := mtType.FindStringSubmatch(strings.ToLower(typ))
	if m == nil {
		return ""
	}
	if hasParams {
		rest := ";" + params
		for rest != "" {
			p := mtParam.FindString(rest)
			if p == "" {
				return ""
			}
			rest = rest[len(p):]
		}
	}
	typ, sub, suffix := m[1], m[2], ""
	if i := strings.LastIndexByte(sub, '+'); i >= 0 {
		sub, suffix = sub[:i], sub[i+1:]
	}
	if !mtName.MatchString(typ) || !mtSubtype.MatchString(sub) || suffix != "" && !mtName.MatchString(suffix) {
		return ""
	}
	if suffix != "" {
		return typ + "/" + sub + "+" + suffix
	}
	return typ + "/" + sub
}

// content-type 1.0.2's grammar, which body-parser uses to read the charset.
var (
	ctType  = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+/[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")
	ctParam = regexp.MustCompile("^; *([!#$%&'*+\\-.^_`|~0-9A-Za-z]+) *= *(\"(?:[\\x{0b}\\x{20}\\x{21}\\x{23}-\\x{5b}\\x{5d}-\\x{7e}\\x{80}-\\x{ff}]|\\\\[\\x{0b}\\x{20}-\\x{ff}])*\"|[!#$%&'*+\\-.^_`|~0-9A-Za-z]+) *")
	ctQesc  = regexp.MustCompile(`\\([\x{0b}\x{20}-\x{ff}])`)
)

// contentCharset is the Content-Type header's charset parameter in lower
// case, "" when there is none or the header does not parse.
func contentCharset(header string) string {
	s := latin1(header)
	typ, params, hasParams := strings.Cut(s, ";")
	if !ctType.MatchString(strings.Trim(typ, "\t\n\v\f\r \u00a0")) {
		return ""
	}
	charset := ""
	if hasParams {
		rest := ";" + params
		for rest != "" {
			m := ctParam.FindStringSubmatch(rest)
			if m == nil {
				return ""
			}
			rest = rest[len(m[0]):]
			if strings.ToLower(m[1]) != "charset" {
				continue
			}
			v := m[2]
			if v[0] == '"' {
				v = ctQesc.ReplaceAllString(v[1:len(v)-1], "$1")
			}
			charset = v
		}
	}
	return strings.ToLower(charset)
}

// bodyStatus is the status of a readBody error.
func bodyStatus(err error) int {
	var be *bodyError
	if errors.As(err, &be) {
		return be.status
	}
	return http.StatusBadRequest
}
