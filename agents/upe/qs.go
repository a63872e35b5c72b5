package upe

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file parses a form-encoded body as qs 6.2.0 does with the options
// body-parser 1.15.2's extended parser gives it (allowPrototypes, depth
// unlimited, arrayLimit max(100, number of '&'), delimiter '&' only).
// JavaScript values map to Go as: string, true (bool), array ([]any, nil
// for a hole while parsing) and object (map[string]any). A key
// "__proto__" is dropped wherever qs assigns it, since assigning it in
// JavaScript changes no own property.
//
// What the original made of a key that matters (move, devkey, playerID):
//   - repeated keys make an array (move=b&move=op: not a string);
//   - only '&' separates pairs (move=b;x=1 is the string "b;x=1");
//   - '+' is a space, and a part whose percent escapes do not decode
//     (bad hex, invalid UTF-8) is kept as it is (move=b%zz is "b%zz",
//     its '+' kept too);
//   - brackets nest (move[a]=b is an object, move[]=b an array), but
//     text outside bracket pairs is dropped (move[=b and [move]=b set
//     move to "b").

// qsChild matches one bracket segment of a key.
var qsChild = regexp.MustCompile(`\[[^\[\]]*\]`)

// parseQS parses text (a decoded, non-empty form body) as qs.parse.
func parseQS(text string) map[string]any {
	arrayLimit := uint64(max(100, strings.Count(text, "&")))
	// parseValues: the pairs, in JavaScript's own-property order.
	vals := map[string]any{}
	var order []string
	for _, part := range strings.Split(text, "&") {
		pos := strings.Index(part, "]=")
		if pos == -1 {
			pos = strings.Index(part, "=")
		} else {
			pos++
		}
		var key string
		var val any
		if pos == -1 {
			key, val = qsDecode(part), ""
		} else {
			key, val = qsDecode(part[:pos]), qsDecode(part[pos+1:])
		}
		if key == "__proto__" {
			continue
		}
		old, seen := vals[key]
		switch {
		case !seen:
			order = append(order, key)
			vals[key] = val
		case pos == -1:
			vals[key] = val
		default:
			vals[key] = append(qsConcat(nil, old), val)
		}
	}
	order = jsKeyOrder(order)
	var obj any = map[string]any{}
	for _, key := range order {
		if key == "" {
			continue
		}
		obj = qsMerge(obj, qsParseKey(key, vals[key], arrayLimit))
	}
	return qsCompact(obj).(map[string]any)
}

// qsDecode is qs's decoder: '+' is a space, then decodeURIComponent; the
// part as it was if that throws (a bad escape or invalid UTF-8).
func qsDecode(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	t := strings.ReplaceAll(s, "+", " ")
	if !strings.Contains(t, "%") {
		return t
	}
	b := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if t[i] != '%' {
			b = append(b, t[i])
			continue
		}
		if i+2 >= len(t) || !isHex(t[i+1]) || !isHex(t[i+2]) {
			return s
		}
		b = append(b, unhex(t[i+1])<<4|unhex(t[i+2]))
		i += 2
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// maxArrayIndex is JavaScript's largest array index.
const maxArrayIndex = 1<<32 - 2

// jsKeyOrder orders keys as JavaScript orders an object's own properties:
// array indices first, ascending, then the others as inserted.
func jsKeyOrder(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if _, ok := arrayIndex(k, maxArrayIndex); ok {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	for i := 1; i < len(idx); i++ { // few keys: insertion sort
		for j := i; j > 0; j-- {
			a, _ := arrayIndex(idx[j-1], maxArrayIndex)
			b, _ := arrayIndex(idx[j], maxArrayIndex)
			if a <= b {
				break
			}
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	return append(idx, rest...)
}

// arrayIndex reports whether s is a canonical decimal integer from 0 to
// limit, and its value.
func arrayIndex(s string, limit uint64) (uint64, bool) {
	if s == "" || len(s) > 10 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil && n <= limit
}

// qsParseKey is qs's parseKeys: the key split into its parent and its
// bracket segments (anything else dropped), then the nested value.
func qsParseKey(key string, val any, arrayLimit uint64) any {
	var chain []string
	parent := key
	if i := strings.IndexAny(key, "[]"); i >= 0 {
		parent = key[:i]
	}
	if parent != "" {
		chain = append(chain, parent)
	}
	chain = append(chain, qsChild.FindAllString(key, -1)...)
	return qsParseObject(chain, val, arrayLimit)
}

// qsParseObject builds the value of a key chain.
func qsParseObject(chain []string, val any, arrayLimit uint64) any {
	if len(chain) == 0 {
		return val
	}
	root, rest := chain[0], chain[1:]
	if root == "[]" {
		return qsConcat(nil, qsParseObject(rest, val, arrayLimit))
	}
	clean := root
	if len(root) >= 2 && root[0] == '[' && root[len(root)-1] == ']' {
		clean = root[1 : len(root)-1]
	}
	if i, ok := arrayIndex(clean, arrayLimit); ok && root != clean {
		arr := make([]any, int(i)+1)
		arr[i] = qsParseObject(rest, val, arrayLimit)
		return arr
	}
	obj := map[string]any{}
	if clean != "__proto__" {
		obj[clean] = qsParseObject(rest, val, arrayLimit)
	}
	return obj
}

// qsConcat appends v to a as [].concat does: an array's elements, or v.
func qsConcat(a []any, v any) []any {
	if arr, ok := v.([]any); ok {
		return append(a, arr...)
	}
	return append(a, v)
}

// qsMerge is qs's utils.merge: source merged into target, returned.
func qsMerge(target, source any) any {
	switch s := source.(type) {
	case nil:
		return target
	case string:
		if s == "" {
			return target
		}
	}
	switch source.(type) {
	case string, bool:
		switch t := target.(type) {
		case []any:
			return append(t, source)
		case map[string]any:
			if k := jsString(source); k != "__proto__" {
				t[k] = true
			}
			return t
		}
		return []any{target, source}
	}
	switch target.(type) {
	case string, bool:
		return qsConcat([]any{target}, source)
	}
	if t, ok := target.([]any); ok {
		if s, ok := source.([]any); ok {
			for i, v := range s {
				if v == nil {
					continue
				}
				for len(t) <= i {
					t = append(t, nil)
				}
				if t[i] != nil {
					t[i] = qsMerge(t[i], v)
				} else {
					t[i] = v
				}
			}
			return t
		}
		obj := map[string]any{}
		for i, v := range t {
			if v != nil {
				obj[strconv.Itoa(i)] = v
			}
		}
		target = obj
	}
	acc := target.(map[string]any)
	set := func(k string, v any) {
		if old, ok := acc[k]; ok {
			acc[k] = qsMerge(old, v)
		} else if k != "__proto__" {
			acc[k] = v
		}
	}
	switch s := source.(type) {
	case []any:
		for i, v := range s {
			if v != nil {
				set(strconv.Itoa(i), v)
			}
		}
	case map[string]any:
		for k, v := range s {
			set(k, v)
		}
	}
	return acc
}

// jsString is String(v) of a string or true.
func jsString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return "true"
}

// qsCompact drops the holes of arrays, at every depth.
func qsCompact(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			if e != nil {
				out = append(out, qsCompact(e))
			}
		}
		return out
	case map[string]any:
		for k, e := range t {
			t[k] = qsCompact(e)
		}
	}
	return v
}
