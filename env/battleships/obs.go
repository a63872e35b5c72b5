package battleships

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"
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
	NumPlanes                 // the planes without Config.DensityPlane
	// PlaneOppDensity, with Config.DensityPlane only: each opponent cell's
	// chance of holding a ship as the seat's knowledge gives it (see
	// Game.writeDensity), the likeliest cell 255.
	PlaneOppDensity = NumPlanes
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
	g.checkObs(dst)
	g.writePlanes(seat, dst[0])
	g.writeScalars(seat, dst[1])
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns the version of the state it shows, given have: 0, or the version
// an earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. A cell's twelve plane bytes depend
// only on the seat's cell and the opponent's there, and a round changes a
// few cells (the shots' targets, a shield), so when have is the version
// before the last Step it rewrites only the plane bytes of the cells that
// Step changed that differ from what those cells showed before it (a shot
// on unknown water: two bytes, not twelve, each on its own cache line),
// and the density plane (Config.DensityPlane) only when the Step changed
// what the seat knows; when have is the current version it writes nothing; otherwise (after a
// Reset or LoadNative, or a missed Step) it writes dst in full. With
// Config.FleetPlanes a step that changes no cell can change the planes (a
// ship chosen in phase 1), so it writes dst in full unless have is the
// current version. The bytes are those WriteObs writes, in every case. vecenv calls it for rows that
// keep their env from step to step. It panics as WriteObs does, and never
// allocates.
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.checkObs(dst)
	switch {
	case have != 0 && have == g.obsVer:
		return have
	case have != 0 && have == g.obsFrom && !g.cfg.FleetPlanes:
		// (With Config.FleetPlanes a phase-1 step changes the planes
		// without touching a cell, so every write is in full.)
		g.writeDelta(seat, dst[0])
		if g.cfg.DensityPlane && g.densVer[seat] == g.obsVer {
			// The last Step changed what the seat knows; otherwise dst
			// shows the density plane of now already.
			g.writeDensity(seat, dst[0][PlaneOppDensity*g.n*g.n:])
		}
	default:
		g.writePlanes(seat, dst[0])
	}
	g.writeScalars(seat, dst[1])
	return g.obsVer
}

// checkObs panics unless dst has the spec's tensors; the spec's full check
// runs only when the cheap one fails.
func (g *Game) checkObs(dst [][]byte) {
	if len(dst) != 2 || len(dst[0]) != g.planes*g.n*g.n || len(dst[1]) != 4*NumScalars {
		g.spec.CheckObs(dst)
	}
}

// writeDelta brings pl, seat's planes at obsFrom, to the current state:
// for each cell the last Step touched, the plane bytes whose value differs
// between the cell's code before the Step and now, from the Step's delta
// list (buildDelta, made by the first call after the Step).
func (g *Game) writeDelta(seat int, pl []byte) {
	if g.deltaVer != g.obsVer {
		g.buildDelta()
	}
	nn := g.n * g.n
	for e := range g.delta[:g.nDelta] {
		d := &g.delta[e]
		now := d.now[seat]
		for diff := d.diff[seat]; diff != 0; diff &= diff - 1 {
			k := mathbits.TrailingZeros16(diff)
			pl[k*nn+int(d.i)] = byte(now >> k & 1)
		}
	}
}

// cellDelta is one cell of the last Step's delta list: its plane index
// and, per seat, its code now (cellCode with that seat's cell as me) and
// the bits of that code that differ from the code before the Step.
type cellDelta struct {
	i    uint8
	now  [Seats]uint16
	diff [Seats]uint16
}

