package battleships

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/botarena/botarena/env"
)

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

func appendInt(dst []byte, v int) []byte { return strconv.AppendInt(dst, int64(v), 10) }

// appendStr appends a JSON string; names are validated to need no escapes.
func appendStr(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

func (g *Game) appendStateJSON(dst []byte, seat int) []byte {
	if seat < 0 {
		dst = append(dst, `{"PlayerMap":null,"OpponentMap":null,`...)
	} else {
		dst = append(dst, `{"PlayerMap":`...)
		dst = g.appendPlayerMap(dst, seat)
		dst = append(dst, `,"OpponentMap":`...)
		dst = g.appendOpponentMap(dst, 1-seat)
		dst = append(dst, ',')
	}
	dst = append(dst, `"GameVersion":"1.0.0","GameLevel":1,"Round":`...)
	dst = appendInt(dst, g.round)
	dst = append(dst, `,"MapDimension":`...)
	dst = appendInt(dst, g.n)
	dst = append(dst, `,"Phase":`...)
	dst = appendInt(dst, g.phase)
	if seat < 0 {
		dst = append(dst, `,"Player1Map":`...)
		dst = g.appendPlayerMap(dst, 0)
		dst = append(dst, `,"Player2Map":`...)
		dst = g.appendPlayerMap(dst, 1)
		return append(dst, '}')
	}
	return append(dst, `,"Player1Map":null,"Player2Map":null}`...)
}

// appendXY appends a cell's coordinates as the members of its JSON object
// that follow the first: ,"X":x,"Y":y.
func appendXY(dst []byte, x, y int) []byte {
	dst = append(dst, `,"X":`...)
	dst = appendInt(dst, x)
	dst = append(dst, `,"Y":`...)
	return appendInt(dst, y)
}

func (g *Game) appendCell(dst []byte, p *Player, x, y int) []byte {
	c := p.cells[x*g.n+y]
	dst = append(dst, `{"Occupied":`...)
	dst = appendBool(dst, c.Ship != 0)
	dst = append(dst, `,"Hit":`...)
	dst = appendBool(dst, c.Hit)
	dst = appendXY(dst, x, y)
	if !g.legacy {
		dst = append(dst, `,"Shielded":`...)
		dst = appendBool(dst, c.Shielded)
		dst = append(dst, `,"ShieldHit":`...)
		dst = appendBool(dst, c.ShieldHit)
	}
	return append(dst, '}')
}

func (g *Game) appendPlayerMap(dst []byte, seat int) []byte {
	p := &g.players[seat]
	n := g.n
	dst = append(dst, `{"Cells":[`...)
	for x := range n {
		for y := range n {
			if x+y > 0 {
				dst = append(dst, ',')
			}
			dst = g.appendCell(dst, p, x, y)
		}
	}
	dst = append(dst, `],"Owner":{"FailedFirstPhaseCommands":`...)
	dst = appendInt(dst, p.Failed)
	dst = append(dst, `,"Name":`...)
	dst = appendStr(dst, p.Name)
	dst = append(dst, `,"Ships":[`...)
	for k := range NumShips {
		sh := &p.Ships[k]
		t := ShipType(k)
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"Cells":[`...)
		for a := range t.Len() {
			if a > 0 {
				dst = append(dst, ',')
			}
			if !sh.Placed {
				dst = append(dst, "null"...)
				continue
			}
			dst = g.appendCell(dst, p, int(sh.X)+dirDX[sh.Dir]*a, int(sh.Y)+dirDY[sh.Dir]*a)
		}
		dst = append(dst, `],"Destroyed":`...)
		dst = appendBool(dst, sh.Destroyed)
		dst = append(dst, `,"Placed":`...)
		dst = appendBool(dst, sh.Placed)
		dst = append(dst, `,"ShipType":`...)
		dst = appendStr(dst, shipNames[k])
		dst = append(dst, `,"Weapons":[{"WeaponType":"SingleShot","EnergyRequired":1},{"WeaponType":"`...)
		w := shipWeapon[k]
		cost := WeaponCost(w, n)
		if g.legacy && w == SeekerMissile {
			dst = append(dst, "SeekerMissle"...)
			cost = 10 * energyPerRound(n) // v1.1: 10 rounds
		} else {
			dst = append(dst, weaponNames[w]...)
		}
		dst = append(dst, `","EnergyRequired":`...)
		dst = appendInt(dst, cost)
		dst = append(dst, "}]}"...)
	}
	dst = append(dst, `],"Points":`...)
	dst = appendInt(dst, p.Points)
	dst = append(dst, `,"Energy":`...)
	dst = appendInt(dst, p.Energy)
	dst = append(dst, `,"Killed":`...)
	dst = appendBool(dst, p.Killed)
	dst = append(dst, `,"IsWinner":false,"ShotsFired":`...)
	dst = appendInt(dst, p.ShotsFired)
	dst = append(dst, `,"ShotsHit":`...)
	dst = appendInt(dst, p.ShotsHit)
	if !g.legacy {
		sh := &p.Shield
		dst = append(dst, `,"Shield":{"ChargeTime":7,"RoundLastUsed":`...)
		dst = appendInt(dst, sh.RoundLastUsed)
		dst = append(dst, `,"CurrentCharges":`...)
		dst = appendInt(dst, sh.Charges)
		dst = append(dst, `,"Active":`...)
		dst = appendBool(dst, sh.Active)
		dst = append(dst, `,"CurrentRadius":`...)
		dst = appendInt(dst, sh.Radius)
		dst = append(dst, `,"MaxRadius":`...)
		dst = appendInt(dst, maxShieldRadius(n))
		dst = append(dst, `,"CenterPoint":"`...)
		dst = appendInt(dst, sh.CX)
		dst = append(dst, ", "...)
		dst = appendInt(dst, sh.CY)
		dst = append(dst, `"}`...)
	}
	dst = append(dst, `,"ShipsRemaining":`...)
	dst = appendInt(dst, p.ShipsRemaining())
	dst = append(dst, `,"Key":"`...)
	dst = append(dst, byte('A'+seat))
	dst = append(dst, `"},"MapWidth":`...)
	dst = appendInt(dst, n)
	dst = append(dst, `,"MapHeight":`...)
	dst = appendInt(dst, n)
	return append(dst, '}')
}

func (g *Game) appendOpponentMap(dst []byte, seat int) []byte {
	p := &g.players[seat]
	dst = append(dst, `{"Ships":[`...)
	for k := range NumShips {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"Destroyed":`...)
		dst = appendBool(dst, p.Ships[k].Destroyed)
		dst = append(dst, `,"ShipType":`...)
		dst = appendStr(dst, shipNames[k])
		dst = append(dst, '}')
	}
	dst = append(dst, `],"Alive":`...)
	dst = appendBool(dst, !p.Killed)
	dst = append(dst, `,"Points":`...)
	dst = appendInt(dst, p.Points)
	dst = append(dst, `,"Name":`...)
	dst = appendStr(dst, p.Name)
	dst = append(dst, `,"Cells":[`...)
	for x := range g.n {
		for y := range g.n {
			if x+y > 0 {
				dst = append(dst, ',')
			}
			c := p.cells[x*g.n+y]
			dst = append(dst, `{"Damaged":`...)
			dst = appendBool(dst, c.Hit && c.Ship != 0)
			dst = append(dst, `,"Missed":`...)
			dst = appendBool(dst, c.Hit && c.Ship == 0)
			dst = appendXY(dst, x, y)
			if !g.legacy {
				dst = append(dst, `,"ShieldHit":`...)
				dst = appendBool(dst, c.ShieldHit)
			}
			dst = append(dst, '}')
		}
	}
	return append(dst, "]}"...)
}

// JSON shapes of the full state.json, for the loader.
type (
	jsonState struct {
		PlayerMap    json.RawMessage
		OpponentMap  json.RawMessage
		GameVersion  string
		GameLevel    int
		Round        *int
		MapDimension *int
		Phase        *int
		Player1Map   *jsonMap
		Player2Map   *jsonMap
	}
	jsonMap struct {
		Cells     []*jsonCell
		Owner     *jsonOwner
		MapWidth  int
		MapHeight int
	}
	jsonCell struct {
		Occupied, Hit bool
		X, Y          int
		Shielded      *bool
		ShieldHit     *bool
	}
	jsonOwner struct {
		FailedFirstPhaseCommands int
		Name                     string
		Ships                    []*jsonShip
		Points, Energy           int
		Killed, IsWinner         bool
		ShotsFired, ShotsHit     int
		Shield                   *jsonShield
		ShipsRemaining           int
		Key                      string
	}
	jsonShip struct {
		Cells     []*jsonCell
		Destroyed bool
		Placed    bool
		ShipType  string
		Weapons   []struct {
			WeaponType     string
			EnergyRequired int
		}
	}
	jsonShield struct {
		ChargeTime, RoundLastUsed, CurrentCharges int
		Active                                    bool
		CurrentRadius, MaxRadius                  int
		CenterPoint                               string
	}
)

// LoadNative replaces the game with the full state.json of a round folder
// (Player1Map and Player2Map, as AppendNative writes for seat -1), in the
// v1.2 layout or the v1.1 one without shields (the writers then write v1.1
// again). The map size must match the config. What the file does not hold
// starts fresh: no do-nothing streak, no learn-mode choices, and the first
// landed hit at round 0 for a player with hits (never otherwise). The
// whole file is checked (unknown keys and data after the object are errors,
// [env.DecodeJSON]) and the first problem is reported with its JSON path;
// on error the game is unchanged.
func (g *Game) LoadNative(data []byte) error {
	var js jsonState
	if err := env.DecodeJSON(data, &js); err != nil {
		return fmt.Errorf("battleships: state.json: %v", err)
	}
	bad := func(path, format string, args ...any) error {
		return fmt.Errorf("battleships: state.json: %s: %s", path, fmt.Sprintf(format, args...))
	}
	if js.Player1Map == nil || js.Player2Map == nil {
		return bad("Player1Map", "missing: LoadNative needs the round folder's full state (a player's state.json hides the opponent's fleet)")
	}
	if js.MapDimension == nil || *js.MapDimension != g.n {
		return bad("MapDimension", "want %d for size %q", g.n, g.cfg.Size)
	}
	if js.Phase == nil || (*js.Phase != 1 && *js.Phase != 2) {
		return bad("Phase", "want 1 or 2")
	}
	if js.Round == nil || *js.Round < 0 {
		return bad("Round", "want a round ≥ 0")
	}
	ng := *g
	ng.round, ng.phase, ng.steps = *js.Round, *js.Phase, *js.Round
	ng.done, ng.truncEnd, ng.roundOpen = false, false, false
	ng.pend = [Seats]pending{}
	ng.moves = [Seats]moveRecord{}
	ng.legacy = js.Player1Map.Owner != nil && js.Player1Map.Owner.Shield == nil
	for s, m := range [Seats]*jsonMap{js.Player1Map, js.Player2Map} {
		path := fmt.Sprintf("Player%dMap", s+1)
		if err := ng.loadPlayer(s, m, path); err != nil {
			return err
		}
	}
	alive := 0
	for s := range Seats {
		if !ng.players[s].Killed {
			alive++
		}
	}
	if alive <= 1 {
		ng.done = true
	} else if ng.round > ng.maxRound {
		ng.done, ng.truncEnd = true, true
	}
	ng.seen = [Seats]tracker{}
	ng.densOK = [Seats]bool{}
	if ng.cfg.DensityPlane {
		// All its hits are new to the trackers: each sunk ship gets the
		// first run of hits of its length.
		ng.seen[0].update(&ng, 0)
		ng.seen[1].update(&ng, 1)
	}
	*g = ng
	g.stateChanged()
	return nil
}

func (g *Game) loadPlayer(s int, m *jsonMap, path string) error {
	bad := func(p, format string, args ...any) error {
		return fmt.Errorf("battleships: state.json: %s.%s: %s", path, p, fmt.Sprintf(format, args...))
	}
	n := g.n
	if m.MapWidth != n || m.MapHeight != n {
		return bad("MapWidth", "want %d×%d, got %d×%d", n, n, m.MapWidth, m.MapHeight)
	}
	if len(m.Cells) != n*n {
		return bad("Cells", "want %d cells, got %d", n*n, len(m.Cells))
	}
	o := m.Owner
	if o == nil {
		return bad("Owner", "missing")
	}
	if o.Key != string(rune('A'+s)) {
		return bad("Owner.Key", "want %q, got %q", string(rune('A'+s)), o.Key)
	}
	if err := (&Config{Names: []string{o.Name}}).Validate(); err != nil {
		return bad("Owner.Name", "%q has characters botarena cannot write back", o.Name)
	}
	if (o.Shield == nil) != g.legacy {
		return bad("Owner.Shield", "one player has a shield and the other not")
	}
	p := &g.players[s]
	*p = Player{Name: o.Name, Energy: o.Energy, Points: o.Points, ShotsFired: o.ShotsFired, ShotsHit: o.ShotsHit,
		Failed: o.FailedFirstPhaseCommands, Killed: o.Killed, FirstShotLanded: -1}
	if p.ShotsHit > 0 {
		p.FirstShotLanded = 0
	}
	occupied := make([]bool, n*n)
	for i, c := range m.Cells {
		cp := fmt.Sprintf("Cells[%d]", i)
		if c == nil {
			return bad(cp, "null")
		}
		if c.X != i/n || c.Y != i%n {
			return bad(cp, "want X %d, Y %d (map order), got %d, %d", i/n, i%n, c.X, c.Y)
		}
		if (c.Shielded == nil) != g.legacy || (c.ShieldHit == nil) != g.legacy {
			return bad(cp, "Shielded and ShieldHit must be present exactly when the file has shields")
		}
		cell := &p.cells[i]
		cell.Hit = c.Hit
		if !g.legacy {
			cell.Shielded, cell.ShieldHit = *c.Shielded, *c.ShieldHit
			if cell.ShieldHit && !cell.Shielded {
				return bad(cp, "ShieldHit on a cell that is not Shielded")
			}
		}
		occupied[i] = c.Occupied
	}
	if len(o.Ships) != NumShips {
		return bad("Owner.Ships", "want 5 ships, got %d", len(o.Ships))
	}
	for k, js := range o.Ships {
		sp := fmt.Sprintf("Owner.Ships[%d]", k)
		t := ShipType(k)
		if js == nil || js.ShipType != shipNames[k] {
			return bad(sp+".ShipType", "want %s (the fixed order)", shipNames[k])
		}
		if len(js.Cells) != t.Len() {
			return bad(sp+".Cells", "want %d cells, got %d", t.Len(), len(js.Cells))
		}
		if !js.Placed {
			if js.Destroyed {
				return bad(sp, "an unplaced ship cannot be destroyed")
			}
			continue
		}
		for a, c := range js.Cells {
			if c == nil {
				return bad(fmt.Sprintf("%s.Cells[%d]", sp, a), "null in a placed ship")
			}
		}
		sh := Ship{X: int8(min(max(js.Cells[0].X, -1), MaxSize)), Y: int8(min(max(js.Cells[0].Y, -1), MaxSize)), Placed: true, Destroyed: js.Destroyed}
		found := false
		for d := range Direction(4) {
			sh.Dir = d
			okd := true
			for a, c := range js.Cells {
				if c.X != js.Cells[0].X+dirDX[d]*a || c.Y != js.Cells[0].Y+dirDY[d]*a {
					okd = false
				}
			}
			if okd {
				found = true
				break
			}
		}
		if !found || !shipFits(t, sh, n) {
			return bad(sp+".Cells", "not a straight line of adjacent cells on the map, start first")
		}
		for a := range t.Len() {
			i := (int(sh.X)+dirDX[sh.Dir]*a)*n + int(sh.Y) + dirDY[sh.Dir]*a
			if p.cells[i].Ship != 0 {
				return bad(sp+".Cells", "overlaps the %s", shipNames[p.cells[i].Ship-1])
			}
			if !occupied[i] {
				return bad(sp+".Cells", "cell (%d, %d) is not Occupied on the map", i/n, i%n)
			}
			p.cells[i].Ship = uint8(k) + 1
		}
		p.Ships[k] = sh
	}
	for i := range n * n {
		if occupied[i] && p.cells[i].Ship == 0 {
			return bad(fmt.Sprintf("Cells[%d]", i), "Occupied but no placed ship covers it")
		}
	}
	if o.ShipsRemaining != p.ShipsRemaining() {
		return bad("Owner.ShipsRemaining", "want %d (ships not Destroyed), got %d", p.ShipsRemaining(), o.ShipsRemaining)
	}
	if sj := o.Shield; sj != nil {
		var cx, cy int
		if _, err := fmt.Sscanf(sj.CenterPoint, "%d, %d", &cx, &cy); err != nil {
			return bad("Owner.Shield.CenterPoint", "want \"x, y\", got %q", sj.CenterPoint)
		}
		if sj.CurrentCharges < 0 || sj.CurrentRadius < 0 || sj.CurrentRadius > maxShieldRadius(n) {
			return bad("Owner.Shield", "charges %d and radius %d out of range", sj.CurrentCharges, sj.CurrentRadius)
		}
		p.Shield = Shield{RoundLastUsed: sj.RoundLastUsed, Charges: sj.CurrentCharges, Radius: sj.CurrentRadius, Active: sj.Active, CX: cx, CY: cy}
	}
	return nil
}
