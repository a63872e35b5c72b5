package utf8sub_test

import (
	"testing"
	"unicode/utf8"

	"github.com/botarena/botarena/internal/utf8sub"
)

// decodeAll decodes p with DecodeRune into a string, one rune per call.
func decodeAll(p []byte) string {
	var out []byte
	for len(p) > 0 {
		r, n := utf8sub.DecodeRune(p)
		out = utf8.AppendRune(out, r)
		p = p[n:]
	}
	return string(out)
}

// TestOneReplacementPerMaximalSubpart: the examples of Unicode §3.9 and
// the WHATWG decoder: a sequence cut short is one U+FFFD, a byte that
// cannot start or continue a sequence one each.
func TestOneReplacementPerMaximalSubpart(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"ascii", "1,3,4\r\n", "1,3,4\r\n"},
		{"well_formed", "é€\U0001F600", "é€\U0001F600"},
		{"byte_order_mark_kept", "\xef\xbb\xbfA", "\ufeffA"},
		{"replacement_char_kept", "\xef\xbf\xbd", "\ufffd"},
		{"truncated_sequence", "\xe2\x82A", "\ufffdA"},
		{"truncated_four_bytes", "\xf0\x9f\x98A", "\ufffdA"},
		{"cut_at_the_end", "1,\xf0\x9f\x98", "1,\ufffd"},
		{"lone_continuation", "\x80\xbfA", "\ufffd\ufffdA"},
		{"overlong_two_bytes", "\xc0\xaf", "\ufffd\ufffd"},
		{"overlong_three_bytes", "\xe0\x80\xaf", "\ufffd\ufffd\ufffd"},
		{"surrogate", "\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
		{"above_10ffff", "\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"no_lead_byte_f5", "\xf5\x80", "\ufffd\ufffd"},
		{"unicode_table_3_8", "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", "a\ufffd\ufffd\ufffdb\ufffdc\ufffd\ufffdd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeAll([]byte(tc.in)); got != tc.want {
				t.Errorf("decoding %q = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzDecodeRuneAgreesOnWellFormedText: where utf8.DecodeRune reads a
// well-formed sequence DecodeRune reads the same; elsewhere it reads one
// to four bytes.
func FuzzDecodeRuneAgreesOnWellFormedText(f *testing.F) {
	f.Add([]byte("a\xf1\x80\x80\xe1\x80\xc2b\x80c\x80\xbfd"))
	f.Add([]byte("é€\U0001F600"))
	f.Fuzz(func(t *testing.T, p []byte) {
		for len(p) > 0 {
			r, n := utf8sub.DecodeRune(p)
			wr, wn := utf8.DecodeRune(p)
			if n < 1 || n > 4 || (wr != utf8.RuneError || wn != 1) && (r != wr || n != wn) {
				t.Fatalf("DecodeRune(%q) = %U, %d; utf8.DecodeRune %U, %d", p, r, n, wr, wn)
			}
			p = p[n:]
		}
	})
}
