package portalbomber

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/botarena/botarena/env"
)

type jsonPortal struct {
	X         *int `json:"x"`
	Y         *int `json:"y"`
	Direction *int `json:"direction"`
}

type jsonPlayer struct {
	X            *int        `json:"x"`
	Y            *int        `json:"y"`
	Orientation  *int        `json:"orientation"`
	BombCount    *int        `json:"bombCount"`
	BombRange    *int        `json:"bombRange"`
	BombPierce   *int        `json:"bombPierce"`
	Alive        *bool       `json:"alive"`
	Coins        *int        `json:"coins"`
	OrangePortal *jsonPortal `json:"orangePortal"`
	BluePortal   *jsonPortal `json:"bluePortal"`
}

type jsonState struct {
	GameID         *string         `json:"gameID"`
	PlayerID       *string         `json:"playerID"`
	State          *string         `json:"state"`
	BoardSize      *int            `json:"boardSize"`
	Player         *jsonPlayer     `json:"player"`
	MoveOrder      []int           `json:"moveOrder"`
	MoveIterator   *int            `json:"moveIterator"`
	PlayerIndex    *int            `json:"playerIndex"`
	MoveNumber     *int            `json:"moveNumber"`
	Opponent       *jsonPlayer     `json:"opponent"`
	HardBlockBoard []int           `json:"hardBlockBoard"`
	SoftBlockBoard []int           `json:"softBlockBoard"`
	TrailMap       json.RawMessage `json:"trailMap"`
	BombMap        json.RawMessage `json:"bombMap"`
	PortalMap      json.RawMessage `json:"portalMap"`
	Note           *string         `json:"note"` // the engine's note, when present; ignored
}

// statLimit bounds counters read from a state (coins, bombs, range, pierce).
const statLimit = 1 << 20

// LoadNative replaces the game with a state in the canonical format, the
// state object the original sends a player (any playerIndex). The loader is
// strict: every field is required (except the engine's "note"), unknown
// fields are errors, and the state must be one the engine can reach: a
// border-agnostic board of the configured size, players on free cells (or
// at (-1,-1) once dead), bombs on free cells with ticks 1–5, explosion
// trails with ticks 1–2 owned by "0" or "1", fire ("-1", "apocalypse", tick
// 0), portals on blocks that match their owners' references, and
// moveNumber mod 2 = moveIterator. Trail owner "undefined" (the original's
// bug, §10.1) is refused. Map entries keep the order they are listed in. The
// unseen opponent's playerID is derived from gameID. Errors name the JSON
// path; on error the game is unchanged.
func (g *Game) LoadNative(data []byte) error {
	var js jsonState
	if err := env.DecodeJSON(data, &js); err != nil {
		return fmt.Errorf("portalbomber: state: %v", err)
	}
	t := *g // work on a copy; commit at the end
	if err := t.load(&js); err != nil {
		return fmt.Errorf("portalbomber: state: %w", err)
	}
	*g = t
	g.boardChanged()
	g.marksChanged()
	return nil
}

func missing(path string) error { return fmt.Errorf("%s: missing", path) }

func rangeErr(path string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: want %d–%d, got %d", path, lo, hi, v)
	}
	return nil
}

func parseID(dst *[24]byte, s *string, path string) error {
	if s == nil {
		return missing(path)
	}
	if len(*s) != 24 || strings.Trim(*s, "0123456789abcdef") != "" {
		return fmt.Errorf("%s: want 24 lower-case hex digits (a Mongo id), got %q", path, *s)
	}
	copy(dst[:], *s)
	return nil
}

