package battlecube

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/botarena/botarena/env"
)

// Native format names.
const (
	// FormatRequest is the bot request body (spec §5), keys in the order
	// the server sends them: currentPlayer, gameInfo, players, items. It is
	// the canonical format. Seat -1 leaves currentPlayer out: that is the
	// NEXT_TICK payload of the coming tick.
	FormatRequest = "request.json"
	// FormatEvents is the socket.io event stream of the last tick (after
	// Reset: GAME_STARTED), one {"event","data"} object per line.
	FormatEvents = "events"
)

var formats = []string{FormatRequest, FormatEvents}

// NativeFormats returns "request.json" (canonical) and "events".
func (g *Game) NativeFormats() []string { return formats }

// AppendNative appends the state in format as seat sees it. Every seat sees
// the same state; the request names seat as currentPlayer.
func (g *Game) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	if seat < -1 || seat >= g.n {
		return dst, fmt.Errorf("battlecube: seat %d out of range", seat)
	}
	switch format {
	case FormatRequest:
		return g.appendRequest(dst, seat), nil
	case FormatEvents:
		return g.AppendEvents(dst), nil
	}
	return dst, fmt.Errorf("battlecube: unknown native format %q (have %s)", format, strings.Join(formats, ", "))
}

// appendRequest writes the request of the coming tick.
func (g *Game) appendRequest(dst []byte, seat int) []byte {
	dst = append(dst, '{')
	if seat >= 0 {
		dst = append(dst, `"currentPlayer":`...)
		dst = g.appendSetup(dst, seat)
		dst = append(dst, ',')
	}
	dst = g.appendTickInfo(dst, g.tick, g.InPlay(), func(s int) (bool, int, int, int, int) {
		p := &g.players[s]
		return p.InPlay, p.X, p.Y, p.Z, int(p.nStray)
	}, len(g.items), true)
	return append(dst, '}')
}

// appendSetup writes seat's playerSetup {name, url}.
func (g *Game) appendSetup(dst []byte, seat int) []byte {
	return append(g.appendNameURL(dst, seat), '}')
}

// appendNameURL opens seat's object with its name and, when it has one,
// its url: {"name":N[,"url":U] (the object left open for more members).
func (g *Game) appendNameURL(dst []byte, seat int) []byte {
	p := &g.players[seat]
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, p.Name)
	if p.URL != "" {
		dst = append(dst, `,"url":`...)
		dst = appendString(dst, p.URL)
	}
	return dst
}