// buildDelta fills the delta list of the last Step (delta[:nDelta], for
// version obsVer): the cells it touched on either map (changed) whose
// code differs for a seat, in map order. A cell's code before the Step
// comes from g.before for a map the Step touched there and from the cell
// itself for a map it did not. Both seats' codes come from the same two
// cells, so each cell's bits are read once per Step, not once per seat.
func (g *Game) buildDelta() {
	n := g.n
	nn := n * n
	a, b := &g.players[0].cells, &g.players[1].cells
	aBefore, bBefore := &g.before[0], &g.before[1]
	aTouched, bTouched := &g.changed[0], &g.changed[1]
	idx := &planeIndex[n]
	k := 0
	for w := range (nn + 63) >> 6 {
		for bits := aTouched[w] | bTouched[w]; bits != 0; bits &= bits - 1 {
			bt := mathbits.TrailingZeros64(bits)
			j := w<<6 + bt
			aNow, bNow := cellBits(a[j]), cellBits(b[j])
			aWas, bWas := aNow, bNow // a map not touched here is as it was
			if aTouched[w]>>bt&1 != 0 {
				aWas = cellBits(aBefore[j])
			}
			if bTouched[w]>>bt&1 != 0 {
				bWas = cellBits(bBefore[j])
			}
			now0, now1 := ownCode[aNow]|oppCode[bNow], ownCode[bNow]|oppCode[aNow]
			diff0 := now0 ^ (ownCode[aWas] | oppCode[bWas])
			diff1 := now1 ^ (ownCode[bWas] | oppCode[aWas])
			if diff0|diff1 == 0 {
				continue
			}
			g.delta[k] = cellDelta{i: idx[j], now: [Seats]uint16{now0, now1}, diff: [Seats]uint16{diff0, diff1}}
			k++
		}
	}
	g.nDelta, g.deltaVer = k, g.obsVer
}

// stateChanged gives the state a new version with no delta from an
// earlier one: Reset and LoadNative call it.
func (g *Game) stateChanged() {
	g.obsVer++
	g.obsFrom = 0
	g.destroyedFresh = false
}

// beginDelta starts recording the cells a Step changes, from the current
// version to a new one.
func (g *Game) beginDelta() {
	g.obsFrom = g.obsVer
	g.obsVer++
	g.changed = [Seats][changedWords]uint64{}
	g.hitShips = [Seats]uint8{}
}

// touch records that player s's cell i (x*N + y) is about to change in
// this Step, keeping the cell as it was before the Step's first change of
// it in g.before. Step calls it before it changes the cell.
func (g *Game) touch(s, i int) {
	if w, bit := &g.changed[s][i>>6], uint64(1)<<(i&63); *w&bit == 0 {
		*w |= bit
		g.before[s][i] = g.players[s].cells[i]
	}
}

// touchAll is touch of every cell of player s's map, before a change that
// may clear hits or move ships (the ships' Destroyed flags are then no
// longer fresh: see updateDestroyed). Outside a Step (Reset's placement,
// obsFrom 0) no delta is recorded, and it touches no cell: the next
// observation is written in full, and the next Step starts a new delta.
func (g *Game) touchAll(s int) {
	g.destroyedFresh = false
	if g.obsFrom == 0 {
		return
	}
	for i := range g.n * g.n {
		g.touch(s, i)
	}
}

// writePlanes writes every byte of seat's planes into pl. It packs the
// cellBits of the seat's cells and of the opponent's, in plane order, one
// byte a cell, then computes every plane eight cells at a time from those
// bytes (planeWords), as ownCode and oppCode give them.
func (g *Game) writePlanes(seat int, pl []byte) {
	n := g.n
	nn := n * n
	me, op := &g.players[seat].cells, &g.players[1-seat].cells
	idx := &planeIndex[n]
	var mine, theirs [MaxCells + 7]byte // in plane order; the padding stays 0
	for j := range nn {
		i := idx[j]
		mine[i], theirs[i] = cellBits(me[j]), cellBits(op[j])
	}
	le := binary.LittleEndian
	i := 0
	for ; i+8 <= nn; i += 8 {
		for k, w := range planeWords(le.Uint64(mine[i:]), le.Uint64(theirs[i:])) {
			le.PutUint64(pl[k*nn+i:], w)
		}
	}
	if i < nn { // the last cells, fewer than eight
		for k, w := range planeWords(le.Uint64(mine[i:]), le.Uint64(theirs[i:])) {
			for b := range nn - i {
				pl[k*nn+i+b] = byte(w >> (8 * b))
			}
		}
	}
	if g.cfg.DensityPlane {
		g.writeDensity(seat, pl[PlaneOppDensity*nn:])
	}
	if g.cfg.FleetPlanes && g.learn && g.phase == 1 {
		g.writeChosen(seat, pl)
	}
}

