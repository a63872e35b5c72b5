package bomberman

import (
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// The native formats of the original, canonical first.
const (
	FormatStateJSON = "state.json"
	FormatMapTxt    = "map.txt"
	FormatRoundInfo = "roundInfo.json"
)

var nativeFormats = []string{FormatStateJSON, FormatMapTxt, FormatRoundInfo}

// NativeFormats returns the original's file formats: "state.json" (the
// canonical one, which LoadNative reads), "map.txt" and "roundInfo.json".
// The returned slice is shared and must not be modified.
func (g *Game) NativeFormats() []string { return nativeFormats }

// AppendNative appends the state in the named format to dst, exactly as
// the original engine writes it (spec §8): "state.json" (minified
// Newtonsoft.Json), "map.txt" (LF line endings, CRLF with
// [Config.MapCRLF]) or "roundInfo.json". Every seat sees the same files,
// and seat -1 (the referee) too: power-ups under entities, the game's only
// hidden information, are never written. A seat outside -1..Players()-1 or
// an unknown format is an error. Not safe for concurrent use with Step.
func (g *Game) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if seat < -1 || seat >= g.nPlayers {
		return dst, fmt.Errorf("bomberman: AppendNative: seat %d out of range -1–%d", seat, g.nPlayers-1)
	}
	switch format {
	case FormatStateJSON:
		return g.appendStateJSON(dst), nil
	case FormatMapTxt:
		return g.appendMapTxt(dst), nil
	case FormatRoundInfo:
		return g.appendRoundInfo(dst), nil
	}
	return dst, fmt.Errorf("bomberman: AppendNative: unknown format %q (want %q, %q or %q)",
		format, FormatStateJSON, FormatMapTxt, FormatRoundInfo)
}

// ParseCommand reads the contents of move.txt as the original harness
// does (spec §5.1): it decodes the text like .NET's File.ReadAllText (a
// UTF-8, UTF-16 or UTF-32 byte-order mark selects the encoding and is
// skipped; no whitespace is trimmed) and looks only at the first character.
// If that is a numeric character its numeric value is the code: 1–6 are
// the actions MoveUp..TriggerBomb, any other value (0, 7, 8, 9, ...) is
// DoNothing with ok true. Anything else, or empty text, is DoNothing with
// ok false. So "10" is MoveUp and "-1" or " 1" is DoNothing. The seat does
// not matter.
//
// The harness's test is Char.IsNumber(code) ? (int)Char.GetNumericValue(code)
// : 0 (BotRunner.GetBotCommandFromFile), so every Unicode numeral counts
// (categories Nd, Nl and No): decimal digits of any script by their digit
// value ('٣' is 3), the other numerals by their numeric value truncated
// toward zero ('²', '③', 'Ⅵ', the Khmer lek attak '៳' is 3, '½' is 0).
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	r, ok := firstUTF16(text)
	if !ok || !unicode.IsNumber(r) {
		return int32(DoNothing), false
	}
	v := numericValue(r)
	if v >= int(MoveUp) && v <= int(TriggerBomb) {
		return int32(v), true
	}
	return int32(DoNothing), true
}

// AppendCommand appends action's move.txt code to dst: one digit, "0" for
// DoNothing and for any action outside the action space.
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	if action < 0 || action >= NumActions {
		action = int32(DoNothing)
	}
	return append(dst, byte('0'+action))
}

