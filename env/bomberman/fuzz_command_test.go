package bomberman

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzParseCommand feeds arbitrary move.txt contents: the action is always
// in range and the same for every seat, malformed text is DoNothing, a
// plain UTF-8 file is read by its first character as Char.IsNumber reads
// it, and an accepted command's canonical form reads back as the same
// action.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		"", "0", "1", "2", "3", "4", "5", "6", "7", "9", "10", "3\r\n", "-1", " 1", "a",
		"\xef\xbb\xbf4", "\xff\xfe5\x00", "\xfe\xff\x006", "\xff\xfe\x00\x002\x00\x00\x00",
		"\x00\x00\xfe\xff\x00\x00\x002", "1\x00", "\xff1", "٣", "４", "²", "⑤", "Ⅵ", "½", "𝟑",
	} {
		f.Add([]byte(s))
	}
	g, err := New(&Config{Players: 4})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		a, ok := g.ParseCommand(0, text)
		if a < 0 || a >= NumActions {
			t.Fatalf("%q: action %d out of range", text, a)
		}
		if !ok && a != int32(DoNothing) {
			t.Fatalf("malformed %q gave action %d", text, a)
		}
		for seat := 1; seat < 4; seat++ {
			if b, okb := g.ParseCommand(seat, text); b != a || okb != ok {
				t.Fatalf("%q: seat 0 reads %d, %v; seat %d reads %d, %v", text, a, ok, seat, b, okb)
			}
		}
		// Without a byte-order mark the file is UTF-8, read by its first
		// UTF-16 code unit: a character outside the BMP is a surrogate,
		// which is no number.
		if len(text) > 0 && text[0] != 0xef && text[0] != 0xfe && text[0] != 0xff && text[0] != 0 {
			if r, _ := utf8.DecodeRune(text); r != utf8.RuneError {
				if want := r <= 0xffff && unicode.IsNumber(r); ok != want {
					t.Fatalf("%q starts with %q: ok %v, want %v", text, r, ok, want)
				}
				if '0' <= r && r <= '9' {
					want := int32(DoNothing)
					if d := int32(r - '0'); d >= int32(MoveUp) && d <= int32(TriggerBomb) {
						want = d
					}
					if a != want {
						t.Fatalf("%q: action %d, want %d", text, a, want)
					}
				}
			}
		}
		if ok {
			canon := g.AppendCommand(nil, 0, a)
			if b, okb := g.ParseCommand(0, canon); b != a || !okb {
				t.Fatalf("%q → %d → %q → %d, %v", text, a, canon, b, okb)
			}
		}
	})
}