// writeChosen marks, for Config.FleetPlanes, the ships seat has chosen so
// far in the current phase-1 round (learn mode) on their own-ship planes:
// ship k of the list on plane PlaneOwnSubmarine+k, at the cells it will
// take once the round is processed. Every chosen ship is legal (an illegal
// choice fails the round without counting), so the cells are on the map
// and distinct. It never allocates.
func (g *Game) writeChosen(seat int, pl []byte) {
	n := g.n
	nn := n * n
	pd := &g.pend[seat]
	for k := range int(pd.n) {
		s := pd.ships[k]
		plane := pl[(PlaneOwnSubmarine+k)*nn : (PlaneOwnSubmarine+k+1)*nn]
		for a := range ShipType(k).Len() {
			x, y := int(s.X)+dirDX[s.Dir]*a, int(s.Y)+dirDY[s.Dir]*a
			plane[y*n+x] = 1
		}
	}
}

// writeDensity writes plane PlaneOppDensity of seat into plane (n*n
// bytes): each opponent cell's chance of holding a ship by the seat's
// tracker (tracker.density: hunter's reckoning, 0 on the cells already
// shot), scaled so that the likeliest cell is 255 and rounded; all 0 when
// no cell is likely (once every ship is seen to sink); before phase 2,
// the density of an unshot map. The plane is computed once for what the
// seat knows and kept in g.dens until a Step changes that (tracker.update),
// so observations written again in between copy it. It never allocates.
func (g *Game) writeDensity(seat int, plane []byte) {
	nn := g.n * g.n
	if !g.densOK[seat] {
		g.computeDensity(seat)
	}
	copy(plane[:nn], g.dens[seat][:nn])
}

// computeDensity fills g.dens[seat] with the density plane of what the
// seat knows now (see writeDensity) and sets densOK[seat].
func (g *Game) computeDensity(seat int) {
	n := g.n
	nn := n * n
	plane := &g.dens[seat]
	g.densOK[seat] = true
	var prob, dens [MaxCells]float32
	g.seen[seat].density(n, &prob, &dens)
	top := float32(0)
	for _, p := range prob[:nn] {
		top = max(top, p)
	}
	idx := &planeIndex[n]
	if top <= 0 {
		clear(plane[:nn])
		return
	}
	scale := 255 / top
	for j, p := range prob[:nn] {
		plane[idx[j]] = byte(p*scale + 0.5)
	}
}

// planeWords returns, for eight cells, the plane bytes of each of the
// NumPlanes planes as little-endian words, given the cellBits of the
// seat's cells (mine) and of the opponent's (theirs), one byte a cell:
// byte b of word k is plane k's byte of cell b, as ownCode and oppCode
// give it (each byte of a word computed alone, 0 or 1).
func planeWords(mine, theirs uint64) (w [NumPlanes]uint64) {
	const ones = 0x0101010101010101
	ship := mine >> 3 & (7 * ones) // the ship field of each byte
	for k := range NumShips {
		x := ship ^ uint64(k+1)*ones // byte 0 where the cell holds ship type k
		w[PlaneOwnSubmarine+k] = (x|x>>1|x>>2)&ones ^ ones
	}
	w[PlaneOwnHit] = mine >> 2 & ones
	w[PlaneOwnShielded] = mine >> 1 & ones
	w[PlaneOwnShieldHit] = mine & ones
	hit := theirs >> 2 & ones
	s := theirs >> 3 & (7 * ones)
	occupied := (s | s>>1 | s>>2) & ones
	w[PlaneOppUnknown] = hit ^ ones
	w[PlaneOppMissed] = hit &^ occupied
	w[PlaneOppDamaged] = hit & occupied
	w[PlaneOppShieldHit] = theirs & ones
	return w
}

