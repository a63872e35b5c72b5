package battleships

import (
	"bytes"
	"fmt"
	"strconv"
)

// The native formats, canonical first.
const (
	FormatStateJSON = "state.json"
	FormatMapTxt    = "map.txt"
)

var nativeFormats = []string{FormatStateJSON, FormatMapTxt, FormatRoundInfo, FormatRoundCommand}

// NativeFormats returns "state.json" (canonical: LoadNative reads the full
// state.json, scenarios print seat 0's), "map.txt", "roundInfo.json" and
// "roundCommand.json". The slice is shared.
func (g *Game) NativeFormats() []string { return nativeFormats }

// AppendNative appends the state in the named format to dst, as the
// original writes it (spec §8): "state.json" for seat 0 or 1 is that
// player's file (own map in full, the opponent's only as damaged, missed
// and shield-hit cells, as the original hides it), and for seat -1 the
// round folder's full state.json (Player1Map and Player2Map); "map.txt" is
// the player's map.txt (CRLF), and for seat -1 both players' map.txt,
// player A's, then an empty line (CRLF), then player B's (the original
// writes no referee map.txt; this is the full state as text); and
// "roundInfo.json" and "roundCommand.json" are the round folder's files
// (spec §8.2), for seat -1 only.
func (g *Game) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if seat < -1 || seat >= Seats {
		return dst, fmt.Errorf("battleships: AppendNative: seat %d out of range -1–1", seat)
	}
	switch format {
	case FormatStateJSON:
		return g.appendStateJSON(dst, seat), nil
	case FormatMapTxt:
		if seat < 0 {
			dst = g.appendMapTxt(dst, 0)
			dst = append(dst, "\r\n"...)
			return g.appendMapTxt(dst, 1), nil
		}
		return g.appendMapTxt(dst, seat), nil
	case FormatRoundInfo, FormatRoundCommand:
		if seat >= 0 {
			return dst, fmt.Errorf("battleships: AppendNative: %s is a round folder's file: want seat -1", format)
		}
		if format == FormatRoundInfo {
			return g.appendRoundInfo(dst), nil
		}
		return g.appendRoundCommand(dst), nil
	}
	return dst, fmt.Errorf("battleships: AppendNative: unknown format %q (want %q, %q, %q or %q)", format, FormatStateJSON, FormatMapTxt, FormatRoundInfo, FormatRoundCommand)
}

// ParseCommand reads a bot's file as the harness does (spec §4). In
// phase 1 the text is read as place.txt: split on '\n', blank lines
// dropped, exactly 5 lines of "<ship> <x> <y> <direction>" (single spaces,
// case-insensitive, .NET integers, '\r' stripped from the direction, extra
// tokens ignored). A malformed file is do nothing (0, false). A well-formed
// one gives the placement action of the seat's next ship (learn mode
// chooses one ship per step: send the same file on each of the five
// steps); when the file names a type twice, or that ship's start is off
// the map, the action is an illegal placement, which fails the round as
// the engine's validation would. A command.txt in phase 1 gives its
// command, which fails (not a PlaceShip).
//
// In phase 2 the text is read as command.txt: split on ',', exactly 3
// .NET integers "code,x,y" (surrounding whitespace allowed); codes 1–8 are
// commands, any other code is do nothing (ok true); anything else is do
// nothing (ok false). Centres beyond Margin cells off the map map to
// Margin cells off (the same effect). A place.txt in phase 2 is do nothing
// (ok false): botarena rejects re-placement (bug B3).
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	if g.phase == 1 {
		fleet, present, parsed := parsePlace(text)
		if parsed {
			if seat < 0 || seat >= Seats {
				return 0, true
			}
			k := int(g.pend[seat].n)
			if k >= NumShips {
				k = NumShips - 1
			}
			sh := fleet[k]
			for t := range NumShips {
				if present[t] != 1 {
					return failPlacement(g.n), true
				}
			}
			if !g.InBounds(int(sh.X), int(sh.Y)) {
				return failPlacement(g.n), true
			}
			return PlaceAction(g.n, int(sh.X), int(sh.Y), sh.Dir), true
		}
	}
	code, x, y, ok := parseCommandTxt(text)
	if !ok {
		return 0, false
	}
	return CommandAction(g.n, code, x, y), true
}