// firstUTF16 returns the first UTF-16 code unit of text decoded as
// File.ReadAllText decodes it, as a rune (a surrogate half stays a
// surrogate, which is no number). ok is false for empty text.
func firstUTF16(text []byte) (rune, bool) {
	switch {
	case len(text) >= 4 && text[0] == 0xff && text[1] == 0xfe && text[2] == 0 && text[3] == 0: // UTF-32LE
		return firstUTF32(text[4:], binary.LittleEndian)
	case len(text) >= 4 && text[0] == 0 && text[1] == 0 && text[2] == 0xfe && text[3] == 0xff: // UTF-32BE
		return firstUTF32(text[4:], binary.BigEndian)
	case len(text) >= 2 && text[0] == 0xff && text[1] == 0xfe: // UTF-16LE
		if len(text) < 4 {
			return utf8.RuneError, len(text) > 2
		}
		return rune(binary.LittleEndian.Uint16(text[2:])), true
	case len(text) >= 2 && text[0] == 0xfe && text[1] == 0xff: // UTF-16BE
		if len(text) < 4 {
			return utf8.RuneError, len(text) > 2
		}
		return rune(binary.BigEndian.Uint16(text[2:])), true
	case len(text) >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf: // UTF-8 BOM
		text = text[3:]
	}
	if len(text) == 0 {
		return 0, false
	}
	r, _ := utf8.DecodeRune(text)
	if r > 0xffff {
		return 0xd800, true // the high surrogate: not a number
	}
	return r, true
}

// firstUTF32 is firstUTF16 for UTF-32 text after its byte-order mark.
func firstUTF32(text []byte, order binary.ByteOrder) (rune, bool) {
	if len(text) == 0 {
		return 0, false
	}
	if len(text) < 4 {
		return utf8.RuneError, true
	}
	r := rune(order.Uint32(text))
	if r > 0xffff {
		return 0xd800, true
	}
	return r, true
}

// numericValue returns the integer part of r's Unicode numeric value, as
// .NET's (int)Char.GetNumericValue does, for decimal digits of every script
// and for the non-decimal numerals in numerals; -1 for others.
func numericValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if unicode.Is(unicode.Nd, r) {
		// Unicode encodes every decimal digit set as a run 0..9; the
		// tables' ranges are whole runs.
		for _, rg := range unicode.Nd.R16 {
			if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
				return int(r-rune(rg.Lo)) % 10
			}
		}
		return -1 // only BMP characters reach here
	}
	for _, n := range numerals {
		if r >= n.lo && r < n.lo+rune(len(n.values)) {
			return int(n.values[r-n.lo])
		}
	}
	return -1
}

// numerals lists BMP non-decimal numerals (categories Nl and No) by their
// truncated numeric values, as runs from lo: every one whose value
// truncates to 1–6 (TestParseCommandUnicodeNumerals checks all 735 BMP
// numerals against the Unicode Character Database). Other values read as
// DoNothing either way.
var numerals = []struct {
	lo     rune
	values []int8
}{
	{0x00b2, []int8{2, 3}},                   // ² ³
	{0x00b9, []int8{1}},                      // ¹
	{0x0c78, []int8{0, 1, 2, 3, 1, 2, 3}},    // Telugu fraction digits
	{0x0f2a, []int8{0, 1, 2, 3, 4, 5, 6, 7}}, // Tibetan half numbers ½, 1½, ...
	{0x1369, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}},
	{0x17f0, []int8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, // Khmer lek attak
	{0x19da, []int8{1}},                            // New Tai Lue tham digit one
	{0x2070, []int8{0}},
	{0x2074, []int8{4, 5, 6, 7, 8, 9}},
	{0x2080, []int8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
	{0x215f, []int8{1}},                         // ⅟ fraction numerator one
	{0x2160, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // Ⅰ..Ⅸ
	{0x2185, []int8{6}},                         // ↅ Roman six late form
	{0x2170, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ⅰ..ⅸ
	{0x2460, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ①..⑨
	{0x2474, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ⑴..⑼
	{0x2488, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ⒈..⒐
	{0x24f5, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ⓵..⓽
	{0x2776, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ❶..❾
	{0x2780, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ➀..➈
	{0x278a, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ➊..➒
	{0x3021, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // Hangzhou numerals
	{0x3192, []int8{1, 2, 3, 4}},                // ㆒..㆕ ideographic annotation marks
	{0x3220, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ㈠..㈨
	{0x3280, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // ㊀..㊈
	{0xa6e6, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}}, // Bamum numerals
}