// appendTickInfo writes "gameInfo":{...},"players":[...],"items":[...]
// for the given tick, positions (with their first nStray stray
// properties) and the first nItems items (skipping used-up bombs when
// visible is set).
func (g *Game) appendTickInfo(dst []byte, tick, inPlay int, pos func(s int) (in bool, x, y, z, nStray int), nItems int, visible bool) []byte {
	dst = append(dst, `"gameInfo":{"id":`...)
	dst = appendString(dst, g.id)
	dst = append(dst, `,"edgeLength":`...)
	dst = strconv.AppendInt(dst, int64(g.edge), 10)
	dst = append(dst, `,"numOfTasksPerTick":`...)
	dst = strconv.AppendInt(dst, int64(g.tasks), 10)
	dst = append(dst, `,"numOfBotsInPlay":`...)
	dst = strconv.AppendInt(dst, int64(inPlay), 10)
	dst = append(dst, `,"currentTick":`...)
	dst = strconv.AppendInt(dst, int64(tick), 10)
	dst = append(dst, `},"players":[`...)
	first := true
	for s := range g.n {
		in, x, y, z, nStray := pos(s)
		if !in {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = g.appendPosition(dst, s, x, y, z, nStray)
	}
	dst = append(dst, `],"items":[`...)
	first = true
	for _, it := range g.items[:nItems] {
		if visible && g.exploded(it) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		if it == nowhere {
			dst = append(dst, `{"type":"BOMB"}`...) // x, y, z undefined
			continue
		}
		dst = append(dst, '{')
		dst = appendXYZ(dst, int(it.X), int(it.Y), int(it.Z), true)
		dst = append(dst, `,"type":"BOMB"}`...)
	}
	return append(dst, ']')
}

// appendPosition writes seat's position object {name, x, y, z} with its
// first nStray stray properties, all null (NaN), in JavaScript's property
// order: the array-index names ("0" to "9") first, ascending, then the
// others in the order added.
func (g *Game) appendPosition(dst []byte, s, x, y, z, nStray int) []byte {
	stray := g.strays[s][:nStray]
	dst = append(dst, '{')
	for d := uint32('0'); d <= '9'; d++ {
		for _, u := range stray {
			if u == d {
				dst = append(dst, '"', byte(d), '"', ':', 'n', 'u', 'l', 'l', ',')
			}
		}
	}
	dst = append(dst, `"name":`...)
	dst = appendString(dst, g.players[s].Name)
	dst = appendXYZ(dst, x, y, z, false)
	for _, u := range stray {
		if u >= '0' && u <= '9' {
			continue
		}
		dst = append(dst, ',')
		dst = appendStrayKey(dst, u)
		dst = append(dst, ":null"...)
	}
	return append(dst, '}')
}

// appendStrayKey writes a stray property's name as JSON.stringify does:
// "undefined" for NoAxis, a lone surrogate as a \u escape (as Node since
// version 12 writes it).
func appendStrayKey(dst []byte, u uint32) []byte {
	if u == NoAxis {
		return append(dst, `"undefined"`...)
	}
	dst = append(dst, '"')
	dst = appendUnit(dst, u)
	return append(dst, '"')
}

// appendUnit writes one UTF-16 code unit inside a JSON string.
func appendUnit(dst []byte, u uint32) []byte {
	const hex = "0123456789abcdef"
	if u >= 0xD800 && u <= 0xDFFF {
		return append(dst, '\\', 'u', hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
	}
	var b [4]byte
	n := utf8.EncodeRune(b[:], rune(u))
	q := appendString(dst, string(b[:n]))
	copy(q[len(dst):], q[len(dst)+1:len(q)-1])
	return q[:len(q)-2]
}

// appendXYZ writes "x":..,"y":..,"z":.. with a leading comma unless first.
func appendXYZ(dst []byte, x, y, z int, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	dst = append(dst, `"x":`...)
	dst = strconv.AppendInt(dst, int64(x), 10)
	dst = append(dst, `,"y":`...)
	dst = strconv.AppendInt(dst, int64(y), 10)
	dst = append(dst, `,"z":`...)
	return strconv.AppendInt(dst, int64(z), 10)
}

// AppendEvents appends the events of the last tick (after Reset:
// GAME_STARTED) as JSON Lines, {"event":NAME,"data":PAYLOAD}, with the
// payloads and key order the original server emits (spec §6).
func (g *Game) AppendEvents(dst []byte) []byte {
	for _, e := range g.events[:g.nEvents] {
		dst = append(dst, `{"event":"`...)
		dst = append(dst, eventNames[e.kind]...)
		dst = append(dst, `","data":`...)
		dst = g.appendEventData(dst, e)
		dst = append(dst, "}\n"...)
	}
	return dst
}

func (g *Game) appendEventData(dst []byte, e event) []byte {
	s := int(e.seat)
	switch e.kind {
	case evGameStarted:
		dst = append(dst, `{"id":`...)
		dst = appendString(dst, g.id)
		return append(dst, '}')
	case evNextTick:
		inPlay := 0
		for o := range g.n {
			if g.seatTick[o].inPlay {
				inPlay++
			}
		}
		dst = append(dst, '{')
		dst = g.appendTickInfo(dst, g.snapTick, inPlay, func(o int) (bool, int, int, int, int) {
			t := &g.seatTick[o]
			return t.inPlay, int(t.pos[0]), int(t.pos[1]), int(t.pos[2]), int(t.stray)
		}, g.snapItems, false)
		return append(dst, '}')
	case evMoveAttempt:
		// The bot's position object itself, its stray properties included.
		return g.appendPosition(dst, s, int(e.x), int(e.y), int(e.z), int(g.players[s].nStray))
	case evPlacedBomb, evDidNothing:
		if e.x == nowhere.X {
			dst = append(dst, `{"name":`...) // x, y, z undefined
			dst = appendString(dst, g.players[s].Name)
			return append(dst, '}')
		}
		dst = append(dst, '{')
		dst = appendXYZ(dst, int(e.x), int(e.y), int(e.z), true)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, g.players[s].Name)
		return append(dst, '}')
	case evLost:
		// playerLost builds {cause, name}.
		dst = append(dst, `{"cause":`...)
		dst = appendCause(dst, e.cause)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, g.players[s].Name)
		return append(dst, '}')
	case evGameEnded:
		return g.appendGameEnded(dst)
	}
	return append(dst, "null"...)
}