// cellBits packs what the planes read of a cell into 6 bits: the ship (0
// none, 1–5, 7 for any larger value, which no plane marks as a ship of
// the seat's), Hit, Shielded and ShieldHit.
func cellBits(c Cell) uint8 {
	return min(c.Ship, 7)<<3 | bit(c.Hit)<<2 | bit(c.Shielded)<<1 | bit(c.ShieldHit)
}

// ownCode and oppCode hold, per cellBits, the plane bits a cell gives the
// seat that owns it (ship planes, own hits and shield) and the seat that
// shoots at it (unknown, missed, damaged, shield hit).
var ownCode, oppCode = codeTables()

func codeTables() (own, opp [64]uint16) {
	for b := range 64 {
		c := Cell{Ship: uint8(b >> 3), Hit: b&4 != 0, Shielded: b&2 != 0, ShieldHit: b&1 != 0}
		if s := c.Ship; s >= 1 && s <= NumShips {
			own[b] = 1 << (s - 1) // PlaneOwnSubmarine + ship type
		}
		own[b] |= uint16(bit(c.Hit))<<PlaneOwnHit |
			uint16(bit(c.Shielded))<<PlaneOwnShielded |
			uint16(bit(c.ShieldHit))<<PlaneOwnShieldHit
		opp[b] = uint16(bit(c.ShieldHit)) << PlaneOppShieldHit
		switch {
		case !c.Hit:
			opp[b] |= 1 << PlaneOppUnknown
		case c.Ship == 0:
			opp[b] |= 1 << PlaneOppMissed
		default:
			opp[b] |= 1 << PlaneOppDamaged
		}
	}
	return own, opp
}

// planeIndex maps, per map side n, a cell's state index x*n + y to its
// index in a plane, y*n + x.
var planeIndex = func() (t [MaxSize + 1][MaxCells]uint8) {
	for n := 1; n <= MaxSize; n++ {
		for x := range n {
			for y := range n {
				t[n][x*n+y] = uint8(y*n + x)
			}
		}
	}
	return t
}()

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// writeScalars writes seat's scalars into out, each straight into its
// place with a constant offset (no bounds check); the flags are 1.0's bits
// masked by the flag, without a branch.
func (g *Game) writeScalars(seat int, out []byte) {
	out = out[: 4*NumScalars : 4*NumScalars]
	le := binary.LittleEndian
	n := g.n
	me, op := &g.players[seat], &g.players[1-seat]
	phase2 := bit(g.phase == 2)
	le.PutUint32(out[4*ScalarPhase2:], oneBits(phase2))
	le.PutUint32(out[4*ScalarRoundFraction:], math.Float32bits(float32(g.round)/float32(g.maxRound+1)))
	le.PutUint32(out[4*ScalarEnergy:], math.Float32bits(float32(me.Energy)/float32(WeaponCost(CrossShot, n))))
	le.PutUint32(out[4*ScalarShieldCharges:], math.Float32bits(float32(me.Shield.Charges)))
	le.PutUint32(out[4*ScalarShieldRadius:], math.Float32bits(float32(me.Shield.Radius)/float32(maxShieldRadius(n))))
	le.PutUint32(out[4*ScalarShieldActive:], oneBits(bit(me.Shield.Active)))
	le.PutUint32(out[4*ScalarPoints:], math.Float32bits(float32(me.Points)/100))
	le.PutUint32(out[4*ScalarOppPoints:], math.Float32bits(float32(op.Points)/100))
	// Bit k of afloat: ship scalar k is 1 (own ships, then the opponent's).
	afloat := uint(me.afloat()) | uint(op.afloat())<<NumShips
	afloat &= -uint(phase2) // none before phase 2
	le.PutUint64(out[4*ScalarOwnShips:], afloatPairs[afloat&3])
	le.PutUint64(out[4*(ScalarOwnShips+2):], afloatPairs[afloat>>2&3])
	le.PutUint64(out[4*(ScalarOwnShips+4):], afloatPairs[afloat>>4&3])
	le.PutUint64(out[4*(ScalarOwnShips+6):], afloatPairs[afloat>>6&3])
	le.PutUint64(out[4*(ScalarOwnShips+8):], afloatPairs[afloat>>8&3])
	le.PutUint32(out[4*ScalarPlaced:], math.Float32bits(float32(g.pend[seat].n)/NumShips))
	le.PutUint32(out[4*ScalarIdle:], math.Float32bits(float32(me.Idle)/DoNothingLimit))
	le.PutUint32(out[4*ScalarOppAlive:], oneBits(bit(!op.Killed)))
}

