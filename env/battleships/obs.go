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
	pl := dst[0]
	clear(pl)
	n := g.n
	nn := n * n
	me, op := &g.players[seat], &g.players[1-seat]
	for x := range n {
		for y := range n {
			i := y*n + x
			c := me.cells[x*n+y]
			if c.Ship != 0 {
				pl[int(c.Ship-1)*nn+i] = 1
			}
			if c.Hit {
				pl[PlaneOwnHit*nn+i] = 1
			}
			if c.Shielded {
				pl[PlaneOwnShielded*nn+i] = 1
			}
			if c.ShieldHit {
				pl[PlaneOwnShieldHit*nn+i] = 1
			}
			o := op.cells[x*n+y]
			switch {
			case o.Hit && o.Ship != 0:
				pl[PlaneOppDamaged*nn+i] = 1
			case o.Hit:
				pl[PlaneOppMissed*nn+i] = 1
			default:
				pl[PlaneOppUnknown*nn+i] = 1
			}
			if o.ShieldHit {
				pl[PlaneOppShieldHit*nn+i] = 1
			}
		}
	}
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
	out := dst[1]
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