func (g *Game) load(js *jsonState) error {
	n := g.cfg.Size
	if js.BoardSize == nil {
		return missing("boardSize")
	}
	if *js.BoardSize != n {
		return fmt.Errorf("boardSize: want %d (the config's size), got %d", n, *js.BoardSize)
	}
	g.n = n
	g.killedBy = [Seats]uint8{} // a player loaded dead died of an unknown cause
	if js.PlayerIndex == nil {
		return missing("playerIndex")
	}
	if err := rangeErr("playerIndex", *js.PlayerIndex, 0, 1); err != nil {
		return err
	}
	seat := *js.PlayerIndex
	if err := parseID(&g.gameID, js.GameID, "gameID"); err != nil {
		return err
	}
	if err := parseID(&g.playerIDs[seat], js.PlayerID, "playerID"); err != nil {
		return err
	}
	hexID(&g.playerIDs[1-seat], env.SplitMix64(env.SplitMix64(uint64(len(g.gameID)))^uint64(g.gameID[0])<<8^uint64(g.gameID[23])))
	g.idsLoaded = true
	if js.State == nil {
		return missing("state")
	}
	switch *js.State {
	case "in progress":
		g.state, g.winner = stateInProgress, -2
	case "complete":
		g.state = stateComplete
	default:
		return fmt.Errorf(`state: want "in progress" or "complete", got %q`, *js.State)
	}
	if len(js.MoveOrder) != 2 || js.MoveOrder[0] == js.MoveOrder[1] || js.MoveOrder[0] < 0 || js.MoveOrder[0] > 1 || js.MoveOrder[1] < 0 || js.MoveOrder[1] > 1 {
		return fmt.Errorf("moveOrder: want [0,1] or [1,0], got %v", js.MoveOrder)
	}
	g.moveOrder = [Seats]uint8{uint8(js.MoveOrder[0]), uint8(js.MoveOrder[1])} // 0 and 1 (checked above)
	if js.MoveIterator == nil {
		return missing("moveIterator")
	}
	if js.MoveNumber == nil {
		return missing("moveNumber")
	}
	if err := rangeErr("moveNumber", *js.MoveNumber, 0, statLimit); err != nil {
		return err
	}
	g.moveIterator, g.moveNumber = *js.MoveIterator, *js.MoveNumber
	if g.cfg.Simultaneous {
		if g.moveIterator != 0 || g.moveNumber%2 != 0 {
			return fmt.Errorf("moveIterator: with simultaneous moves want 0 and an even moveNumber, got %d and %d", g.moveIterator, g.moveNumber)
		}
	} else if g.moveIterator != g.moveNumber%2 {
		return fmt.Errorf("moveIterator: want moveNumber mod 2 = %d, got %d", g.moveNumber%2, g.moveIterator)
	}
	// Boards first: players, bombs and portals are checked against them.
	g.clearBoard()
	for k, b := range [2]struct {
		name string
		v    []int
	}{{"hardBlockBoard", js.HardBlockBoard}, {"softBlockBoard", js.SoftBlockBoard}} {
		if len(b.v) != n*n {
			return fmt.Errorf("%s: want %d entries (index x*%d+y), got %d", b.name, n*n, n, len(b.v))
		}
		for i, v := range b.v {
			if v != 0 && v != 1 {
				return fmt.Errorf("%s[%d]: want 0 or 1, got %d", b.name, i, v)
			}
			c := &g.cells[g.idx(i/n, i%n)]
			if k == 0 {
				c.hard = v == 1
			} else if v == 1 {
				if c.hard {
					return fmt.Errorf("%s[%d]: a soft block on a hard block at (%d,%d)", b.name, i, i/n, i%n)
				}
				c.soft = true
			}
		}
	}
	for k, jp := range [2]*jsonPlayer{js.Player, js.Opponent} {
		s, name := seat, "player"
		if k == 1 {
			s, name = 1-seat, "opponent"
		}
		if err := g.loadPlayer(s, jp, name); err != nil {
			return err
		}
	}
	p0, p1 := &g.players[0], &g.players[1]
	if p0.Alive && p1.Alive && p0.X == p1.X && p0.Y == p1.Y {
		return fmt.Errorf("opponent: on the player's cell (%d,%d)", p0.X, p0.Y)
	}
	switch {
	case g.state == stateInProgress && (!p0.Alive || !p1.Alive):
		return fmt.Errorf(`state: "in progress" with a dead player (the engine ends the game at the round end that kills)`)
	case g.state == stateComplete && p0.Alive && p1.Alive:
		return fmt.Errorf(`state: "complete" with both players alive (a timeout result, which has no rule-based winner)`)
	case g.state == stateComplete && p0.Alive:
		g.winner = 0
	case g.state == stateComplete && p1.Alive:
		g.winner = 1
	case g.state == stateComplete:
		g.winner = -1
	}
	if err := g.loadTrails(js.TrailMap); err != nil {
		return err
	}
	if err := g.loadBombs(js.BombMap); err != nil {
		return err
	}
	if err := g.loadPortals(js.PortalMap); err != nil {
		return err
	}
	steps := 0
	if r, a := g.moveNumber/2, g.cfg.ApocalypseAfter/2; r > a {
		steps = r - a
	}
	g.fireX, g.fireY, g.fireDir = fireHeads(n, steps)
	g.steps = int32(g.moveNumber) // at most statLimit
	if g.cfg.Simultaneous {
		g.steps = int32(g.moveNumber / 2)
	}
	g.invalid = [Seats]int32{}
	return nil
}

