package portalbomber

import (
	"fmt"
	"strconv"
)

// The native formats, canonical first.
const (
	// FormatStateJSON is the state object the original server sends a
	// player (spec §9).
	FormatStateJSON = "state.json"
	// FormatBoardTxt is botarena's text picture of the board, for
	// `play --pretty` and debugging.
	FormatBoardTxt = "board.txt"
)

var nativeFormats = []string{FormatStateJSON, FormatBoardTxt}

// NativeFormats returns "state.json" (canonical: what LoadNative reads and
// scenarios print) and "board.txt". The slice is shared; do not modify it.
func (g *Game) NativeFormats() []string { return nativeFormats }

// AppendNative appends the state in format as seat sees it. "state.json" is
// the object the original server sends to player seat (spec §9), minified as
// Express's res.json writes it; the game has no hidden information, so seat
// -1 gets seat 0's view. An unknown format or a seat outside -1..1 is an
// error. Not safe for concurrent use with Step.
func (g *Game) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if seat < -1 || seat >= Seats {
		return dst, fmt.Errorf("portalbomber: AppendNative: seat %d out of range -1–1", seat)
	}
	if seat < 0 {
		seat = 0
	}
	switch format {
	case FormatStateJSON:
		return g.appendStateJSON(dst, seat), nil
	case FormatBoardTxt:
		return g.appendBoard(dst), nil
	}
	return dst, fmt.Errorf("portalbomber: AppendNative: unknown format %q (want %q or %q)", format, FormatStateJSON, FormatBoardTxt)
}

// ParseCommand reads a move string as the engine's submit does: an exact
// match of "" (wait), "ml" "mu" "mr" "md", "tl" "tu" "tr" "td", "b", "op",
// "bp", "buy_count", "buy_range", "buy_pierce" or "buy_block". Anything else
// (including surrounding whitespace) is an invalid move, which the original
// accepts as a used-up turn: [InvalidMove] with ok false. With
// [Config.VariantCommands] the design document's "buy 00" (range), "buy 01"
// (bomb count), "buy 02" (pierce), "buy 03" (block) and "u" "l" "r" "d"
// (moves) are read too.
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	s := string(text)
	for a, m := range moveStrings[:InvalidMove] {
		if s == m {
			return int32(a), true
		}
	}
	if g.cfg.VariantCommands {
		for _, c := range variantCommands {
			if s == c.text {
				return int32(c.action), true
			}
		}
	}
	return int32(InvalidMove), false
}

// variantCommands are the design document's move strings, read with
// [Config.VariantCommands].
var variantCommands = [...]struct {
	text   string
	action Action
}{
	{"buy 00", BuyRange}, {"buy 01", BuyCount}, {"buy 02", BuyPierce}, {"buy 03", BuyBlock},
	{"l", MoveLeft}, {"u", MoveUp}, {"r", MoveRight}, {"d", MoveDown},
}

// AppendCommand appends action's move string: "" for Wait and for actions
// outside the action space, "x" for [InvalidMove].
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	if action < 0 || action >= NumActions {
		return dst
	}
	return append(dst, moveStrings[action]...)
}

var stateNames = [...]string{"in progress", "complete", "aborted"}

