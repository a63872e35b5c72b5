package battlebots

import (
	"bytes"
	"fmt"
	"strconv"
)

// FormatArena is the name of the native format: the ASCII arena string a
// bot receives as its last command-line argument (spec §5).
const FormatArena = "arena.txt"

var nativeFormats = []string{FormatArena}

// NativeFormats returns the native formats: only "arena.txt", the ASCII
// arena string (canonical: what LoadNative reads and scenarios print). The
// returned slice is shared and must not be modified.
func (g *Game) NativeFormats() []string { return nativeFormats }

// AppendNative appends the arena as seat sees it to dst. For seat 0 (bot1)
// and seat 1 (bot2) it is byte for byte the string the original passes to
// that bot (spec §5): the 10×10 grid with B, then M, then Y (the receiving
// bot) and X (the enemy), no landmines, then "Y hp=", "X hp=" and one line
// per bullet and per missile in list order. Seat -1 (the referee) gets
// bot1's view with what the bots cannot see added: an L on the grid for
// each landmine (under projectiles and bots), then the extension lines
//
//	L x=<x> y=<y> by=<Y|X>[ dead]   one per landmine, row-major; by: who laid it, from bot1's view
//	P paralysed=<n>                 the paralysis counter
//	R round=<n>                     rounds played
//
// which [Game.LoadNative] reads back, so the referee view round-trips the
// whole state. A format other than "arena.txt" or a seat outside -1..1 is
// an error.
func (g *Game) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if format != FormatArena {
		return dst, fmt.Errorf("battlebots: AppendNative: unknown format %q (want %q)", format, FormatArena)
	}
	if seat < -1 || seat > 1 {
		return dst, fmt.Errorf("battlebots: AppendNative: seat %d out of range -1–1", seat)
	}
	return g.AppendArena(dst, seat), nil
}

// AppendArena appends the "arena.txt" view of seat (0, 1, or -1 for the
// referee) to dst; see [Game.AppendNative]. It does not allocate when dst
// has room.
func (g *Game) AppendArena(dst []byte, seat int) []byte {
	referee := seat < 0
	if referee {
		seat = 0
	}
	var grid [Side * (Side + 1)]byte
	for y := range Side {
		row := grid[y*(Side+1) : (y+1)*(Side+1)]
		for x := range Side {
			row[x] = '.'
		}
		row[Side] = '\n'
	}
	at := func(x, y int) *byte { return &grid[y*(Side+1)+x] }
	if referee && g.nMines > 0 {
		for i, f := range g.mines {
			if f != 0 {
				*at(i%Side, i/Side) = 'L'
			}
		}
	}
	for i := range g.nBullets {
		*at(g.bullets[i].X, g.bullets[i].Y) = 'B'
	}
	for i := range g.nMissiles {
		*at(g.missiles[i].X, g.missiles[i].Y) = 'M'
	}
	me, en := g.bots[seat], g.bots[1-seat]
	*at(me.X, me.Y) = 'Y'
	*at(en.X, en.Y) = 'X'
	dst = append(dst, grid[:]...)
	dst = append(dst, "Y hp="...)
	dst = strconv.AppendInt(dst, int64(me.HP), 10)
	dst = append(dst, "\nX hp="...)
	dst = strconv.AppendInt(dst, int64(en.HP), 10)
	dst = append(dst, '\n')
	for i := range g.nBullets {
		dst = appendProjectile(dst, 'B', g.bullets[i])
	}
	for i := range g.nMissiles {
		dst = appendProjectile(dst, 'M', g.missiles[i])
	}
	if !referee {
		return dst
	}
	for i, f := range g.mines {
		if f == 0 {
			continue
		}
		dst = append(dst, "L x="...)
		dst = strconv.AppendInt(dst, int64(i%Side), 10)
		dst = append(dst, " y="...)
		dst = strconv.AppendInt(dst, int64(i/Side), 10)
		if f&mineBot2 != 0 {
			dst = append(dst, " by=X"...)
		} else {
			dst = append(dst, " by=Y"...)
		}
		if f&mineDead != 0 {
			dst = append(dst, " dead"...)
		}
		dst = append(dst, '\n')
	}
	dst = append(dst, "P paralysed="...)
	dst = strconv.AppendInt(dst, int64(g.paralysed), 10)
	dst = append(dst, "\nR round="...)
	dst = strconv.AppendInt(dst, int64(g.round), 10)
	return append(dst, '\n')
}

func appendProjectile(dst []byte, kind byte, p Projectile) []byte {
	dst = append(dst, kind)
	dst = append(dst, " x="...)
	dst = strconv.AppendInt(dst, int64(p.X), 10)
	dst = append(dst, " y="...)
	dst = strconv.AppendInt(dst, int64(p.Y), 10)
	dst = append(dst, " dir="...)
	dst = append(dst, dirNames[p.Dir]...)
	return append(dst, '\n')
}

// ParseCommand reads a bot's stdout exactly as the control program does
// (spec §4): surrounding whitespace is trimmed (Go's TrimSpace, Unicode
// whitespace); the eight direction strings are moves and "P" is the EMP,
// compared case-sensitively; otherwise the text is split on whitespace
// (Go's Fields) and exactly two fields, the first "B", "M" or "L" and the
// second a direction, make a weapon ("B  E" works). "NO" is Nothing with ok
// true; anything else ("b e", "B", "M X", "", "n", ...) is Nothing with ok
// false. The seat does not matter.
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	a, ok := ParseAction(text)
	return int32(a), ok
}

// ParseAction is [Game.ParseCommand] without a game.
func ParseAction(text []byte) (Action, bool) {
	s := bytes.TrimSpace(text)
	if d, ok := parseDir(s); ok {
		return Move(d), true
	}
	switch string(s) {
	case "P":
		return EMP, true
	case "NO":
		return Nothing, true
	}
	// Fields allocates; only a text with a space inside can be a weapon.
	if len(s) < 3 {
		return Nothing, false
	}
	f := bytes.Fields(s)
	if len(f) != 2 || len(f[0]) != 1 {
		return Nothing, false
	}
	d, ok := parseDir(f[1])
	if !ok {
		return Nothing, false
	}
	switch f[0][0] {
	case 'B':
		return Bullet(d), true
	case 'M':
		return Missile(d), true
	case 'L':
		return Landmine(d), true
	}
	return Nothing, false
}

// parseDir matches one of the eight direction strings exactly.
func parseDir(s []byte) (Dir, bool) {
	for d, n := range dirNames {
		if string(s) == n {
			return Dir(d), true
		}
	}
	return 0, false
}

// AppendCommand appends action's native command to dst ("NO", "NE",
// "B SE", "P"); an action outside the action space is "NO".
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	if action < 0 || action >= NumActions {
		action = int32(Nothing)
	}
	return append(dst, actionNames[action]...)
}
