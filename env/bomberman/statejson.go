package bomberman

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/botarena/botarena/env"
)

// state.json (spec §8.1): the writer reproduces Newtonsoft.Json's minified
// output byte for byte; the loader reads both schemas (with and without
// PlayerBounty) in any key order.

// The $type names of the original's polymorphic entities.
const (
	typeIndestructible = "Domain.Entities.IndestructibleWallEntity, Domain"
	typeDestructible   = "Domain.Entities.DestructibleWallEntity, Domain"
	typePlayer         = "Domain.Entities.PlayerEntity, Domain"
	typeBagPowerUp     = "Domain.Entities.PowerUps.BombBagPowerUpEntity, Domain"
	typeRadiusPowerUp  = "Domain.Entities.PowerUps.BombRaduisPowerUpEntity, Domain"
	typeSuperPowerUp   = "Domain.Entities.PowerUps.SuperPowerUp, Domain"
)

// defaultBounty is the PlayerBounty of states written before the field
// existed: the engine default the unit-test fixtures use (spec §9).
const defaultBounty = 100

// explodedMarker is what a loaded state puts in Cell.reached for a cell the
// file marks Exploding: the file does not say which bombs reached it, only
// that some did. It is the bit of the last bomb slot.
const explodedMarker uint64 = 1 << (MaxBombs - 1)

