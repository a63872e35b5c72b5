package battlecube

import (
	"math"
	"math/big"
	"strconv"
	"unicode"
	"unicode/utf16"

	"github.com/botarena/botarena/internal/utf8sub"
)

// This file reads a bot's reply as the original server does (spec §5): the
// body decoded as UTF-8 and parsed by JSON.parse (node-fetch 1.x's
// res.json()), validated by the Joi 11.1.1 schema of validators.ts with
// Joi's default conversions, and element k carried out by game.ts's
// applyBotDirections. Strings are kept as UTF-16 code units, as JavaScript
// holds them, so that lone surrogates and the direction's code units come
// out as in the original.

// jsKind is the type of a parsed JSON value.
type jsKind uint8

const (
	jsNull jsKind = iota
	jsBool
	jsNumber
	jsString
	jsArray
	jsObject
)

// jsVal is a value as JSON.parse makes it. Object keys keep their first
// position; a repeated key takes the last value, as JSON.parse does.
type jsVal struct {
	kind  jsKind
	num   float64
	str   []uint16 // jsString
	elems []jsVal  // jsArray
	keys  [][]uint16
	vals  []jsVal // jsObject, parallel to keys
}

// get returns the value of key in an object.
func (v *jsVal) get(key string) (jsVal, bool) {
	for i, k := range v.keys {
		if unitsEqual(k, key) {
			return v.vals[i], true
		}
	}
	return jsVal{}, false
}

// unitsEqual reports whether the code units u spell the ASCII string s.
func unitsEqual(u []uint16, s string) bool {
	if len(u) != len(s) {
		return false
	}
	for i := range u {
		if u[i] != uint16(s[i]) {
			return false
		}
	}
	return true
}

// decodeUTF8 decodes b to UTF-16 code units as Node's Buffer.toString does
// (the WHATWG decoder): each maximal invalid subsequence becomes one
// U+FFFD ([utf8sub.DecodeRune]); a byte-order mark is kept (and JSON.parse
// then fails on it).
func decodeUTF8(b []byte) []uint16 {
	out := make([]uint16, 0, len(b))
	for len(b) > 0 {
		r, n := utf8sub.DecodeRune(b)
		out = utf16.AppendRune(out, r)
		b = b[n:]
	}
	return out
}

// maxJSONDepth bounds the nesting JSON.parse is asked to follow; deeper
// text fails as the original's recursive JSON.parse runs out of stack (a
// RangeError that node-fetch reports as a failed request).
const maxJSONDepth = 10000

// jsonParser is JSON.parse over UTF-16 code units.
type jsonParser struct {
	s     []uint16
	i     int
	depth int
}

// jsonParse parses s as JSON.parse does: one value, JSON whitespace only
// (space, tab, LF, CR) around it.
func jsonParse(s []uint16) (jsVal, bool) {
	p := jsonParser{s: s}
	p.ws()
	v, ok := p.value()
	if !ok {
		return jsVal{}, false
	}
	p.ws()
	return v, p.i == len(p.s)
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) literal(word string) bool {
	if len(p.s)-p.i < len(word) || !unitsEqual(p.s[p.i:p.i+len(word)], word) {
		return false
	}
	p.i += len(word)
	return true
}

func (p *jsonParser) value() (jsVal, bool) {
	if p.i >= len(p.s) {
		return jsVal{}, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.string()
		return jsVal{kind: jsString, str: s}, ok
	case c == 't':
		return jsVal{kind: jsBool, num: 1}, p.literal("true")
	case c == 'f':
		return jsVal{kind: jsBool}, p.literal("false")
	case c == 'n':
		return jsVal{kind: jsNull}, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return jsVal{}, false
}

func (p *jsonParser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

func (p *jsonParser) number() (jsVal, bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return jsVal{}, false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return jsVal{}, false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return jsVal{}, false
		}
	}
	return jsVal{kind: jsNumber, num: parseDecimal(p.s[start:p.i])}, true
}

// parseDecimal converts a syntactically valid decimal literal (ASCII code
// units) to the nearest double, ±Inf on overflow, as JavaScript does.
func parseDecimal(u []uint16) float64 {
	b := make([]byte, len(u))
	for i, c := range u {
		b[i] = byte(c)
	}
	f, _ := strconv.ParseFloat(string(b), 64) // ±Inf with ErrRange on overflow
	return f
}