// The ship scalars are ten consecutive entries, own then opponent's, so
// that writeScalars writes them as five pairs: these fail to compile
// unless ScalarOppShips == ScalarOwnShips + NumShips.
const (
	_ = uint(ScalarOppShips - ScalarOwnShips - NumShips)
	_ = -uint(ScalarOppShips - ScalarOwnShips - NumShips)
)

// oneBits is the bits of float32 b (0 or 1).
func oneBits(b byte) uint32 { return uint32(b) * math.Float32bits(1) }

// afloatPairs[b] is the bits of two consecutive ship scalars,
// little-endian: the first 1 when bit 0 of b is set, the second when bit
// 1 is.
var afloatPairs = [4]uint64{0, uint64(oneBits(1)), uint64(oneBits(1)) << 32, uint64(oneBits(1)) | uint64(oneBits(1))<<32}

// WriteMask writes seat's legal actions. Phase 2: every command whose
// centre is on the map and which the engine would execute now: single
// shots while energy ≥ 1; a special weapon while its ship is afloat and the
// energy covers it; the shield with a charge and no active shield. Centres
// off the map (which the engine accepts for patterns, spec §5.2) are
// masked out. Phase 1 in learn mode: the placements of the seat's next ship
// that fit on the map without overlapping its earlier choices. Do nothing
// is always legal and is the only legal action of a dead seat, of a seat
// that finished its phase-1 choices, and of a finished game. With
// Config.ShotMask the phase-2 shots that can land only on cells the seat
// already shot are left out too (shotIsWasted), and with Config.ShieldMask
// the shield but at marksman's moment (maskShield). It never allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != g.spec.Actions {
		panic("battleships: WriteMask: wrong mask length")
	}
	codes, placing := g.maskContent(seat)
	clear(dst)
	dst[0] = 1
	if placing {
		g.writePlacements(seat, dst)
		return
	}
	g.writeCommands(dst, 0, codes)
	if g.cfg.ShotMask {
		g.maskShot(seat, dst, codes)
	}
	if g.cfg.ShieldMask && codes>>CodeShield&1 != 0 {
		g.maskShield(seat, dst)
	}
}

// maskShield clears, for Config.ShieldMask, the legal shield's block of
// dst (written) but for the centres of a shield that covers every unhit
// cell of seat's afloat ships, and those too unless the opponent has hit
// one of them (shieldBox).
func (g *Game) maskShield(seat int, dst []uint8) {
	n := g.n
	gs := grid(n)
	base := 1 + (CodeShield-1)*gs*gs
	clear(dst[base : base+gs*gs])
	lx, ly, hx, hy, hit := g.shieldBox(seat)
	r := g.players[seat].Shield.Radius
	if !hit || hx < 0 {
		return
	}
	for x := max(hx-r, 0); x <= min(lx+r, n-1); x++ {
		for y := max(hy-r, 0); y <= min(ly+r, n-1); y++ {
			dst[base+(x+Margin)*gs+y+Margin] = 1
		}
	}
}