func (g *Game) loadPlayer(s int, jp *jsonPlayer, name string) error {
	if jp == nil {
		return missing(name)
	}
	for _, f := range []struct {
		v  *int
		k  string
		hi int
	}{{jp.X, "x", g.n - 1}, {jp.Y, "y", g.n - 1}, {jp.Orientation, "orientation", 3}, {jp.BombCount, "bombCount", statLimit},
		{jp.BombRange, "bombRange", statLimit}, {jp.BombPierce, "bombPierce", statLimit}, {jp.Coins, "coins", statLimit}} {
		if f.v == nil {
			return missing(name + "." + f.k)
		}
		lo := 0
		if f.k == "x" || f.k == "y" {
			lo = -1
		}
		if err := rangeErr(name+"."+f.k, *f.v, lo, f.hi); err != nil {
			return err
		}
	}
	if jp.Alive == nil {
		return missing(name + ".alive")
	}
	p := &Player{X: *jp.X, Y: *jp.Y, Orientation: *jp.Orientation, BombCount: *jp.BombCount, BombRange: *jp.BombRange,
		BombPierce: *jp.BombPierce, Alive: *jp.Alive, Coins: *jp.Coins}
	if !p.Alive && (p.X != -1 || p.Y != -1) {
		return fmt.Errorf("%s: dead players stand at (-1,-1), got (%d,%d)", name, p.X, p.Y)
	}
	if p.Alive {
		if p.X < 0 || p.Y < 0 {
			return fmt.Errorf("%s: alive at (%d,%d), off the board", name, p.X, p.Y)
		}
		if c := &g.cells[g.idx(p.X, p.Y)]; c.hard || c.soft {
			return fmt.Errorf("%s: at (%d,%d), on a block", name, p.X, p.Y)
		}
	}
	for c, jq := range [2]*jsonPortal{jp.OrangePortal, jp.BluePortal} {
		if jq == nil {
			continue
		}
		path := name + "." + colorNames[c] + "Portal"
		if jq.X == nil || jq.Y == nil || jq.Direction == nil {
			return fmt.Errorf("%s: want {x, y, direction}", path)
		}
		if err := rangeErr(path+".x", *jq.X, 0, g.n-1); err != nil {
			return err
		}
		if err := rangeErr(path+".y", *jq.Y, 0, g.n-1); err != nil {
			return err
		}
		if err := rangeErr(path+".direction", *jq.Direction, 0, 3); err != nil {
			return err
		}
		p.Portals[c] = Portal{X: *jq.X, Y: *jq.Y, Dir: *jq.Direction, Set: true}
	}
	g.setPlayer(s, *p)
	return nil
}

