package battlecube

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
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
	dst = g.appendTickInfo(dst, g.tick, g.InPlay(), func(s int) (bool, int, int, int) {
		p := &g.players[s]
		return p.InPlay, p.X, p.Y, p.Z
	}, len(g.items), true)
	return append(dst, '}')
}

// appendSetup writes seat's playerSetup {name, url}.
func (g *Game) appendSetup(dst []byte, seat int) []byte {
	p := &g.players[seat]
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, p.Name)
	if p.URL != "" {
		dst = append(dst, `,"url":`...)
		dst = appendString(dst, p.URL)
	}
	return append(dst, '}')
}

// appendTickInfo writes "gameInfo":{...},"players":[...],"items":[...]
// for the given tick, positions and the first nItems items (skipping
// used-up bombs when visible is set).
func (g *Game) appendTickInfo(dst []byte, tick, inPlay int, pos func(s int) (bool, int, int, int), nItems int, visible bool) []byte {
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
		in, x, y, z := pos(s)
		if !in {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, g.players[s].Name)
		dst = appendXYZ(dst, x, y, z, false)
		dst = append(dst, '}')
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
		dst = append(dst, '{')
		dst = appendXYZ(dst, int(it.X), int(it.Y), int(it.Z), true)
		dst = append(dst, `,"type":"BOMB"}`...)
	}
	return append(dst, ']')
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
			if g.snapInPlay[o] {
				inPlay++
			}
		}
		dst = append(dst, '{')
		dst = g.appendTickInfo(dst, g.snapTick, inPlay, func(o int) (bool, int, int, int) {
			p := g.snapPos[o]
			return g.snapInPlay[o], int(p[0]), int(p[1]), int(p[2])
		}, g.snapItems, false)
		return append(dst, '}')
	case evMoveAttempt:
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, g.players[s].Name)
		dst = appendXYZ(dst, int(e.x), int(e.y), int(e.z), false)
		return append(dst, '}')
	case evPlacedBomb, evDidNothing:
		dst = append(dst, '{')
		dst = appendXYZ(dst, int(e.x), int(e.y), int(e.z), true)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, g.players[s].Name)
		return append(dst, '}')
	case evLost:
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, g.players[s].Name)
		dst = append(dst, `,"cause":`...)
		dst = appendCause(dst, e.cause)
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
	p := &g.players[s]
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, p.Name)
	if p.URL != "" {
		dst = append(dst, `,"url":`...)
		dst = appendString(dst, p.URL)
	}
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
	Players []struct {
		Name string `json:"name"`
		X    int    `json:"x"`
		Y    int    `json:"y"`
		Z    int    `json:"z"`
	} `json:"players"`
	Items []struct {
		X    int    `json:"x"`
		Y    int    `json:"y"`
		Z    int    `json:"z"`
		Type string `json:"type"`
	} `json:"items"`
}