// shieldBox returns the bounding box of the unhit cells of seat's afloat
// ships (hx < 0 when there are none) and whether any afloat ship has a hit
// cell: a shield of radius r centred on (cx, cy) covers them all when
// hx−r ≤ cx ≤ lx+r and hy−r ≤ cy ≤ ly+r.
func (g *Game) shieldBox(seat int) (lx, ly, hx, hy int, hit bool) {
	n := g.n
	p := &g.players[seat]
	lx, ly, hx, hy = n, n, -1, -1
	for k := range NumShips {
		s := p.Ships[k]
		if s.Destroyed {
			continue
		}
		for c := range ShipType(k).Len() {
			x, y := int(s.X)+dirDX[s.Dir]*c, int(s.Y)+dirDY[s.Dir]*c
			if p.cells[x*n+y].Hit {
				hit = true
				continue
			}
			lx, ly, hx, hy = min(lx, x), min(ly, y), max(hx, x), max(hy, y)
		}
	}
	return lx, ly, hx, hy, hit
}

// maskShot clears, for Config.ShotMask, the on-map centres of the legal
// shots in codes (dst written for codes) that can land only on opponent
// cells seat has already shot (shotIsWasted).
func (g *Game) maskShot(seat int, dst []uint8, codes uint64) {
	n := g.n
	gs := grid(n)
	for code := CodeSingle; code <= CodeSeeker; code++ {
		if codes>>code&1 == 0 {
			continue
		}
		base := 1 + (code-1)*gs*gs
		for x := range n {
			for y := range n {
				if g.shotIsWasted(seat, code, x, y) {
					dst[base+(x+Margin)*gs+y+Margin] = 0
				}
			}
		}
	}
}

// shotIsWasted reports whether seat's fire command code centred on the
// on-map (x, y) can land only on opponent cells it has already shot
// (missed or damaged): every on-map cell of the pattern (the single
// shot's one cell; for the seeker every cell within its reach, the
// centre included, where it lands when no ship cell is found) is.
func (g *Game) shotIsWasted(seat, code, x, y int) bool {
	opp := &g.players[1-seat].cells
	n := g.n
	offsets := patterns[code]
	if code == CodeSeeker {
		offsets = seekerOffsets[:]
	}
	for _, o := range offsets {
		if cx, cy := x+o[0], y+o[1]; cx >= 0 && cy >= 0 && cx < n && cy < n && !opp[cx*n+cy].Hit {
			return false
		}
	}
	return true
}

// UpdateMask writes seat's mask as WriteMask does, rewriting only the
// command blocks whose legality changed when have says what dst holds,
// and returns the version of what it wrote, for the pool (vecenv's
// MaskUpdater). A version names the mask's content, not a state: in phase
// 2 (and whenever do-nothing is the only legal action) it is maskVerCodes
// with the set of legal command codes in its low bits, the same for every
// seat and state with that set; phase-1 placements, written in full, are
// maskVerPlacing, which no later call takes as a known content, and so are
// phase-2 masks with Config.ShotMask or Config.ShieldMask (maskVerShots). have 0 or
// anything else is unknown: the mask is written in full. It never
// allocates.
func (g *Game) UpdateMask(seat int, dst []uint8, have uint64) uint64 {
	if len(dst) != g.spec.Actions {
		panic("battleships: UpdateMask: wrong mask length")
	}
	codes, placing := g.maskContent(seat)
	if placing {
		g.WriteMask(seat, dst)
		return maskVerPlacing
	}
	if (g.cfg.ShotMask || g.cfg.ShieldMask) && codes != 0 {
		g.WriteMask(seat, dst)
		return maskVerShots
	}
	switch now := maskVerCodes | codes; {
	case have == now:
	case have&^maskCodesBits != maskVerCodes:
		clear(dst)
		dst[0] = 1
		g.writeCommands(dst, 0, codes)
	default:
		g.writeCommands(dst, have&maskCodesBits, codes)
	}
	return maskVerCodes | codes
}