type member struct {
	key string
	val json.RawMessage
}

// members reads a JSON object's members in order; null or absent is an
// error (the original always sends the three maps).
func members(raw json.RawMessage, path string) ([]member, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, missing(path)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s: want an object", path)
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		k := tok.(string)
		if seen[k] {
			return nil, fmt.Errorf("%s[%q]: duplicate key", path, k)
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s[%q]: %v", path, k, err)
		}
		out = append(out, member{k, v})
	}
	return out, nil
}

// cellKey parses the original's "x,y" key.
func (g *Game) cellKey(k, path string) (int, error) {
	xs, ys, ok := strings.Cut(k, ",")
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	if !ok || err1 != nil || err2 != nil || strconv.Itoa(x) != xs || strconv.Itoa(y) != ys {
		return 0, fmt.Errorf("%s[%q]: want a key \"x,y\"", path, k)
	}
	if !g.inBoard(x, y) {
		return 0, fmt.Errorf("%s[%q]: off the %d×%d board", path, k, g.n, g.n)
	}
	return g.idx(x, y), nil
}

// cellMember is a member of one of the original's cell maps (trailMap,
// bombMap, portalMap): the cell's index, the member's path for errors
// (name["x,y"]) and its value.
type cellMember struct {
	i    int
	path string
	val  json.RawMessage
}

// cellMembers reads the cell map name, whose keys are "x,y" cells of the
// board, in order.
func (g *Game) cellMembers(raw json.RawMessage, name string) ([]cellMember, error) {
	ms, err := members(raw, name)
	if err != nil {
		return nil, err
	}
	out := make([]cellMember, len(ms))
	for k, m := range ms {
		i, err := g.cellKey(m.key, name)
		if err != nil {
			return nil, err
		}
		out[k] = cellMember{i: i, path: fmt.Sprintf("%s[%q]", name, m.key), val: m.val}
	}
	return out, nil
}