// appendStateJSON appends the state as the original's minified state.json.
func (g *Game) appendStateJSON(dst []byte) []byte {
	dst = append(dst, `{"RegisteredPlayerEntities":[`...)
	for seat := range g.nPlayers {
		if seat > 0 {
			dst = append(dst, ',')
		}
		dst = g.appendPlayerJSON(dst, seat, false)
	}
	dst = append(dst, `],"CurrentRound":`...)
	dst = strconv.AppendInt(dst, int64(g.round), 10)
	if !g.noBounty {
		dst = append(dst, `,"PlayerBounty":`...)
		dst = strconv.AppendInt(dst, int64(g.bounty), 10)
	}
	dst = append(dst, `,"MapHeight":`...)
	dst = strconv.AppendInt(dst, int64(g.height), 10)
	dst = append(dst, `,"MapWidth":`...)
	dst = strconv.AppendInt(dst, int64(g.width), 10)
	dst = append(dst, `,"GameBlocks":[`...)
	for x := 1; x <= g.width; x++ {
		if x > 1 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for y := 1; y <= g.height; y++ {
			if y > 1 {
				dst = append(dst, ',')
			}
			dst = g.appendCellJSON(dst, x, y)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `],"MapSeed":`...)
	dst = strconv.AppendInt(dst, int64(g.mapSeed), 10)
	return append(dst, '}')
}

// appendCellJSON appends the GameBlock object of cell (x, y).
func (g *Game) appendCellJSON(dst []byte, x, y int) []byte {
	c := &g.cells[g.index(x, y)]
	dst = append(dst, `{"Entity":`...)
	switch c.Entity {
	case IndestructibleWall:
		dst = appendTypedJSON(dst, typeIndestructible, x, y)
	case DestructibleWall:
		dst = appendTypedJSON(dst, typeDestructible, x, y)
	case PlayerEntity:
		dst = g.appendPlayerJSON(dst, int(c.Player), true)
	default:
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"Bomb":`...)
	if c.bomb != 0 {
		b := &g.bombs[c.bomb-1]
		dst = append(dst, `{"Owner":`...)
		dst = g.appendPlayerJSON(dst, b.Owner, false)
		dst = append(dst, `,"BombRadius":`...)
		dst = strconv.AppendInt(dst, int64(b.Radius), 10)
		dst = append(dst, `,"BombTimer":`...)
		dst = strconv.AppendInt(dst, int64(b.Timer), 10)
		dst = append(dst, `,"IsExploding":`...)
		dst = strconv.AppendBool(dst, b.Exploding)
		dst = append(dst, `,"Location":`...)
		dst = appendLocationJSON(dst, x, y)
		dst = append(dst, '}')
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"PowerUp":`...)
	// A power-up under an entity is hidden: the original serialises null.
	switch p := c.PowerUp; {
	case c.Entity != NoEntity || p == NoPowerUp:
		dst = append(dst, "null"...)
	case p == BombBagPowerUp:
		dst = appendTypedJSON(dst, typeBagPowerUp, x, y)
	case p == BombRadiusPowerUp:
		dst = appendTypedJSON(dst, typeRadiusPowerUp, x, y)
	default:
		dst = appendTypedJSON(dst, typeSuperPowerUp, x, y)
	}
	dst = append(dst, `,"Exploding":`...)
	dst = strconv.AppendBool(dst, c.reached != 0)
	dst = append(dst, `,"Location":`...)
	dst = appendLocationJSON(dst, x, y)
	return append(dst, '}')
}

// appendTypedJSON appends {"$type":typ,"Location":{...}}.
func appendTypedJSON(dst []byte, typ string, x, y int) []byte {
	dst = append(dst, `{"$type":"`...)
	dst = append(dst, typ...)
	dst = append(dst, `","Location":`...)
	dst = appendLocationJSON(dst, x, y)
	return append(dst, '}')
}

// appendLocationJSON appends {"X":x,"Y":y}.
func appendLocationJSON(dst []byte, x, y int) []byte {
	dst = append(dst, `{"X":`...)
	dst = strconv.AppendInt(dst, int64(x), 10)
	dst = append(dst, `,"Y":`...)
	dst = strconv.AppendInt(dst, int64(y), 10)
	return append(dst, '}')
}

// appendPlayerJSON appends seat's PlayerEntity object, with the $type key
// when it is written as a cell's Entity.
func (g *Game) appendPlayerJSON(dst []byte, seat int, typed bool) []byte {
	p := &g.players[seat]
	dst = append(dst, '{')
	if typed {
		dst = append(dst, `"$type":"`+typePlayer+`",`...)
	}
	dst = append(dst, `"Name":`...)
	dst = appendJSONString(dst, p.Name)
	dst = append(dst, `,"Key":`...)
	dst = appendJSONString(dst, string(rune(p.Key)))
	dst = append(dst, `,"Points":`...)
	dst = strconv.AppendInt(dst, int64(p.Points()), 10)
	dst = append(dst, `,"Killed":`...)
	dst = strconv.AppendBool(dst, p.Killed)
	dst = append(dst, `,"BombBag":`...)
	dst = strconv.AppendInt(dst, int64(p.BombBag), 10)
	dst = append(dst, `,"BombRadius":`...)
	dst = strconv.AppendInt(dst, int64(p.BombRadius), 10)
	dst = append(dst, `,"Location":`...)
	dst = appendLocationJSON(dst, p.X, p.Y)
	return append(dst, '}')
}

// appendJSONString appends s as a JSON string the way Newtonsoft.Json's
// default settings escape it: `"` and `\`; \b \t \n \f \r in their short
// forms; every other control character below U+0020 as \u00xx (lower-case
// hex); and U+0085, U+2028 and U+2029 as \u escapes. Everything else,
// including <, >, &, the apostrophe and DEL, is written as it is. Bytes that are
// not valid UTF-8 are written as U+FFFD, as .NET's UTF-8 encoder would.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"':
				dst = append(dst, `\"`...)
			case '\\':
				dst = append(dst, `\\`...)
			case '\b':
				dst = append(dst, `\b`...)
			case '\t':
				dst = append(dst, `\t`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\r':
				dst = append(dst, `\r`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = utf8.AppendRune(dst, utf8.RuneError)
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// The loader's view of state.json. Fields are pointers where absence
// matters.
type (
	jsonLocation struct {
		X, Y int
	}
	jsonPlayer struct {
		Type       string `json:"$type"`
		Name       string
		Key        string
		Points     int32
		Killed     bool
		BombBag    int32
		BombRadius int32
		Location   jsonLocation
	}
	jsonBomb struct {
		Owner       *jsonPlayer
		BombRadius  int32
		BombTimer   int32
		IsExploding bool
		Location    jsonLocation
	}
	jsonTyped struct {
		Type     string `json:"$type"`
		Location jsonLocation
	}
	jsonCell struct {
		Entity    *jsonPlayer // any entity: walls use only $type and Location
		Bomb      *jsonBomb
		PowerUp   *jsonTyped
		Exploding bool
		Location  jsonLocation
	}
	jsonState struct {
		RegisteredPlayerEntities []jsonPlayer
		CurrentRound             *int32
		PlayerBounty             *int32
		MapHeight                int
		MapWidth                 int
		GameBlocks               [][]*jsonCell
		MapSeed                  *int32
	}
)

// loadError is a state.json error at path.
func loadError(path, format string, args ...any) error {
	if path == "" {
		return fmt.Errorf("state.json: "+format, args...)
	}
	return fmt.Errorf("state.json: %s: "+format, append([]any{path}, args...)...)
}

// decodeError turns an encoding/json error into one that says where.
func decodeError(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 {
		return fmt.Errorf("state.json: %v", err)
	}
	// encoding/json's offsets count the bytes read, up to and including
	// the offending one (the end of the value, for type errors): point at
	// that byte.
	line, col := env.LineCol(data, max(off-1, 0))
	return fmt.Errorf("state.json: line %d, column %d: %v", line, col, err)
}

// LoadNative replaces the game with the state.json in data (spec §8.1), in
// either schema: with PlayerBounty (1.2.2 and later) or without it (the
// official round-165 sample; PlayerBounty is then 100 and the writers leave
// it out again). A UTF-8 byte-order mark, whitespace and any key order are
// accepted; unknown keys are ignored. The state is validated (sizes,
// locations, players, bombs) and the first problem is returned with where
// it is; on error the game is left as it was.
//
// What the file does not record is derived: cells count as touched only
// where alive players stand (coverage then restarts from one cell each),
// the points counter is Points less that one cell's coverage, KilledRound
// and the do-nothing count are 0, and a cell marked Exploding keeps no
// record of which bombs reached it. A power-up given under an entity (which
// the original never writes) is kept as a hidden power-up. The number of
// players must match the game's config; the names come from the file.
func (g *Game) LoadNative(data []byte) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var st jsonState
	if err := json.Unmarshal(data, &st); err != nil {
		return decodeError(data, err)
	}
	ng := *g
	if err := ng.loadState(&st); err != nil {
		return err
	}
	*g = ng
	g.stateChanged()
	return nil
}

// loadState fills g (a scratch copy) from st.
func (g *Game) loadState(st *jsonState) error {
	w, h := st.MapWidth, st.MapHeight
	if w < 1 || w > MaxSide {
		return loadError("MapWidth", "%d is out of range 1–%d", w, MaxSide)
	}
	if h < 1 || h > MaxSide {
		return loadError("MapHeight", "%d is out of range 1–%d", h, MaxSide)
	}
	if len(st.GameBlocks) != w {
		return loadError("GameBlocks", "has %d columns, but MapWidth is %d", len(st.GameBlocks), w)
	}
	for x, col := range st.GameBlocks {
		if len(col) != h {
			return loadError(fmt.Sprintf("GameBlocks[%d]", x), "has %d cells, but MapHeight is %d", len(col), h)
		}
	}
	if st.MapSeed == nil {
		return loadError("MapSeed", "missing")
	}
	if n := len(st.RegisteredPlayerEntities); n != g.nPlayers {
		return loadError("", "state has %d players, but the game is configured for %d (set config players)", n, g.nPlayers)
	}

	g.width, g.height = w, h
	g.blasts = true // clear loaded explosions and stale destroy marks at the next round
	g.blastsListed = false
	g.mapSeed = *st.MapSeed
	g.round = 0
	if st.CurrentRound != nil {
		g.round = int(*st.CurrentRound)
		if g.round < 0 {
			return loadError("CurrentRound", "%d is negative", g.round)
		}
	}
	g.bounty, g.noBounty = defaultBounty, true
	if st.PlayerBounty != nil {
		g.bounty, g.noBounty = int(*st.PlayerBounty), false
	}
	clear(g.cells[:])
	clear(g.bombs[:])
	clear(g.players[:])
	clear(g.killedBy[:]) // a player loaded dead died of an unknown cause
	clear(g.invalid[:])

	// Players.
	for seat := range g.nPlayers {
		jp := &st.RegisteredPlayerEntities[seat]
		path := fmt.Sprintf("RegisteredPlayerEntities[%d]", seat)
		if jp.Type != "" && jp.Type != typePlayer {
			return loadError(path, "unexpected $type %q", jp.Type)
		}
		key, err := checkKey(jp.Key)
		if err != nil {
			return loadError(path+".Key", "%v", err)
		}
		for s := range seat {
			if g.players[s].Key == key {
				return loadError(path+".Key", "%q is also the key of RegisteredPlayerEntities[%d]", jp.Key, s)
			}
		}
		for _, r := range jp.Name {
			if r < ' ' {
				return loadError(path+".Name", "%q has control characters (they would break map.txt)", jp.Name)
			}
		}
		if jp.BombBag < 0 {
			return loadError(path+".BombBag", "%d is negative", jp.BombBag)
		}
		if jp.BombRadius < 1 {
			return loadError(path+".BombRadius", "%d is below 1", jp.BombRadius)
		}
		if !g.InBounds(jp.Location.X, jp.Location.Y) {
			return loadError(path+".Location", "(%d,%d) is off the %d×%d map", jp.Location.X, jp.Location.Y, w, h)
		}
		g.players[seat] = Player{
			Name:       jp.Name,
			Key:        key,
			Counter:    int(jp.Points),
			Killed:     jp.Killed,
			BombBag:    int(jp.BombBag),
			BombRadius: int(jp.BombRadius),
			X:          jp.Location.X,
			Y:          jp.Location.Y,
		}
	}

	// Cells, row-major, so that bomb slots follow the canonical order.
	var seen [MaxPlayers]bool
	nBombs := 0
	for y := 1; y <= h; y++ {
		for x := 1; x <= w; x++ {
			path := fmt.Sprintf("GameBlocks[%d][%d]", x-1, y-1)
			jc := st.GameBlocks[x-1][y-1]
			if jc == nil {
				return loadError(path, "is null")
			}
			if jc.Location.X != x || jc.Location.Y != y {
				return loadError(path+".Location", "is (%d,%d), want (%d,%d)", jc.Location.X, jc.Location.Y, x, y)
			}
			c := &g.cells[g.index(x, y)]
			if err := g.loadEntity(c, jc.Entity, path+".Entity", x, y, &seen); err != nil {
				return err
			}
			if jc.PowerUp != nil {
				pp := path + ".PowerUp"
				if err := checkLocation(pp, jc.PowerUp.Location, x, y); err != nil {
					return err
				}
				switch jc.PowerUp.Type {
				case typeBagPowerUp:
					c.PowerUp = BombBagPowerUp
				case typeRadiusPowerUp:
					c.PowerUp = BombRadiusPowerUp
				case typeSuperPowerUp:
					c.PowerUp = SuperPowerUp
				default:
					return loadError(pp, "unknown $type %q", jc.PowerUp.Type)
				}
			}
			if jc.Exploding {
				c.reached = explodedMarker
			}
			if jb := jc.Bomb; jb != nil {
				bp := path + ".Bomb"
				if nBombs == MaxBombs {
					return loadError(bp, "more than %d bombs", MaxBombs)
				}
				if err := checkLocation(bp, jb.Location, x, y); err != nil {
					return err
				}
				if jb.Owner == nil {
					return loadError(bp+".Owner", "missing")
				}
				owner, err := g.matchPlayer(jb.Owner, bp+".Owner")
				if err != nil {
					return err
				}
				if jb.BombRadius < 1 {
					return loadError(bp+".BombRadius", "%d is below 1", jb.BombRadius)
				}
				if jb.BombTimer < 0 {
					return loadError(bp+".BombTimer", "%d is negative", jb.BombTimer)
				}
				g.bombs[nBombs] = Bomb{
					Owner:     owner,
					X:         x,
					Y:         y,
					Radius:    int(jb.BombRadius),
					Timer:     int(jb.BombTimer),
					Exploding: jb.IsExploding,
					live:      true,
				}
				nBombs++
				c.bomb = uint8(nBombs)
			}
		}
	}
	g.bombHigh = nBombs

	// Alive players stand on the map exactly once (loadEntity rejects a
	// second appearance and dead players on the map).
	alive := 0
	for seat := range g.nPlayers {
		p := &g.players[seat]
		if p.Killed {
			continue
		}
		alive++
		if !seen[seat] {
			return loadError(fmt.Sprintf("RegisteredPlayerEntities[%d]", seat), "player %c is alive but not on the map at (%d,%d)", p.Key, p.X, p.Y)
		}
	}

	g.usable = 0
	for i := range w * h {
		if g.cells[i].Entity != IndestructibleWall {
			g.usable++
		}
	}
	if g.usable == 0 {
		return loadError("GameBlocks", "every cell is an indestructible wall")
	}
	// Coverage restarts from the cell each alive player stands on; the
	// counter takes the rest of the points so that Points stays as read.
	for seat := range g.nPlayers {
		p := &g.players[seat]
		if p.Killed {
			continue
		}
		g.cells[g.index(p.X, p.Y)].touched |= 1 << seat
		p.Touched = 1
		p.Coverage = coverageMultiplier * p.Touched / g.usable
		p.Counter -= p.Coverage
	}

	g.setMaxRound()
	g.done = alive < 2 || g.round > g.maxRound
	g.truncatedEnd = alive >= 2 && g.round > g.maxRound
	return nil
}

// loadEntity reads a cell's Entity into c.
func (g *Game) loadEntity(c *Cell, e *jsonPlayer, path string, x, y int, seen *[MaxPlayers]bool) error {
	if e == nil {
		return nil
	}
	switch e.Type {
	case typeIndestructible:
		c.Entity = IndestructibleWall
	case typeDestructible:
		c.Entity = DestructibleWall
	case typePlayer:
		seat, err := g.matchPlayer(e, path)
		if err != nil {
			return err
		}
		p := &g.players[seat]
		if p.Killed {
			return loadError(path, "player %c is dead but on the map", p.Key)
		}
		if p.X != x || p.Y != y {
			return loadError(path, "player %c is at (%d,%d) in RegisteredPlayerEntities", p.Key, p.X, p.Y)
		}
		if seen[seat] {
			// Unreachable while locations must match, kept as a guard.
			return loadError(path, "player %c is on the map twice", p.Key)
		}
		seen[seat] = true
		c.Entity = PlayerEntity
		c.Player = uint8(seat)
		return nil
	case "":
		return loadError(path, "missing $type")
	default:
		return loadError(path, "unknown $type %q", e.Type)
	}
	return checkLocation(path, e.Location, x, y)
}

// matchPlayer finds the registered player jp stands for, by key, and
// checks that every field agrees with the registered entry.
func (g *Game) matchPlayer(jp *jsonPlayer, path string) (int, error) {
	for seat := range g.nPlayers {
		p := &g.players[seat]
		if len(jp.Key) != 1 || jp.Key[0] != p.Key {
			continue
		}
		reg := fmt.Sprintf("RegisteredPlayerEntities[%d]", seat)
		switch {
		case jp.Name != p.Name:
			return 0, loadError(path+".Name", "%q differs from %s (%q)", jp.Name, reg, p.Name)
		case int(jp.Points) != p.Points():
			return 0, loadError(path+".Points", "%d differs from %s (%d)", jp.Points, reg, p.Points())
		case jp.Killed != p.Killed:
			return 0, loadError(path+".Killed", "%t differs from %s", jp.Killed, reg)
		case int(jp.BombBag) != p.BombBag:
			return 0, loadError(path+".BombBag", "%d differs from %s (%d)", jp.BombBag, reg, p.BombBag)
		case int(jp.BombRadius) != p.BombRadius:
			return 0, loadError(path+".BombRadius", "%d differs from %s (%d)", jp.BombRadius, reg, p.BombRadius)
		case jp.Location.X != p.X || jp.Location.Y != p.Y:
			return 0, loadError(path+".Location", "(%d,%d) differs from %s (%d,%d)", jp.Location.X, jp.Location.Y, reg, p.X, p.Y)
		}
		return seat, nil
	}
	return 0, loadError(path+".Key", "%q is not a registered player", jp.Key)
}

// checkKey validates a player key: one upper-case ASCII letter, so that the
// map.txt symbols (upper-case player, lower-case bomb) stay apart from the
// other symbols.
func checkKey(key string) (byte, error) {
	if len(key) != 1 || key[0] < 'A' || key[0] > 'Z' {
		return 0, fmt.Errorf("%q is not one upper-case letter A–Z", key)
	}
	return key[0], nil
}

// checkLocation checks an entity's Location against its cell.
func checkLocation(path string, l jsonLocation, x, y int) error {
	if l.X != x || l.Y != y {
		return loadError(path+".Location", "is (%d,%d), want the cell's (%d,%d)", l.X, l.Y, x, y)
	}
	return nil
}
