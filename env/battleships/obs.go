package battleships

import (
	"encoding/binary"
	"math"
)

// Observation planes, from the observing seat's perspective.
const (
	PlaneOwnSubmarine  = iota // 1 on the seat's Submarine
	PlaneOwnDestroyer         // 1 on its Destroyer
	PlaneOwnBattleship        // 1 on its Battleship
	PlaneOwnCarrier           // 1 on its Carrier
	PlaneOwnCruiser           // 1 on its Cruiser
	PlaneOwnHit               // 1 where the opponent hit the seat's map (ship or water)
	PlaneOwnShielded          // 1 where the seat's shield covers
	PlaneOwnShieldHit         // 1 where the seat's shield stopped a shot
	PlaneOppUnknown           // 1 on opponent cells neither damaged nor missed
	PlaneOppMissed            // 1 on opponent water the seat hit
	PlaneOppDamaged           // 1 on opponent ship cells hit
	PlaneOppShieldHit         // 1 where the opponent's shield stopped a shot
	NumPlanes
)

// Scalars.
const (
	ScalarPhase2        = iota     // 1 in phase 2
	ScalarRoundFraction            // CurrentRound / (last round + 1)
	ScalarEnergy                   // energy / the cross shot's cost
	ScalarShieldCharges            // charges
	ScalarShieldRadius             // radius / max radius
	ScalarShieldActive             // 1 while active
	ScalarPoints                   // own points / 100
	ScalarOppPoints                // opponent points / 100
	ScalarOwnShips                 // 5 entries: own ship k not destroyed
	ScalarOppShips      = iota + 4 // 5 entries: opponent ship k not destroyed
	ScalarPlaced        = iota + 8 // learn mode: ships chosen this phase-1 round / 5
	ScalarIdle                     // consecutive do-nothings / 20
	ScalarOppAlive                 // 1 while the opponent is alive
	NumScalars
)

// WriteObs writes seat's observation (see the package documentation). It
// shows only what the seat's state.json shows: the opponent's ships appear
// only where hit. Every byte is overwritten; it never allocates.
func (g *Game) WriteObs(seat int, dst [][]byte) {
	g.spec.CheckObs(dst)
	g.writePlanes(seat, dst[0])
	g.writeScalars(seat, dst[1])
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns a version of what it wrote, given have: 0, or the version an
// earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. A cell's twelve plane bytes depend
// only on the seat's cell and the opponent's, and a round changes a few
// cells (the shots' targets, a shield), so with have the last version of
// the seat it rewrites only the cells that differ from those it last
// wrote, instead of all 12·N² bytes; otherwise it writes dst in full. The
// scalars are always written. The bytes are those WriteObs writes, in
// every case. vecenv calls it for rows that keep their env from step to
// step. It panics as WriteObs does, and never allocates once warm (the
// first call makes the record of the cells shown).
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.spec.CheckObs(dst)
	nn := g.n * g.n
	m := g.shown
	if m == nil || len(m.cells) != 2*Seats*nn {
		m = &obsShown{cells: make([]Cell, 2*Seats*nn)}
		if g.shown != nil {
			m.writes = g.shown.writes // versions stay unique
		}
		g.shown = m
	}
	me, op := g.players[seat].cells[:nn], g.players[1-seat].cells[:nn]
	shownMe, shownOp := m.cells[2*seat*nn:][:nn], m.cells[(2*seat+1)*nn:][:nn]
	pl := dst[0]
	if have != 0 && have == m.ver[seat] {
		for j := range nn {
			if me[j] != shownMe[j] || op[j] != shownOp[j] {
				g.writeCell(pl, j/g.n, j%g.n, me[j], op[j])
			}
		}
	} else {
		g.writePlanes(seat, pl)
	}
	copy(shownMe, me)
	copy(shownOp, op)
	g.writeScalars(seat, dst[1])
	m.writes++
	m.ver[seat] = m.writes
	return m.writes
}

// obsShown records, per seat, the seat's and the opponent's cells as the
// last [Game.UpdateObs] for the seat showed them (cells[2*seat*N²:] the
// seat's, cells[(2*seat+1)*N²:] the opponent's, N² each, in map order)
// and the version it returned. It sits behind a pointer, so copies of a
// Game (an agent's look-ahead) share it; the versions number every write
// of the record, so a row last written through another copy is not the
// one recorded and is written in full.
type obsShown struct {
	writes uint64
	ver    [Seats]uint64
	cells  []Cell
}