func strictDecode(raw json.RawMessage, v any, path string) error {
	if err := env.DecodeJSON(raw, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func (g *Game) loadTrails(raw json.RawMessage) error {
	cells, err := g.cellMembers(raw, "trailMap")
	if err != nil {
		return err
	}
	for _, m := range cells {
		i, path := m.i, m.path
		owners, err := members(m.val, path)
		if err != nil {
			return err
		}
		if len(owners) == 0 {
			return fmt.Errorf("%s: empty (the engine deletes a cell's entry with its last trail)", path)
		}
		c := &g.cells[i]
		g.seq++
		c.trailSeq = g.seq
		for _, o := range owners {
			opath := fmt.Sprintf("%s[%q]", path, o.key)
			var jt struct {
				Tick *int    `json:"tick"`
				Type *string `json:"type"`
			}
			if err := strictDecode(o.val, &jt, opath); err != nil {
				return err
			}
			if jt.Tick == nil || jt.Type == nil {
				return fmt.Errorf("%s: want {tick, type}", opath)
			}
			var slot int
			switch o.key {
			case "0", "1":
				slot = int(o.key[0] - '0')
				tt := NoTrail
				switch *jt.Type {
				case "h":
					tt = TrailH
				case "v":
					tt = TrailV
				case "origin":
					tt = TrailOrigin
				default:
					return fmt.Errorf(`%s.type: want "h", "v" or "origin", got %q`, opath, *jt.Type)
				}
				if err := rangeErr(opath+".tick", *jt.Tick, 1, TrailTicks); err != nil {
					return err
				}
				if c.trails[0].Type == NoTrail && c.trails[1].Type == NoTrail {
					g.seatTrails++
				}
				c.trails[slot] = Trail{Tick: int8(*jt.Tick), Type: tt}
				g.listCell(i)
			case "-1":
				if *jt.Type != "apocalypse" || *jt.Tick != 0 {
					return fmt.Errorf(`%s: want {"tick":0,"type":"apocalypse"}, got tick %d type %q`, opath, *jt.Tick, *jt.Type)
				}
				g.setFire(i)
			case "undefined":
				return fmt.Errorf(`%s: owner "undefined" is the original's portal bug (spec §10.1); botarena keeps the bomb's owner`, opath)
			default:
				return fmt.Errorf(`%s: want owner "0", "1" or "-1"`, opath)
			}
		}
	}
	return nil
}

func (g *Game) loadBombs(raw json.RawMessage) error {
	bombs, err := g.cellMembers(raw, "bombMap")
	if err != nil {
		return err
	}
	for _, m := range bombs {
		i, path := m.i, m.path
		var jb struct {
			Owner *int `json:"owner"`
			Tick  *int `json:"tick"`
		}
		if err := strictDecode(m.val, &jb, path); err != nil {
			return err
		}
		if jb.Owner == nil || jb.Tick == nil {
			return fmt.Errorf("%s: want {owner, tick}", path)
		}
		if err := rangeErr(path+".owner", *jb.Owner, 0, 1); err != nil {
			return err
		}
		if err := rangeErr(path+".tick", *jb.Tick, 1, BombTicks); err != nil {
			return err
		}
		if c := &g.cells[i]; c.hard || c.soft {
			return fmt.Errorf("%s: on a block", path)
		}
		g.addBomb(i%g.n, i/g.n, *jb.Owner)
		g.cells[i].bombTick = int8(*jb.Tick)
	}
	return nil
}

func (g *Game) loadPortals(raw json.RawMessage) error {
	blocks, err := g.cellMembers(raw, "portalMap")
	if err != nil {
		return err
	}
	var found [Seats][2]bool
	for _, m := range blocks {
		i, path := m.i, m.path
		faces, err := members(m.val, path)
		if err != nil {
			return err
		}
		c := &g.cells[i]
		g.seq++
		c.portalSeq = g.seq
		g.listCell(i)
		for _, f := range faces {
			fpath := fmt.Sprintf("%s[%q]", path, f.key)
			if len(f.key) != 1 || f.key[0] < '0' || f.key[0] > '3' {
				return fmt.Errorf("%s: want a face \"0\"–\"3\"", fpath)
			}
			d := int(f.key[0] - '0')
			var jf struct {
				Owner       *int    `json:"owner"`
				PortalColor *string `json:"portalColor"`
			}
			if err := strictDecode(f.val, &jf, fpath); err != nil {
				return err
			}
			if jf.Owner == nil || jf.PortalColor == nil {
				return fmt.Errorf("%s: want {owner, portalColor}", fpath)
			}
			if err := rangeErr(fpath+".owner", *jf.Owner, 0, 1); err != nil {
				return err
			}
			col := 0
			switch *jf.PortalColor {
			case "orange":
			case "blue":
				col = 1
			default:
				return fmt.Errorf(`%s.portalColor: want "orange" or "blue", got %q`, fpath, *jf.PortalColor)
			}
			if !c.hard && !c.soft {
				return fmt.Errorf("%s: a portal on a cell without a block", fpath)
			}
			o := *jf.Owner
			ref := g.portals[o][col]
			if !ref.Set || ref.X != i%g.n || ref.Y != i/g.n || ref.Dir != d || found[o][col] {
				return fmt.Errorf("%s: does not match player %d's %sPortal", fpath, o, colorNames[col])
			}
			found[o][col] = true
			c.portals[d] = face{owner: uint8(o + 1), color: uint8(col)}
		}
	}
	for s := range Seats {
		for col := range 2 {
			if g.portals[s][col].Set && !found[s][col] {
				return fmt.Errorf("portalMap: lacks player %d's %sPortal", s, colorNames[col])
			}
		}
	}
	return nil
}