func (g *Game) appendStateJSON(b []byte, seat int) []byte {
	n := g.n
	id, players := g.ids()
	b = append(b, `{"gameID":"`...)
	b = append(b, id[:]...)
	b = append(b, `","playerID":"`...)
	b = append(b, players[seat][:]...)
	b = append(b, `","state":"`...)
	b = append(b, stateNames[g.state]...)
	b = append(b, `","boardSize":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"player":`...)
	b = g.appendPlayer(b, seat)
	b = append(b, `,"moveOrder":[`...)
	b = strconv.AppendInt(b, int64(g.moveOrder[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(g.moveOrder[1]), 10)
	b = append(b, `],"moveIterator":`...)
	b = strconv.AppendInt(b, int64(g.moveIterator), 10)
	b = append(b, `,"playerIndex":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, `,"opponent":`...)
	b = g.appendPlayer(b, 1-seat)
	for k, name := range []string{`,"hardBlockBoard":[`, `,"softBlockBoard":[`} {
		b = append(b, name...)
		for x := range n {
			for y := range n {
				c := &g.cells[g.idx(x, y)]
				v := c.hard
				if k == 1 {
					v = c.soft
				}
				if x > 0 || y > 0 {
					b = append(b, ',')
				}
				if v {
					b = append(b, '1')
				} else {
					b = append(b, '0')
				}
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"trailMap":{`...)
	b = g.appendCellObjects(b, func(c *cell) uint32 { return c.trailSeq }, func(b []byte, c *cell) []byte {
		for slot, owner := range [3]string{"0", "1", "-1"} {
			t := c.trails[slot]
			if t.Type == NoTrail {
				continue
			}
			b = appendMember(b, owner)
			b = append(b, `{"tick":`...)
			b = strconv.AppendInt(b, int64(t.Tick), 10)
			b = append(b, `,"type":"`...)
			b = append(b, t.Type.String()...)
			b = append(b, `"}`...)
		}
		return b
	})
	b = append(b, `},"bombMap":{`...)
	for k := range g.nBombs {
		i := int(g.bombs[k])
		c := &g.cells[i]
		if k > 0 {
			b = append(b, ',')
		}
		b = g.appendKey(b, i)
		b = append(b, '{')
		b = appendIntMember(b, "owner", int(c.bombOwner))
		b = appendIntMember(b, "tick", int(c.bombTick))
		b = append(b, '}')
	}
	b = append(b, `},"portalMap":{`...)
	b = g.appendCellObjects(b, func(c *cell) uint32 { return c.portalSeq }, func(b []byte, c *cell) []byte {
		for f, face := range [4]string{"0", "1", "2", "3"} {
			p := c.portals[f]
			if p.owner == 0 {
				continue
			}
			b = appendMember(b, face)
			b = append(b, `{"owner":`...)
			b = strconv.AppendInt(b, int64(p.owner-1), 10)
			b = append(b, `,"portalColor":"`...)
			b = append(b, colorNames[p.color]...)
			b = append(b, `"}`...)
		}
		return b
	})
	// moveNumber last: the commit that added it (340cac8) appended it to
	// sanitizedForm, after portalMap.
	b = append(b, `},"moveNumber":`...)
	b = strconv.AppendInt(b, int64(g.moveNumber), 10)
	return append(b, '}')
}

var colorNames = [2]string{"orange", "blue"}

// appendCellObjects appends the original's map of the cells whose seq is
// non-zero, in seq order: "x,y":{...} members separated by commas, each
// object's members appended by members ([appendMember]).
func (g *Game) appendCellObjects(b []byte, seq func(*cell) uint32, members func(b []byte, c *cell) []byte) []byte {
	var order [MaxCells]uint16
	for k, i := range g.sortedCells(order[:0], seq) {
		if k > 0 {
			b = append(b, ',')
		}
		b = g.appendKey(b, int(i))
		b = append(b, '{')
		b = members(b, &g.cells[i])
		b = append(b, '}')
	}
	return b
}

// appendMember appends the start of an object member "key": after a comma,
// unless it is the object's first (b ends with its '{').
func appendMember(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, `":`...)
}

// appendIntMember appends the member "key": v (see [appendMember]).
func appendIntMember(b []byte, key string, v int) []byte {
	return strconv.AppendInt(appendMember(b, key), int64(v), 10)
}

// appendKey appends the original's map key "x,y": for cell i.
func (g *Game) appendKey(b []byte, i int) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(i%g.n), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(i/g.n), 10)
	return append(b, `":`...)
}

// sortedCells appends the cells whose seq is non-zero, in seq order.
func (g *Game) sortedCells(dst []uint16, seq func(*cell) uint32) []uint16 {
	for i := range g.n * g.n {
		s := seq(&g.cells[i])
		if s == 0 {
			continue
		}
		dst = append(dst, uint16(i))
		for k := len(dst) - 1; k > 0 && seq(&g.cells[dst[k-1]]) > s; k-- {
			dst[k], dst[k-1] = dst[k-1], dst[k]
		}
	}
	return dst
}

func (g *Game) appendPlayer(b []byte, s int) []byte {
	p := g.Player(s)
	b = append(b, '{')
	b = appendIntMember(b, "x", p.X)
	b = appendIntMember(b, "y", p.Y)
	b = appendIntMember(b, "orientation", p.Orientation)
	b = appendIntMember(b, "bombCount", p.BombCount)
	b = appendIntMember(b, "bombRange", p.BombRange)
	b = appendIntMember(b, "bombPierce", p.BombPierce)
	b = strconv.AppendBool(appendMember(b, "alive"), p.Alive)
	b = appendIntMember(b, "coins", p.Coins)
	for c, name := range [2]string{`,"orangePortal":`, `,"bluePortal":`} {
		b = append(b, name...)
		q := p.Portals[c]
		if !q.Set {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '{')
		b = appendIntMember(b, "x", q.X)
		b = appendIntMember(b, "y", q.Y)
		b = appendIntMember(b, "direction", q.Dir)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendBoard draws the board: '#' hard, '+' soft, 'A'/'B' players 0/1
// (lower case on a bomb), a bomb's tick as a digit, '*' an explosion trail,
// '^' apocalypse fire, '.' empty; then one line per player and portal.
func (g *Game) appendBoard(b []byte) []byte {
	n := g.n
	for y := range n {
		for x := range n {
			c := &g.cells[g.idx(x, y)]
			ch := byte('.')
			switch {
			case c.hard:
				ch = '#'
			case c.soft:
				ch = '+'
			case c.bombSeq != 0:
				ch = byte('0' + min(int(c.bombTick), 9))
			case c.trails[2].Type == TrailFire:
				ch = '^'
			case c.trailSeq != 0:
				ch = '*'
			}
			for s := range Seats {
				if p := &g.players[s]; int(p.X) == x && int(p.Y) == y {
					ch = byte('A' + s)
					if c.bombSeq != 0 {
						ch = byte('a' + s)
					}
				}
			}
			b = append(b, ch)
		}
		b = append(b, '\n')
	}
	b = append(b, "move "...)
	b = strconv.AppendInt(b, int64(g.moveNumber), 10)
	b = append(b, " round "...)
	b = strconv.AppendInt(b, int64(g.Rounds()), 10)
	if g.Done() {
		b = append(b, " over"...)
	} else if !g.cfg.Simultaneous {
		b = append(b, " to move: "...)
		b = append(b, byte('A'+g.moveOrder[g.moveIterator]))
	}
	b = append(b, '\n')
	for s := range Seats {
		p := g.Player(s)
		b = fmt.Appendf(b, "%c seat %d alive %v at (%d,%d) facing %d  coins %d bombs %d range %d pierce %d",
			'A'+s, s, p.Alive, p.X, p.Y, p.Orientation, p.Coins, p.BombCount, p.BombRange, p.BombPierce)
		for c, name := range colorNames {
			if q := p.Portals[c]; q.Set {
				b = fmt.Appendf(b, "  %s (%d,%d) face %d", name, q.X, q.Y, q.Dir)
			}
		}
		b = append(b, '\n')
	}
	return b
}