// writePlanes writes every byte of seat's planes into pl.
func (g *Game) writePlanes(seat int, pl []byte) {
	n := g.n
	me, op := &g.players[seat], &g.players[1-seat]
	for x := range n {
		for y := range n {
			g.writeCell(pl, x, y, me.cells[x*n+y], op.cells[x*n+y])
		}
	}
}

// writeCell writes the twelve plane bytes of cell (x, y), given the seat's
// cell me and the opponent's op there.
func (g *Game) writeCell(pl []byte, x, y int, me, op Cell) {
	nn := g.n * g.n
	i := y*g.n + x
	for k := range NumShips {
		pl[k*nn+i] = bit(int(me.Ship) == k+1)
	}
	pl[PlaneOwnHit*nn+i] = bit(me.Hit)
	pl[PlaneOwnShielded*nn+i] = bit(me.Shielded)
	pl[PlaneOwnShieldHit*nn+i] = bit(me.ShieldHit)
	pl[PlaneOppUnknown*nn+i] = bit(!op.Hit)
	pl[PlaneOppMissed*nn+i] = bit(op.Hit && op.Ship == 0)
	pl[PlaneOppDamaged*nn+i] = bit(op.Hit && op.Ship != 0)
	pl[PlaneOppShieldHit*nn+i] = bit(op.ShieldHit)
}

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// writeScalars writes seat's scalars into out.
func (g *Game) writeScalars(seat int, out []byte) {
	n := g.n
	me, op := &g.players[seat], &g.players[1-seat]
	var sc [NumScalars]float32
	if g.phase == 2 {
		sc[ScalarPhase2] = 1
	}
	sc[ScalarRoundFraction] = float32(g.round) / float32(g.maxRound+1)
	sc[ScalarEnergy] = float32(me.Energy) / float32(WeaponCost(CrossShot, n))
	sc[ScalarShieldCharges] = float32(me.Shield.Charges)
	sc[ScalarShieldRadius] = float32(me.Shield.Radius) / float32(maxShieldRadius(n))
	if me.Shield.Active {
		sc[ScalarShieldActive] = 1
	}
	sc[ScalarPoints] = float32(me.Points) / 100
	sc[ScalarOppPoints] = float32(op.Points) / 100
	for k := range NumShips {
		if g.phase == 2 && !me.Ships[k].Destroyed {
			sc[ScalarOwnShips+k] = 1
		}
		if g.phase == 2 && !op.Ships[k].Destroyed {
			sc[ScalarOppShips+k] = 1
		}
	}
	sc[ScalarPlaced] = float32(g.pend[seat].n) / NumShips
	sc[ScalarIdle] = float32(me.Idle) / DoNothingLimit
	if !op.Killed {
		sc[ScalarOppAlive] = 1
	}
	for i, v := range sc {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
	}
}

// WriteMask writes seat's legal actions. Phase 2: every command whose
// centre is on the map and which the engine would execute now: single
// shots while energy ≥ 1; a special weapon while its ship is afloat and the
// energy covers it; the shield with a charge and no active shield. Centres
// off the map (which the engine accepts for patterns, spec §5.2) are
// masked out. Phase 1 in learn mode: the placements of the seat's next ship
// that fit on the map without overlapping its earlier choices. Do nothing
// is always legal and is the only legal action of a dead seat, of a seat
// that finished its phase-1 choices, and of a finished game. It never
// allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != g.spec.Actions {
		panic("battleships: WriteMask: wrong mask length")
	}
	clear(dst)
	dst[0] = 1
	p := &g.players[seat]
	if g.done || p.Killed {
		return
	}
	n := g.n
	if g.phase == 1 {
		pd := &g.pend[seat]
		if !g.learn || pd.state != pendOpen {
			return
		}
		for x := range n {
			for y := range n {
				for d := range Direction(4) {
					if legalNext(&pd.ships, int(pd.n), Ship{X: int8(x), Y: int8(y), Dir: d}, n) {
						dst[PlaceAction(n, x, y, d)] = 1
					}
				}
			}
		}
		return
	}
	gs := grid(n)
	for code := CodeSingle; code <= CodeShield; code++ {
		ok := false
		if code == CodeShield {
			ok = p.Shield.Charges >= 1 && !p.Shield.Active
		} else {
			ok = g.canFire(seat, code)
		}
		if !ok {
			continue
		}
		base := 1 + (code-1)*gs*gs
		for x := range n {
			row := dst[base+(x+Margin)*gs+Margin:][:n]
			for i := range row {
				row[i] = 1
			}
		}
	}
}