// schemaDetails stands for Joi's details of a reply that fails the task
// schema; Joi's exact text is not reproduced.
const schemaDetails = `[{"message":"\"value\" does not match any of the allowed types","path":[],"type":"array.includes"}]`

func appendCause(dst []byte, c Cause) []byte {
	switch c {
	case CauseOutOfBounds, CauseBomb, CauseCrash:
		return appendString(dst, causeText[c])
	case CauseAmount:
		return append(dst, `{"error":"VALIDATION_ERROR","details":"Invalid amount of directions sent"}`...)
	case CauseSchema:
		return append(dst, `{"error":"VALIDATION_ERROR","details":`+schemaDetails+`}`...)
	}
	return append(dst, "{}"...)
}

// appendScore writes {name, url, highScore}.
func (g *Game) appendScore(dst []byte, s, score int) []byte {
	dst = g.appendNameURL(dst, s)
	dst = append(dst, `,"highScore":`...)
	dst = strconv.AppendInt(dst, int64(score), 10)
	return append(dst, '}')
}

// appendGameEnded writes {winner?, scores, id, result}.
func (g *Game) appendGameEnded(dst []byte) []byte {
	dst = append(dst, '{')
	winner := -1
	if g.winnerFound {
		for s := range g.n {
			if g.players[s].InPlay {
				winner = s
			}
		}
		dst = append(dst, `"winner":`...)
		dst = g.appendScore(dst, winner, g.tick)
		dst = append(dst, ',')
	}
	dst = append(dst, `"scores":[`...)
	for i, s := range g.lost[:g.nLost] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = g.appendScore(dst, int(s), g.players[s].HighScore)
	}
	k := g.nLost
	for s := range g.n {
		if g.players[s].InPlay {
			if k > 0 {
				dst = append(dst, ',')
			}
			k++
			dst = g.appendScore(dst, s, g.tick)
		}
	}
	dst = append(dst, `],"id":`...)
	dst = appendString(dst, g.id)
	if g.winnerFound {
		return append(dst, `,"result":"WINNER_FOUND"}`...)
	}
	return append(dst, `,"result":"TIE"}`...)
}

// appendString writes s as JSON.stringify does: quotes, backslashes and
// control characters escaped, everything else as it is.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// ErrorEvent returns the ERROR event the original emits for an invalid
// game configuration (spec §2): {"event":"ERROR","data":{"error":
// "INVALID_GAME_CONFIGURATION","details":err's text}}.
func ErrorEvent(err error) []byte {
	dst := []byte(`{"event":"ERROR","data":{"error":"INVALID_GAME_CONFIGURATION","details":`)
	dst = appendString(dst, err.Error())
	return append(dst, "}}\n"...)
}

