// Package utf8sub decodes UTF-8 the way the originals' runtimes do when
// they meet ill-formed bytes: each maximal subpart of an ill-formed
// sequence becomes one U+FFFD (Unicode §3.9, "U+FFFD Substitution of
// Maximal Subparts"), as the WHATWG decoder (Node's Buffer.toString) and
// .NET's UTF8Encoding do. Go's utf8.DecodeRune reads one byte at a time
// instead. Standard library only.
package utf8sub

import "unicode/utf8"

// DecodeRune is [utf8.DecodeRune] with maximal-subpart substitution: for a
// well-formed sequence at the start of p it returns its rune and length;
// for an ill-formed one, [utf8.RuneError] and the length of its maximal
// subpart: the first byte and the bytes after it that could still continue
// a well-formed sequence (so that a sequence cut short, by the end of p or
// by another byte, reads as one U+FFFD, and a byte that cannot start one
// as one U+FFFD each). An empty p gives (RuneError, 0). A well-formed
// U+FFFD in p reads as itself, with length 3.
func DecodeRune(p []byte) (r rune, size int) {
	r, size = utf8.DecodeRune(p)
	if r != utf8.RuneError || size != 1 {
		return r, size
	}
	// The continuation bytes a lead byte takes (Unicode Table 3-7): the
	// second byte's range is narrower after E0, ED, F0 and F4, which rules
	// out overlong forms, surrogates and code points above U+10FFFF.
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch b := p[0]; {
	case b >= 0xC2 && b <= 0xDF:
		need = 1
	case b >= 0xE0 && b <= 0xEF:
		need = 2
	case b >= 0xF0 && b <= 0xF4:
		need = 3
	}
	switch p[0] {
	case 0xE0:
		lo = 0xA0
	case 0xED:
		hi = 0x9F
	case 0xF0:
		lo = 0x90
	case 0xF4:
		hi = 0x8F
	}
	n := 1
	for ; n <= need && n < len(p) && p[n] >= lo && p[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return utf8.RuneError, n
}