// LoadNative replaces the game state with a bot request (request.json; a
// currentPlayer key is optional and ignored). The listed players are the
// bots in play: when every name is a configured name they keep their
// seats (listed in seat order); otherwise they take seats 0, 1, ... with
// the names given. Seats not listed are lost before the loaded tick
// (highScore 0). The loaded tick's events are empty. On error the game is
// unchanged.
func (g *Game) LoadNative(data []byte) error {
	var r request
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return fmt.Errorf("battlecube: request.json: %v", err)
	}
	if r.GameInfo == nil {
		return fmt.Errorf("battlecube: request.json: missing gameInfo")
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
	if len(r.Players) > g.n {
		return fmt.Errorf("battlecube: request.json: %d players, the config has %d seats", len(r.Players), g.n)
	}
	if gi.NumOfBotsInPlay != nil && *gi.NumOfBotsInPlay != len(r.Players) {
		return fmt.Errorf("battlecube: request.json: numOfBotsInPlay %d, but %d players are listed", *gi.NumOfBotsInPlay, len(r.Players))
	}
	seatOf := make([]int, len(r.Players))
	byConfig := true
	last := -1
	for i, p := range r.Players {
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
		for i, p := range r.Players {
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
	for i, p := range r.Players {
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
		if it.X < 0 || it.Y < 0 || it.Z < 0 || it.X > math.MaxInt32 || it.Y > math.MaxInt32 || it.Z > math.MaxInt32 {
			return fmt.Errorf("battlecube: request.json: items[%d] at (%d,%d,%d): want coordinates 0 or more", i, it.X, it.Y, it.Z)
		}
		k := [3]int{it.X, it.Y, it.Z}
		if cells[k] {
			return fmt.Errorf("battlecube: request.json: items[%d]: a second bomb on (%d,%d,%d)", i, it.X, it.Y, it.Z)
		}
		cells[k] = true
		if !g.inCube(it.X, it.Y, it.Z) {
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
	clear(g.invalid[:])
	clear(g.lostThisRun[:])
	for s := range g.n {
		g.players[s] = Player{Name: names[s], URL: g.cfg.url(s)}
	}
	for i, p := range r.Players {
		pl := &g.players[seatOf[i]]
		pl.InPlay = true
		pl.X, pl.Y, pl.Z = p.X, p.Y, p.Z
	}
	for s := range g.n {
		if !g.players[s].InPlay {
			p := &g.players[s]
			p.Lost, p.Cause, p.lostOrder = true, CauseEarlier, g.nLost
			g.lost[g.nLost] = uint8(s)
			g.nLost++
		}
	}
	g.items = g.items[:0]
	clear(g.bombAt)
	g.outside = outside
	for _, it := range r.Items {
		if g.inCube(it.X, it.Y, it.Z) {
			g.bombAt[g.index(it.X, it.Y, it.Z)] = 1
		}
		g.items = append(g.items, Item{int32(it.X), int32(it.Y), int32(it.Z)})
	}
	if g.nLost == g.n || g.InPlay() == 1 {
		// The original would not ask: the game ended in the tick before.
		g.done = true
		g.winnerFound = g.InPlay() == 1
	}
	return nil
}

// ParseCommand reads seat's reply, a JSON task array, as the server
// validates it (spec §5), and returns the task of the coming tick (element
// SubTick()-1), so a scenario gives the same reply in every tick of a
// cycle:
//
//   - a body that is not JSON: [RejectConnection], ok false;
//   - a value that is not an array of tasks matching the schemas ({task,
//     x, y, z} with integers ≥ 0, numeric strings converted; {task};
//     {task, direction}; task and direction non-empty strings; no other
//     keys): [RejectSchema], ok false;
//   - an array whose length is not TasksPerTick: [RejectAmount], ok false;
//   - {"task":"BOMB",x,y,z} in the cube: the bomb action; {"task":"NOOP"}:
//     Noop; {"task":"MOVE","direction":d}: the move its first two
//     characters name, lower-cased as the server reads them ("+x" is +X,
//     "-XY" is -X, any sign other than '+' subtracts);
//   - a MOVE without a direction crashes the server's move code: the bot
//     is lost with cause {}, [RejectConnection], ok false;
//   - what the original accepts but an action cannot express returns Noop
//     with ok false: a bomb outside the cube, a direction whose second
//     character is not an axis (the original emits a MOVE_ATTEMPT and
//     leaves the bot where it is), and tasks other than MOVE, BOMB and NOOP
//     (the original does nothing and emits no event).
func (g *Game) ParseCommand(seat int, text []byte) (action int32, ok bool) {
	a, ok := parseReply(text, g.tasks, g.SubTick()-1, g.edge)
	return int32(a), ok
}

// parseReply implements ParseCommand for a reply of tasks elements,
// returning the action of element k.
func parseReply(text []byte, tasks, k, edge int) (Action, bool) {
	if !json.Valid(text) {
		// JSON.parse rejects it, trailing data included ("404 page not
		// found" is not the number 404).
		return RejectConnection, false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return RejectConnection, false
	}
	arr, isArr := v.([]any)
	if !isArr {
		return RejectSchema, false
	}
	type task struct {
		kind      int // 0 bomb, 1 noop, 2 move
		task, dir string
		x, y, z   int64
	}
	parsed := make([]task, len(arr))
	for i, el := range arr {
		obj, isObj := el.(map[string]any)
		if !isObj {
			return RejectSchema, false
		}
		t, isStr := obj["task"].(string)
		if !isStr || t == "" {
			return RejectSchema, false
		}
		switch {
		case len(obj) == 4 && has(obj, "x", "y", "z"):
			x, okx := joiInt(obj["x"])
			y, oky := joiInt(obj["y"])
			z, okz := joiInt(obj["z"])
			if !okx || !oky || !okz {
				return RejectSchema, false
			}
			parsed[i] = task{kind: 0, task: t, x: x, y: y, z: z}
		case len(obj) == 1:
			parsed[i] = task{kind: 1, task: t}
		case len(obj) == 2 && has(obj, "direction"):
			d, isStr := obj["direction"].(string)
			if !isStr || d == "" {
				return RejectSchema, false
			}
			parsed[i] = task{kind: 2, task: t, dir: d}
		default:
			return RejectSchema, false
		}
	}
	if len(parsed) != tasks {
		return RejectAmount, false
	}
	t := parsed[k]
	switch t.task {
	case "NOOP":
		return Noop, true
	case "BOMB":
		if t.kind != 0 {
			return Noop, false // coordinates undefined
		}
		e := int64(edge)
		if t.x >= e || t.y >= e || t.z >= e {
			return Noop, false
		}
		return BombAction(edge, int(t.x), int(t.y), int(t.z)), true
	case "MOVE":
		if t.kind != 2 {
			return RejectConnection, false // TypeError in the move code
		}
		return parseDirection(t.dir)
	}
	return Noop, false
}

// parseDirection reads a direction as moveBot does: lower-cased, split
// into characters, the first the sign and the second the axis.
func parseDirection(d string) (Action, bool) {
	d = strings.ToLower(d)
	op, size := utf8.DecodeRuneInString(d)
	axis, _ := utf8.DecodeRuneInString(d[size:])
	var a Action
	switch axis {
	case 'x':
		a = MovePlusX
	case 'y':
		a = MovePlusY
	case 'z':
		a = MovePlusZ
	default:
		return Noop, false
	}
	if op != '+' {
		a++
	}
	return a, true
}

// has reports whether obj has every key.
func has(obj map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

// joiInt reads an integer ≥ 0 as Joi's number().integer().min(0) with
// conversion does: JSON numbers and numeric strings.
func joiInt(v any) (int64, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case string:
		s = strings.TrimSpace(n)
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// AppendCommand appends a reply that ParseCommand reads as action: the
// task repeated TasksPerTick times. RejectAmount gives [], RejectSchema a
// bomb with a negative coordinate, RejectConnection an empty body.
func (g *Game) AppendCommand(dst []byte, seat int, action int32) []byte {
	a := Action(action)
	switch {
	case a == RejectConnection:
		return dst
	case a == RejectSchema:
		return append(dst, `[{"task":"BOMB","x":-1,"y":0,"z":0}]`...)
	case a < 0 || int(a) >= g.spec.Actions:
		return append(dst, "[]"...)
	}
	dst = append(dst, '[')
	for i := range g.tasks {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch {
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