func (p *jsonParser) string() ([]uint16, bool) {
	p.i++ // "
	var out []uint16
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			if out == nil {
				out = []uint16{}
			}
			return out, true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			continue
		}
		if p.i >= len(p.s) {
			return nil, false
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if len(p.s)-p.i < 4 {
				return nil, false
			}
			var u uint16
			for _, h := range p.s[p.i : p.i+4] {
				switch {
				case h >= '0' && h <= '9':
					u = u<<4 | (h - '0')
				case h >= 'a' && h <= 'f':
					u = u<<4 | (h - 'a' + 10)
				case h >= 'A' && h <= 'F':
					u = u<<4 | (h - 'A' + 10)
				default:
					return nil, false
				}
			}
			p.i += 4
			out = append(out, u)
		default:
			return nil, false
		}
	}
	return nil, false
}

func (p *jsonParser) array() (jsVal, bool) {
	v := jsVal{kind: jsArray, elems: []jsVal{}}
	ok := p.members(']', func() bool {
		el, ok := p.value()
		v.elems = append(v.elems, el)
		return ok
	})
	return v, ok
}

func (p *jsonParser) object() (jsVal, bool) {
	v := jsVal{kind: jsObject}
	ok := p.members('}', func() bool {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		k, ok := p.string()
		if !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.ws()
		el, ok := p.value()
		v.set(k, el)
		return ok
	})
	return v, ok
}

// members parses the comma-separated members of the array or object whose
// opening bracket is at p.i, up to and including its closing bracket end.
// member parses one member (an element; a key, a colon and a value) from
// its first character, white space skipped, and reports whether it is
// well-formed. Nesting deeper than maxJSONDepth fails.
func (p *jsonParser) members(end uint16, member func() bool) bool {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxJSONDepth {
		return false
	}
	p.i++ // [ or {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == end {
		p.i++
		return true
	}
	for {
		p.ws()
		if !member() {
			return false
		}
		p.ws()
		if p.i >= len(p.s) {
			return false
		}
		c := p.s[p.i]
		p.i++
		if c == end {
			return true
		}
		if c != ',' {
			return false
		}
	}
}

// set defines key: a new key goes last, a repeated one keeps its place and
// takes the new value (JSON.parse's CreateDataProperty).
func (v *jsVal) set(key []uint16, el jsVal) {
	for i, k := range v.keys {
		if equalUnits(k, key) {
			v.vals[i] = el
			return
		}
	}
	v.keys = append(v.keys, key)
	v.vals = append(v.vals, el)
}