// Mask versions of UpdateMask: maskVerCodes | the legal command codes
// (bit code), maskVerPlacing, or maskVerShots (a phase-2 mask of
// Config.ShotMask, written in full, which no later call takes as a known
// content either). None is 0.
const (
	maskVerCodes   uint64 = 1 << 63
	maskVerPlacing uint64 = 1 << 62
	maskVerShots   uint64 = 1 << 61
	maskCodesBits  uint64 = 1<<(CodeShield+1) - 1
)

// maskContent returns what seat's mask holds: placing when it is phase
// 1's placements of a learning seat's next ship, otherwise the set of
// legal command codes (bit code; none once the game is over, the seat is
// dead, or in phase 1).
func (g *Game) maskContent(seat int) (codes uint64, placing bool) {
	p := &g.players[seat]
	if g.done || p.Killed {
		return 0, false
	}
	if g.phase == 1 {
		return 0, g.learn && g.pend[seat].state == pendOpen
	}
	const fireCodes = 1<<CodeShield - 1<<CodeSingle // CodeSingle to CodeSeeker
	codes = g.fireable(seat) & fireCodes
	if g.shieldReady(seat) {
		codes |= 1 << CodeShield
	}
	return codes, false
}

// writePlacements sets the placements of seat's next ship that fit on the
// map without overlapping its earlier choices (dst cleared before).
func (g *Game) writePlacements(seat int, dst []uint8) {
	n := g.n
	pd := &g.pend[seat]
	for x := range n {
		for y := range n {
			for d := range Direction(4) {
				if legalNext(&pd.ships, int(pd.n), Ship{X: int8(x), Y: int8(y), Dir: d}, n) {
					dst[PlaceAction(n, x, y, d)] = 1
				}
			}
		}
	}
}

// writeCommands brings the command blocks of dst from the set of legal
// codes was to codes: a code that became legal gets its on-map block, one
// that stopped being legal a cleared block; the others are left as they
// are.
func (g *Game) writeCommands(dst []uint8, was, codes uint64) {
	block := onMapBlocks[g.n]
	for code := CodeSingle; code <= CodeShield; code++ {
		bit := uint64(1) << code
		if (was^codes)&bit == 0 {
			continue
		}
		base := 1 + (code-1)*len(block)
		if codes&bit != 0 {
			copy(dst[base:base+len(block)], block)
		} else {
			clear(dst[base : base+len(block)])
		}
	}
}

// commandLegal reports whether seat may use command code (phase 2): a
// weapon it can fire now, or the shield with a charge and none active.
func (g *Game) commandLegal(seat, code int) bool {
	if code == CodeShield {
		return g.shieldReady(seat)
	}
	return g.canFire(seat, code)
}

// shieldReady reports whether seat may place its shield: a charge and
// none active.
func (g *Game) shieldReady(seat int) bool {
	sh := &g.players[seat].Shield
	return sh.Charges >= 1 && !sh.Active
}

// onMapBlocks holds, per map side n, a command's block of the mask (G²
// entries, G = n + 2·Margin, centre (x, y) at (x+Margin)·G + y + Margin)
// with the on-map centres 1 and the rest 0.
var onMapBlocks = func() (t [MaxSize + 1][]uint8) {
	for n := 1; n <= MaxSize; n++ {
		gs := grid(n)
		t[n] = make([]uint8, gs*gs)
		for x := range n {
			for y := range n {
				t[n][(x+Margin)*gs+y+Margin] = 1
			}
		}
	}
	return t
}()