// parsePlace parses place.txt; present counts each ship type's lines.
// Coordinates outside int8 are stored as -1 (off the map).
func parsePlace(text []byte) (fleet [NumShips]Ship, present [NumShips]int, ok bool) {
	lines := 0
	for line := range bytes.SplitSeq(text, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines++
		if lines > NumShips {
			return fleet, present, false
		}
		var tok [4][]byte
		nt := 0
		for t := range bytes.SplitSeq(line, []byte{' '}) {
			if nt < 4 {
				tok[nt] = t
			}
			nt++
		}
		if nt < 4 {
			return fleet, present, false
		}
		t := -1
		for k, name := range shipNames {
			if bytes.EqualFold(tok[0], []byte(name)) {
				t = k
			}
		}
		x, okx := dotnetInt(tok[1])
		y, oky := dotnetInt(tok[2])
		d := -1
		dir := bytes.ReplaceAll(tok[3], []byte{'\r'}, nil)
		for k, name := range dirNames {
			if bytes.EqualFold(dir, []byte(name)) {
				d = k
			}
		}
		if t < 0 || !okx || !oky || d < 0 {
			return fleet, present, false
		}
		if x < -1 || x > MaxSize {
			x = -1
		}
		if y < -1 || y > MaxSize {
			y = -1
		}
		present[t]++
		if present[t] == 1 {
			fleet[t] = Ship{X: int8(x), Y: int8(y), Dir: Direction(d)}
		}
	}
	return fleet, present, lines == NumShips
}

// parseCommandTxt parses command.txt "code,x,y".
func parseCommandTxt(text []byte) (code, x, y int, ok bool) {
	var parts [3][]byte
	n := 0
	for p := range bytes.SplitSeq(text, []byte{','}) {
		if n == 3 {
			return 0, 0, 0, false
		}
		parts[n] = p
		n++
	}
	if n != 3 {
		return 0, 0, 0, false
	}
	var v [3]int
	for i, p := range parts {
		if v[i], ok = dotnetInt(p); !ok {
			return 0, 0, 0, false
		}
	}
	return v[0], v[1], v[2], true
}

// dotnetInt parses an Int32 as .NET's Convert.ToInt32(string) does with the
// invariant culture: optional white space (tab, LF, VT, FF, CR, space)
// around an optional sign and decimal digits, within the Int32 range.
func dotnetInt(b []byte) (int, bool) {
	isWhite := func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
	for len(b) > 0 && isWhite(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && (isWhite(b[len(b)-1]) || b[len(b)-1] == 0) {
		b = b[:len(b)-1]
	}
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	v := int64(0)
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 || v < -(1<<31) {
		return 0, false
	}
	return int(v), true
}

// AppendCommand appends the native command of action: "code,x,y" for a
// command, "<Ship> <x> <y> <Direction>" (one place.txt line, for the
// seat's next ship) for a placement, "0,0,0" for do nothing and actions
// out of range.
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	d := decode(g.n, action)
	switch d.kind {
	case actCommand:
		dst = strconv.AppendInt(dst, int64(d.code), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(d.x), 10)
		dst = append(dst, ',')
		return strconv.AppendInt(dst, int64(d.y), 10)
	case actPlace:
		k := 0
		if seat >= 0 && seat < Seats {
			k = min(int(g.pend[seat].n), NumShips-1)
		}
		dst = append(dst, shipNames[k]...)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(d.x), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(d.y), 10)
		dst = append(dst, ' ')
		return append(dst, dirNames[d.dir]...)
	}
	return append(dst, "0,0,0"...)
}