func equalUnits(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// task is one element of a reply after the Joi validation, with what
// applyBotDirections reads of it: task, and direction, x, y, z as looked up
// on the validated object (undefined when absent).
type task struct {
	name             []uint16
	dir              jsVal
	hasDir           bool
	coord            [3]jsVal
	hasCoord         [3]bool
	bombSchema       bool // the bomb schema matched: coord holds its numbers
	noopSchema, move bool
}

// joiTasks validates v as botDirectionsSchema (Joi.array().items(bomb,
// noop, move)) with Joi 11's conversions: a string that JSON.parse turns
// into an array is that array, and a string element that JSON.parse turns
// into an object is that object.
func joiTasks(v jsVal) ([]task, bool) {
	if v.kind == jsString {
		if a, ok := jsonParse(v.str); ok && a.kind == jsArray {
			v = a
		}
	}
	if v.kind != jsArray {
		return nil, false
	}
	tasks := make([]task, len(v.elems))
	for i, el := range v.elems {
		t, ok := joiTask(el)
		if !ok {
			return nil, false
		}
		tasks[i] = t
	}
	return tasks, true
}

// joiTask validates one element against the three object schemas in
// order. A "__proto__" key is never an unknown key: Joi lists the keys to
// check in an object by assigning them, and assigning "__proto__" sets a
// prototype instead. Joi copies an object element the same way, so there
// a "__proto__" holding an object becomes the copy's prototype and the
// keys it holds are read through it; an element sent as a JSON string is
// parsed and used as it is, and its "__proto__" lends nothing.
func joiTask(el jsVal) (task, bool) {
	fromString := false
	if el.kind == jsString {
		o, ok := jsonParse(el.str)
		if !ok {
			return task{}, false
		}
		el, fromString = o, true
	}
	if el.kind != jsObject {
		return task{}, false
	}
	var proto jsVal
	own := func(k []uint16) bool { return !unitsEqual(k, "__proto__") }
	if !fromString {
		if p, ok := el.get("__proto__"); ok && p.kind == jsObject {
			proto = p
		}
	}
	lookup := func(key string) (jsVal, bool) {
		for i, k := range el.keys {
			if own(k) && unitsEqual(k, key) {
				return el.vals[i], true
			}
		}
		return proto.get(key)
	}
	onlyKeys := func(allowed ...string) bool {
		for _, k := range el.keys {
			if !own(k) {
				continue
			}
			found := false
			for _, a := range allowed {
				if unitsEqual(k, a) {
					found = true
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	name, ok := lookup("task")
	if !ok || name.kind != jsString || len(name.str) == 0 {
		return task{}, false // Joi.string() rejects '' and non-strings
	}
	t := task{name: name.str}
	t.dir, t.hasDir = lookup("direction")
	for c, key := range [3]string{"x", "y", "z"} {
		t.coord[c], t.hasCoord[c] = lookup(key)
	}
	if onlyKeys("task", "x", "y", "z") && t.hasCoord[0] && t.hasCoord[1] && t.hasCoord[2] {
		var nums [3]float64
		valid := true
		for c := range 3 {
			nums[c], ok = joiCoordinate(t.coord[c])
			valid = valid && ok
		}
		if valid {
			t.bombSchema = true
			for c := range 3 {
				t.coord[c] = jsVal{kind: jsNumber, num: nums[c]}
			}
			return t, true
		}
	}
	if onlyKeys("task") {
		t.noopSchema = true
		return t, true
	}
	if onlyKeys("task", "direction") && t.hasDir && t.dir.kind == jsString && len(t.dir.str) > 0 {
		t.move = true
		return t, true
	}
	return task{}, false
}

// joiCoordinate validates v as Joi.number().min(0).integer() with
// conversion: a number, or a string converted as Joi 11 does (parseFloat
// of it, when Number() of it is finite), then ≥ 0 and a safe integer.
func joiCoordinate(v jsVal) (float64, bool) {
	var f float64
	switch v.kind {
	case jsNumber:
		f = v.num
	case jsString:
		var ok bool
		if f, ok = joiStringNumber(v.str); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	if math.IsInf(f, 0) || f < 0 || f != math.Trunc(f) || f > 1<<53-1 {
		return 0, false // Infinity is invalid; min(0); Number.isSafeInteger
	}
	return f, true
}

// joiStringNumber converts s as Joi 11's number type does: parseFloat(s),
// or NaN when Number(s) is not finite. Both ignore JavaScript whitespace
// around the number (U+FEFF and the Zs spaces included, U+0085 not); a
// hexadecimal, binary or octal literal ("0x3", "0b11", "0o7") is a finite
// Number but parseFloat reads only its leading "0", so it converts to 0.
func joiStringNumber(s []uint16) (float64, bool) {
	t := trimJSSpace(s)
	if len(t) == 0 {
		return 0, false // parseFloat("") is NaN
	}
	if isDecimalLiteral(t) {
		f := parseDecimal(t)
		return f, !math.IsInf(f, 0)
	}
	if len(t) > 2 && t[0] == '0' {
		base := 0
		switch t[1] {
		case 'x', 'X':
			base = 16
		case 'b', 'B':
			base = 2
		case 'o', 'O':
			base = 8
		}
		if base != 0 {
			digits := make([]byte, len(t)-2)
			for i, c := range t[2:] {
				if c > 0x7F {
					return 0, false
				}
				digits[i] = byte(c)
			}
			n, ok := new(big.Int).SetString(string(digits), base)
			if !ok {
				return 0, false
			}
			if f, _ := new(big.Float).SetInt(n).Float64(); math.IsInf(f, 0) {
				return 0, false // Number(s) is Infinity
			}
			return 0, true // parseFloat stops after the "0"
		}
	}
	return 0, false
}

// isDecimalLiteral reports whether t is a StrDecimalLiteral of
// ECMAScript: an optional sign, then Infinity or digits with an optional
// fraction and exponent (ASCII digits only, no separators).
func isDecimalLiteral(t []uint16) bool {
	i := 0
	if t[0] == '+' || t[0] == '-' {
		i++
	}
	if unitsEqual(t[i:], "Infinity") {
		return true
	}
	digits := func() int {
		n := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			n++
		}
		return n
	}
	n := digits()
	if i < len(t) && t[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}

// trimJSSpace trims ECMAScript WhiteSpace and LineTerminator code units.
func trimJSSpace(s []uint16) []uint16 {
	for len(s) > 0 && isJSSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isJSSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isJSSpace(c uint16) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, rune(c))
}

// taskAction returns the action for what applyBotDirections does with t
// (game.ts): MOVE reads direction.toLowerCase().split(”), any other value
// than a string throws a TypeError; BOMB places a bomb on (x, y, z) as
// given; NOOP emits PLAYER_DID_NOTHING; any other task does nothing.
func taskAction(t task, edge int) (Action, bool) {
	switch {
	case unitsEqual(t.name, "MOVE"):
		if !t.hasDir || t.dir.kind != jsString {
			return CrashMove, false
		}
		return parseDirection(t.dir.str)
	case unitsEqual(t.name, "BOMB"):
		if !t.hasCoord[0] && !t.hasCoord[1] && !t.hasCoord[2] {
			return BombNowhere, false
		}
		var xyz [3]int
		for c := range 3 {
			v := t.coord[c]
			if !t.hasCoord[c] || v.kind != jsNumber || v.num != math.Trunc(v.num) || v.num < 0 || v.num >= float64(edge) {
				return Noop, false // not a cell of the cube (decision 6)
			}
			xyz[c] = int(v.num)
		}
		return BombAction(edge, xyz[0], xyz[1], xyz[2]), true
	case unitsEqual(t.name, "NOOP"):
		return Noop, true
	}
	return Idle, false
}

// parseDirection reads a direction as moveBot does: lower-cased, split
// into UTF-16 code units, the first the sign ('+' adds, anything else
// subtracts) and the second the property changed. An axis other than x, y
// or z adds that property (NaN) to the bot's position: [StrayMove].
func parseDirection(d []uint16) (Action, bool) {
	op, axis := lowerFirstTwo(d)
	var a Action
	switch axis {
	case 'x':
		a = MovePlusX
	case 'y':
		a = MovePlusY
	case 'z':
		a = MovePlusZ
	default:
		return StrayMove(axis), false
	}
	if op != '+' {
		a++
	}
	return a, true
}

// lowerFirstTwo returns the first two code units of String.prototype.
// toLowerCase of d (NoAxis for a missing second one): full case mapping
// by code point, U+0130 to "i̇" and Σ to ς at the end of a word.
func lowerFirstTwo(d []uint16) (op, axis int) {
	runes := utf16.Decode(d) // lone surrogates become U+FFFD; keep them apart below
	var out []int
	for i := 0; i < len(d) && len(out) < 2; {
		u := d[i]
		var r rune
		n := 1
		switch {
		case utf16.IsSurrogate(rune(u)) && u < 0xDC00 && i+1 < len(d) && d[i+1] >= 0xDC00 && d[i+1] <= 0xDFFF:
			r, n = utf16.DecodeRune(rune(u), rune(d[i+1])), 2
		case utf16.IsSurrogate(rune(u)):
			out = append(out, int(u))
			i++
			continue
		default:
			r = rune(u)
		}
		switch r {
		case 0x130:
			out = append(out, 'i', 0x307)
		case 0x3A3:
			out = append(out, int(finalSigma(runes, runeIndex(d, i))))
		default:
			for _, c := range utf16.AppendRune(nil, unicode.ToLower(r)) {
				out = append(out, int(c))
			}
		}
		i += n
	}
	op, axis = NoAxis, NoAxis // "".split('') has neither
	if len(out) > 0 {
		op = out[0]
	}
	if len(out) > 1 {
		axis = out[1]
	}
	return op, axis
}

// runeIndex returns the index in utf16.Decode(d) of the code point that
// starts at code unit i.
func runeIndex(d []uint16, i int) int {
	k := 0
	for j := 0; j < i; k++ {
		if utf16.IsSurrogate(rune(d[j])) && d[j] < 0xDC00 && j+1 < len(d) && d[j+1] >= 0xDC00 && d[j+1] <= 0xDFFF {
			j += 2
		} else {
			j++
		}
	}
	return k
}

// finalSigma lowers the Σ at runes[i]: ς when a cased letter precedes it
// and none follows it (case-ignorable characters skipped), else σ.
func finalSigma(runes []rune, i int) rune {
	before := false
	for j := i - 1; j >= 0; j-- {
		if !caseIgnorable(runes[j]) {
			before = cased(runes[j])
			break
		}
	}
	after := false
	for j := i + 1; j < len(runes); j++ {
		if !caseIgnorable(runes[j]) {
			after = cased(runes[j])
			break
		}
	}
	if before && !after {
		return 0x3C2
	}
	return 0x3C3
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