// request is the bot request as LoadNative reads it.
type request struct {
	CurrentPlayer *struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"currentPlayer"`
	GameInfo *struct {
		ID                string `json:"id"`
		EdgeLength        int    `json:"edgeLength"`
		NumOfTasksPerTick int    `json:"numOfTasksPerTick"`
		NumOfBotsInPlay   *int   `json:"numOfBotsInPlay"`
		CurrentTick       int    `json:"currentTick"`
	} `json:"gameInfo"`
	Players []json.RawMessage `json:"players"`
	Items   []struct {
		X    *int   `json:"x"`
		Y    *int   `json:"y"`
		Z    *int   `json:"z"`
		Type string `json:"type"`
	} `json:"items"`
}

// loadedPlayer is one entry of a request's players.
type loadedPlayer struct {
	Name    string
	X, Y, Z int
	stray   []uint32
}

// parsePlayer reads {name, x, y, z} with any stray properties, each named
// by one UTF-16 code unit or "undefined" and null, as [StrayMove] leaves
// them.
func parsePlayer(raw []byte) (loadedPlayer, error) {
	var p loadedPlayer
	v, ok := jsonParse(decodeUTF8(raw))
	if !ok || v.kind != jsObject {
		return p, fmt.Errorf("not a JSON object")
	}
	var have [4]bool
	for i, k := range v.keys {
		val := v.vals[i]
		switch {
		case unitsEqual(k, "name"):
			if val.kind != jsString {
				return p, fmt.Errorf("name is not a string")
			}
			p.Name, have[0] = string(utf16.Decode(val.str)), true
		case unitsEqual(k, "x"), unitsEqual(k, "y"), unitsEqual(k, "z"):
			c := int(k[0] - 'x')
			if val.kind != jsNumber || val.num != math.Trunc(val.num) || math.Abs(val.num) > math.MaxInt32 {
				return p, fmt.Errorf("%c is not an integer", k[0])
			}
			*[3]*int{&p.X, &p.Y, &p.Z}[c] = int(val.num)
			have[1+c] = true
		case val.kind == jsNull && (len(k) == 1 || unitsEqual(k, "undefined")):
			u := uint32(NoAxis)
			if len(k) == 1 {
				u = uint32(k[0])
			}
			if len(p.stray) == MaxStrayKeys {
				return p, fmt.Errorf("more than %d stray properties", MaxStrayKeys)
			}
			p.stray = append(p.stray, u)
		default:
			return p, fmt.Errorf("unknown field %q", string(utf16.Decode(k)))
		}
	}
	if !have[0] || !have[1] || !have[2] || !have[3] {
		return p, fmt.Errorf("want name, x, y and z")
	}
	return p, nil
}

// LoadNative replaces the game state with a bot request (request.json; a
// currentPlayer key is optional and ignored). The listed players are the
// bots in play: when every name is a configured name they keep their
// seats (listed in seat order); otherwise they take seats 0, 1, ... with
// the names given. Seats not listed are lost before the loaded tick
// (highScore 0). The loaded tick's events are empty. Unknown keys and data
// after the object are errors ([env.DecodeJSON]). On error the game is
// unchanged.
func (g *Game) LoadNative(data []byte) error {
	var r request
	if err := env.DecodeJSON(data, &r); err != nil {
		return fmt.Errorf("battlecube: request.json: %v", err)
	}
	if r.GameInfo == nil {
		return fmt.Errorf("battlecube: request.json: missing gameInfo")
	}
	players := make([]loadedPlayer, len(r.Players))
	for i, raw := range r.Players {
		p, err := parsePlayer(raw)
		if err != nil {
			return fmt.Errorf("battlecube: request.json: players[%d]: %v", i, err)
		}
		players[i] = p
	}
	gi := r.GameInfo
	if gi.EdgeLength != g.edge {
		return fmt.Errorf("battlecube: request.json: gameInfo.edgeLength %d, config edge %d", gi.EdgeLength, g.edge)
	}
	if gi.NumOfTasksPerTick != g.tasks {
		return fmt.Errorf("battlecube: request.json: gameInfo.numOfTasksPerTick %d, config tasks_per_tick %d", gi.NumOfTasksPerTick, g.tasks)
	}
	if gi.CurrentTick < 0 || gi.CurrentTick >= g.maxTicks {
		return fmt.Errorf("battlecube: request.json: gameInfo.currentTick %d: want 0–%d", gi.CurrentTick, g.maxTicks-1)
	}
	if len(players) > g.n {
		return fmt.Errorf("battlecube: request.json: %d players, the config has %d seats", len(players), g.n)
	}
	if gi.NumOfBotsInPlay != nil && *gi.NumOfBotsInPlay != len(players) {
		return fmt.Errorf("battlecube: request.json: numOfBotsInPlay %d, but %d players are listed", *gi.NumOfBotsInPlay, len(players))
	}
	seatOf := make([]int, len(players))
	byConfig := true
	last := -1
	for i, p := range players {
		seat := -1
		for s := range g.n {
			if g.cfg.name(s) == p.Name {
				seat = s
			}
		}
		if seat <= last {
			byConfig = false
			break
		}
		seatOf[i], last = seat, seat
	}
	var names [MaxPlayers]string
	for s := range g.n {
		names[s] = g.cfg.name(s)
	}
	if !byConfig {
		for i, p := range players {
			seatOf[i] = i
			names[i] = p.Name
		}
	}
	seen := map[string]bool{}
	for s := range g.n {
		if seen[names[s]] {
			return fmt.Errorf("battlecube: request.json: player name %q used twice (with the config's names of unlisted seats)", names[s])
		}
		seen[names[s]] = true
	}
	for i, p := range players {
		if !g.inCube(p.X, p.Y, p.Z) {
			return fmt.Errorf("battlecube: request.json: players[%d] at (%d,%d,%d) is outside the cube", i, p.X, p.Y, p.Z)
		}
	}
	outside := 0
	cells := map[[3]int]bool{}
	for i, it := range r.Items {
		if it.Type != "BOMB" {
			return fmt.Errorf("battlecube: request.json: items[%d].type %q, want \"BOMB\"", i, it.Type)
		}
		if it.X == nil && it.Y == nil && it.Z == nil {
			// {"type":"BOMB"}: the bomb of BombNowhere.
			if cells[[3]int{math.MinInt32, 0, 0}] {
				return fmt.Errorf("battlecube: request.json: items[%d]: a second bomb without coordinates", i)
			}
			cells[[3]int{math.MinInt32, 0, 0}] = true
			outside++
			continue
		}
		if it.X == nil || it.Y == nil || it.Z == nil {
			return fmt.Errorf("battlecube: request.json: items[%d]: want x, y and z, or none", i)
		}
		x, y, z := *it.X, *it.Y, *it.Z
		if x < 0 || y < 0 || z < 0 || x > math.MaxInt32 || y > math.MaxInt32 || z > math.MaxInt32 {
			return fmt.Errorf("battlecube: request.json: items[%d] at (%d,%d,%d): want coordinates 0 or more", i, x, y, z)
		}
		k := [3]int{x, y, z}
		if cells[k] {
			return fmt.Errorf("battlecube: request.json: items[%d]: a second bomb on (%d,%d,%d)", i, x, y, z)
		}
		cells[k] = true
		if !g.inCube(x, y, z) {
			outside++
		}
	}
	if outside > MaxOutsideBombs {
		return fmt.Errorf("battlecube: request.json: %d bombs outside the cube, at most %d", outside, MaxOutsideBombs)
	}

	// Valid: replace the state.
	g.id = gi.ID
	g.tick = gi.CurrentTick
	g.done, g.winnerFound, g.truncatedEnd = false, false, false
	g.nGroups, g.nLost, g.nEvents = 0, 0, 0
	clear(g.invalid[:g.n])
	clear(g.hist) // a loaded state has no history
	for s := range g.n {
		g.players[s] = Player{Name: names[s], URL: g.cfg.url(s)}
	}
	for i, p := range players {
		s := seatOf[i]
		pl := &g.players[s]
		pl.InPlay = true
		pl.X, pl.Y, pl.Z = p.X, p.Y, p.Z
		for _, u := range p.stray {
			if !g.hasStray(s, int(u)) {
				g.strays[s][pl.nStray] = u
				pl.nStray++
			}
		}
	}
	for s := range g.n {
		if !g.players[s].InPlay {
			p := &g.players[s]
			p.Lost, p.Cause, p.lostOrder = true, CauseEarlier, uint8(g.nLost)
			g.lost[g.nLost] = uint8(s)
			g.nLost++
		}
	}
	if g.cycStart != nil {
		g.recordCycleStarts() // a loaded state's cycle starts where its bots are
	}
	g.items = g.items[:0]
	clear(g.bombBits)
	g.bombsChanged()
	g.outside = outside
	for _, it := range r.Items {
		if it.X == nil {
			g.items = append(g.items, nowhere)
			continue
		}
		x, y, z := *it.X, *it.Y, *it.Z
		if g.inCube(x, y, z) {
			g.setBombIn(g.index(x, y, z), true)
		}
		g.items = append(g.items, Item{int32(x), int32(y), int32(z)})
	}
	if g.nLost == g.n || g.InPlay() == 1 {
		// The original would not ask: the game ended in the tick before.
		g.done = true
		g.winnerFound = g.InPlay() == 1
	}
	return nil
}

// ParseCommand reads seat's reply, a JSON task array, as the server
// validates and carries it out (spec §5), and returns the task of the
// coming tick (element SubTick()-1), so a scenario gives the same reply in
// every tick of a cycle. The body is decoded as UTF-8 and parsed by
// JSON.parse (res.json() of node-fetch 1.x), validated by the original's
// Joi 11 schema with Joi's conversions, and the element is read as
// applyBotDirections reads it:
//
//   - a body that is not JSON: [RejectConnection], ok false;
//   - a value that is not an array of tasks matching the schemas:
//     [RejectSchema], ok false. A JSON string holding the array, or
//     holding an element, counts as that array or element (Joi parses
//     it). Each element is {task, x, y, z}, {task} or {task, direction},
//     with no other keys; task and direction non-empty strings; x, y, z
//     safe integers ≥ 0, where a string is converted as Joi 11 does:
//     parseFloat of it, provided Number() of it is finite, so "0x3",
//     "0b11" and "0o7" are 0, " 5 " and "\ufeff5" are 5, "" and
//     "9007199254740992" fail. A "__proto__" key holding an object is no
//     key of the element (Joi's copy makes it the prototype) and lends it
//     the keys it holds.
//   - an array whose length is not TasksPerTick: [RejectAmount], ok false;
//   - {"task":"NOOP"}: Noop; {"task":"BOMB",x,y,z} on a cube cell: the
//     bomb action; {"task":"MOVE","direction":d}: the move that d names,
//     lower-cased as the server does and split into UTF-16 code units, the
//     first the sign ('+', any other subtracts), the second the axis
//     ("+x" is +X, "-XY" is -X). All with ok true.
//   - the tasks the server accepts that are none of those, each an
//     out-of-range action with ok false, carried out at the bot's turn:
//     [StrayMove] for a direction whose second code unit is not x, y or z
//     ("foo", "+", "😀x"), [CrashMove] for a MOVE without a string
//     direction, [BombNowhere] for a BOMB without coordinates, [Idle] for
//     any other task name.
//   - a bomb off the cube's cells (a coordinate ≥ the edge, or one that
//     only "__proto__" gives, not a whole number ≥ 0): Noop with ok false,
//     as the action space cannot place it.
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	a, ok := parseReply(text, g.tasks, g.SubTick()-1, g.edge)
	return int32(a), ok
}

// parseReply implements ParseCommand for a reply of tasks elements,
// returning the action of element k.
func parseReply(text []byte, tasks, k, edge int) (Action, bool) {
	v, ok := jsonParse(decodeUTF8(text))
	if !ok {
		// JSON.parse rejects it, trailing data included ("404 page not
		// found" is not the number 404).
		return RejectConnection, false
	}
	parsed, ok := joiTasks(v)
	if !ok {
		return RejectSchema, false
	}
	if len(parsed) != tasks {
		return RejectAmount, false
	}
	return taskAction(parsed[k], edge)
}

// AppendCommand appends a reply that ParseCommand reads as action: the
// task repeated TasksPerTick times. RejectAmount (and any action that
// stands for nothing) gives [], RejectSchema a bomb with a negative
// coordinate, RejectConnection an empty body; CrashMove, BombNowhere, Idle
// and StrayMove give the tasks they stand for.
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	a := Action(action)
	unit, stray := StrayUnit(a)
	switch {
	case a == RejectConnection:
		return dst
	case a == RejectSchema:
		return append(dst, `[{"task":"BOMB","x":-1,"y":0,"z":0}]`...)
	case !stray && a != CrashMove && a != BombNowhere && a != Idle && (a < 0 || int(a) >= g.spec.Actions):
		return append(dst, "[]"...)
	}
	dst = append(dst, '[')
	for i := range g.tasks {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch {
		case stray && unit == NoAxis:
			dst = append(dst, `{"task":"MOVE","direction":"+"}`...)
		case stray:
			dst = append(dst, `{"task":"MOVE","direction":"+`...)
			dst = appendUnit(dst, uint32(unit))
			dst = append(dst, `"}`...)
		case a == CrashMove:
			dst = append(dst, `{"task":"MOVE"}`...)
		case a == BombNowhere:
			dst = append(dst, `{"task":"BOMB"}`...)
		case a == Idle:
			dst = append(dst, `{"task":"WAIT"}`...)
		case a == Noop:
			dst = append(dst, `{"task":"NOOP"}`...)
		case a < NumFixedActions:
			dst = append(dst, `{"task":"MOVE","direction":"`...)
			dst = append(dst, moveNames[a]...)
			dst = append(dst, `"}`...)
		default:
			x, y, z, _ := BombCell(g.edge, a)
			dst = append(dst, `{"task":"BOMB",`...)
			dst = appendXYZ(dst, x, y, z, true)
			dst = append(dst, '}')
		}
	}
	return append(dst, ']')
}
