package bomberman

import (
	"encoding/binary"
	"fmt"
	"math"
	mathbits "math/bits"

	"github.com/botarena/botarena/env"
)

// Observation planes, in order; see the package doc for the layout.
const (
	PlaneSelf = iota
	PlaneOpponents
	PlaneIndestructible
	PlaneDestructible
	PlaneOwnBombs
	PlaneOpponentBombs
	PlaneBombRadius
	PlaneDanger
	PlaneExploding
	PlaneBagPowerUp
	PlaneRadiusPowerUp
	PlaneSuperPowerUp
	// NumPlanes is C, the number of planes (without
	// [Config.TouchedPlanes]).
	NumPlanes
)

// The planes [Config.TouchedPlanes] adds after the NumPlanes.
const (
	PlaneSelfTouched = NumPlanes + iota
	PlaneOpponentsTouched
	// NumPlanesTouched is C with Config.TouchedPlanes.
	NumPlanesTouched
)

// Scalar features, in order; see the package doc.
const (
	ScalarRoundFraction = iota
	ScalarBombBag
	ScalarBombsLeft
	ScalarBombRadius
	ScalarPoints
	ScalarAlive
	ScalarOpponentsAlive
	ScalarIdle
	// NumScalars is the length of the scalar vector (without
	// [Config.OpponentScalars]).
	NumScalars
)

// The scalars [Config.OpponentScalars] adds after the NumScalars: the
// strongest opponent's (see the package doc).
const (
	ScalarOpponentBombBag = NumScalars + iota
	ScalarOpponentBombRadius
	ScalarOpponentPoints
	// NumScalarsOpponent is the length of the scalar vector with
	// Config.OpponentScalars.
	NumScalarsOpponent
)

// Names of the observation tensors.
const (
	TensorPlanes  = "planes"
	TensorScalars = "scalars"
)

// RewardDefinition is the reward text of the Spec.
const RewardDefinition = "terminal: +1 to the leaderboard winner, -1 to every other seat, 0 to each seat tied " +
	"on every ranking key with the top; a seat killed before the game ends gets -1 at the step it dies. " +
	"Optional shaping: points_reward × the change in the seat's points, every step."

func newSpec(name string, cfg *Config) *env.Spec {
	side := cfg.Side()
	maxSteps := side*side + 1
	if cfg.MaxRounds > 0 && cfg.MaxRounds < maxSteps {
		maxSteps = cfg.MaxRounds
	}
	nPlanes := cfg.planes()
	touched := ""
	if cfg.TouchedPlanes {
		touched = "; planes 12 and 13 the cells the seat's own player and the other players have ever occupied"
	}
	planes := env.Tensor{
		Name:   TensorPlanes,
		DType:  env.Uint8,
		Shape:  []int{nPlanes, side, side},
		Layout: fmt.Sprintf("[C,H,W] = [%d,%d,%d]: index = c*H*W + (y-1)*W + (x-1) for 1-based cell (x,y); planes from the seat's perspective (own player first)%s, see the bomberman package doc", nPlanes, side, side, touched),
		// The touched planes are per seat, like the players' and bombs'.
		Shared: []int{PlaneIndestructible, PlaneDestructible, PlaneBombRadius, PlaneDanger, PlaneExploding, PlaneBagPowerUp, PlaneRadiusPowerUp, PlaneSuperPowerUp},
	}
	if r := cfg.ViewRadius; r > 0 {
		d := 2*r + 1
		if cfg.TouchedPlanes {
			touched += " (0 off the map)"
		}
		planes.Shape = []int{nPlanes, d, d}
		planes.Layout = fmt.Sprintf("[C,H,W] = [%d,%d,%d]: a window centred on the seat's player at (px,py): index = c*H*W + v*W + u shows cell (px-%d+u, py-%d+v); off the map an indestructible wall; planes from the seat's perspective (own player first)%s, see the bomberman package doc", nPlanes, d, d, r, r, touched)
		planes.Shared = nil // every seat's window has its own centre
	}
	scalars := env.Tensor{
		Name:   TensorScalars,
		DType:  env.Float32,
		Shape:  []int{NumScalars},
		Layout: "[8]: round fraction, bomb bag, bombs left, bomb radius, points/100, alive, opponents alive, idle/20",
	}
	if cfg.OpponentScalars {
		scalars.Shape = []int{NumScalarsOpponent}
		scalars.Layout = "[11]: round fraction, bomb bag, bombs left, bomb radius, points/100, alive, opponents alive, idle/20, " +
			"then the strongest opponent's (alive, most points, lowest seat on a tie; 0s when none) bomb bag, bomb radius, points/100"
	}
	return &env.Spec{
		Game:  name,
		Seats: cfg.Players,
		Obs: []env.Tensor{
			planes,
			scalars,
		},
		Actions:     NumActions,
		ActionNames: actionNames[:],
		MaxSteps:    maxSteps,
		Reward:      RewardDefinition,
	}
}

// WriteObs writes seat's observation into dst: dst[0] the planes, dst[1] the
// scalars (little-endian float32). A wrong number or size of slices panics.
// It never allocates.
func (g *Game) WriteObs(seat int, dst [][]byte) {
	g.checkObs(dst)
	if g.cfg.ViewRadius > 0 {
		g.writeView(seat, dst)
		if g.cfg.TouchedPlanes {
			g.writeTouchedView(seat, dst[0])
		}
		return
	}
	g.sharedPlanes(len(dst[0]))
	copy(dst[0], g.obsShared)
	g.writeMarks(seat, dst[0])
	if g.cfg.TouchedPlanes {
		g.writeTouched(seat, dst[0])
	}
	g.writeScalars(seat, dst[1])
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns the version of the state it shows, given have: 0, or the version
// an earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. When have is the current version it
// writes nothing; when have is the version before the last Step or Reset,
// it writes only the bytes that step changed (the cells of the static
// planes that changed, the words of the other shared planes that changed,
// the old and new player and bomb marks, and the scalars); otherwise it
// writes dst in full. The bytes are those WriteObs writes, in every case.
// vecenv calls it for rows that keep their env from step to step, so
// a pool step writes a small part of the observation bytes. It never
// allocates.
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.checkObs(dst)
	if have != 0 && have == g.obsVer {
		return have
	}
	if g.cfg.ViewRadius > 0 {
		// The window moves with the player: it is written in full.
		g.writeView(seat, dst)
		if g.cfg.TouchedPlanes {
			g.writeTouchedView(seat, dst[0])
		}
		return g.obsVer
	}
	g.sharedPlanes(len(dst[0]))
	delta := have != 0 && have == g.delta.from
	if delta {
		g.applyDelta(seat, dst[0])
	} else {
		copy(dst[0], g.obsShared)
		g.writeMarks(seat, dst[0])
	}
	if g.cfg.TouchedPlanes {
		if delta && !g.delta.full {
			g.stepTouched(seat, dst[0])
		} else {
			g.writeTouched(seat, dst[0])
		}
	}
	g.writeScalars(seat, dst[1])
	return g.obsVer
}

// checkObs panics unless dst has the spec's tensors; the full check runs
// only when the cheap one fails.
func (g *Game) checkObs(dst [][]byte) {
	planes := len(g.obsShared)
	if r := g.cfg.ViewRadius; r > 0 {
		planes = g.cfg.planes() * (2*r + 1) * (2*r + 1)
	}
	if len(dst) != 2 || len(dst[0]) != planes || len(dst[1]) != 4*g.cfg.scalars() {
		g.spec.CheckObs(dst)
	}
}

// sharedPlaneCount is the number of planes of obsShared: the whole-map
// planes, the touched ones (zero there) included; with a view only the
// NumPlanes that windows are cut from ([Game.writeView]).
func (g *Game) sharedPlaneCount() int {
	if g.cfg.ViewRadius > 0 {
		return NumPlanes
	}
	return g.cfg.planes()
}

// allocObs makes the shared planes and the delta's buffers for planes of n
// bytes, and invalidates them.
func (g *Game) allocObs(n int) {
	g.obsShared = make([]byte, n)
	d := &g.delta
	d.wordBits = make([]uint64, (n/8+1+63)/64)
	d.runs = make([]byteRun, 0, n/8+1)
	hw := n / g.sharedPlaneCount()
	d.cells = make([]int32, 0, hw)
	// The dynamic planes have 3 planes' cells.
	g.dyn = make([]uint16, 0, 3*hw)
	d.dyn = make([]uint16, 0, 3*hw)
	g.stateChanged()
}

// sharedPlanes brings obsShared, the planes every seat sees alike, and the
// marks up to date for the current state, and with them the delta.
func (g *Game) sharedPlanes(n int) {
	if len(g.obsShared) != n {
		// Only games built by hand (test fixtures) or loaded with another
		// map size get here.
		g.allocObs(n)
	}
	if !g.staticFresh {
		if d := &g.delta; d.from != 0 && d.full {
			// The planes show the state before the Reset: bring them
			// to the new map in place, listing the words that change.
			g.restatic()
		} else {
			g.writeStaticPlanes(g.obsShared) // clears the dynamic planes too
			g.dyn = g.dyn[:0]
		}
		g.staticFresh = true
		g.obsFresh = false
	}
	if g.obsFresh {
		return
	}
	g.writeDynamicPlanes(g.obsShared)
	g.marks.set(g)
	g.chainFuses() // for the scalars' bombs left (g.onMap)
	if d := &g.delta; d.from != 0 && !d.full {
		if d.marks.seats != g.marks.seats {
			d.from = 0 // not after a Step of this game: rows are written in full
		} else {
			d.diffMarks(&g.marks, g.width*g.height)
		}
	}
	g.obsFresh = true
}

// obsDelta is what changed in the observations from one state (from) to the
// next, so that [Game.UpdateObs] can rewrite only that: the dynamic
// planes' cells at from (dyn; the current ones are Game.dyn), the per-seat
// planes' marks at from, and after a Step (full false) the static cells
// Step changed (recorded as they change), after a Reset (full true) the
// words of the static planes that the new map changed (found when the
// planes are next brought up to date, see [Game.restatic]).
type obsDelta struct {
	from uint64 // the state the delta starts from; 0 for none
	full bool
	// runs are the byte ranges of the 8-byte words of the static planes
	// that the new map changed, when full: consecutive changed words make
	// one run, in order. wordBits is the words' bitmap (bit k for the word
	// at offset 8k) while restatic builds them.
	runs     []byteRun
	wordBits []uint64
	// cells are the cells whose static planes Step changed, in order,
	// perhaps repeated.
	cells []int32
	// dyn are the offsets of the non-zero bytes of the dynamic planes at
	// from (see Game.dyn).
	dyn []uint16
	// marks are the per-seat planes' marks at from.
	marks obsMarks
	// markOps are the writes that bring a row's per-seat planes from the
	// marks at from to the current ones after a Step (not full): the old
	// marks' clears first, then the new marks' writes, leaving out a
	// mark that is the same in both states. Valid while Game.obsFresh.
	nMarkOps int
	markOps  [2 * (MaxPlayers + MaxBombs)]markOp
}

// byteRun is the bytes off..end-1 of the planes.
type byteRun struct{ off, end int32 }

// markOp is one write of a per-seat plane's byte, packed in one word (one
// load a write): the value (bits 24–31) at an offset (bits 0–15) in the
// opponents' plane (PlaneOpponents or PlaneOpponentBombs), or one plane
// lower (PlaneSelf or PlaneOwnBombs) in the row of seat (bits 16–23).
type markOp uint32

// newMarkOp packs a markOp.
func newMarkOp(off int, seat, val uint8) markOp {
	return markOp(uint32(uint16(off)) | uint32(seat)<<16 | uint32(val)<<24)
}

// beginDelta starts recording the observation delta from the current state
// when the shared planes are up to date for it (otherwise no row can hold
// it, as rows are written from them): Step calls it with full false
// before the round, Reset with full true before the new map.
func (g *Game) beginDelta(full bool) {
	d := &g.delta
	d.from = 0
	if g.obsVer == 0 || !g.staticFresh || !g.obsFresh {
		return
	}
	d.from, d.full = g.obsVer, full
	d.cells, d.runs = d.cells[:0], d.runs[:0]
	d.dyn = append(d.dyn[:0], g.dyn...)
	d.marks.copyFrom(&g.marks)
}

// diffMarks makes d.markOps the writes that bring the per-seat planes from
// the marks at from (d.marks) to cur: a player mark on the same cell in
// both (the same seat: one player per cell) is left as it is, and a bomb
// mark on the same cell with the same owner gets only its timer written.
// Clears come before writes, so that a clear never undoes a write on the
// same byte.
func (d *obsDelta) diffMarks(cur *obsMarks, hw int) {
	n := 0
	old := &d.marks
	players, bombs := PlaneOpponents*hw, PlaneOpponentBombs*hw
	// Players, in one pass by seat: a player that moved or died has its old
	// cell cleared, one that moved or appeared its new cell written (held
	// back until the clears are in).
	var writes [MaxPlayers]markOp
	nw := 0
	for s, c := range cur.cells[:cur.seats] {
		o := old.cells[s]
		if o == c {
			continue
		}
		if o != noMark {
			d.markOps[n] = newMarkOp(players+int(o), uint8(s), 0)
			n++
		}
		if c != noMark {
			writes[nw] = newMarkOp(players+int(c), uint8(s), 1)
			nw++
		}
	}
	for _, b := range old.bombs[:old.nBombs] {
		if !cur.hasBombOn(b) {
			d.markOps[n] = newMarkOp(bombs+int(b.cell), b.owner, 0)
			n++
		}
	}
	for _, w := range writes[:nw] { // a loop: copy would call memmove
		d.markOps[n] = w
		n++
	}
	for _, b := range cur.bombs[:cur.nBombs] {
		if !old.hasBomb(b) {
			d.markOps[n] = newMarkOp(bombs+int(b.cell), b.owner, b.timer)
			n++
		}
	}
	d.nMarkOps = n
}

// applyDelta brings dst, which holds seat's planes at delta.from, to the
// current shared planes and seat's marks. Changed words go first, a run of
// them at a time: they may
// spill into per-seat planes (with zeros), which the marks then rewrite in
// full, and into the dynamic planes (with their current bytes). After a
// Reset (full) a mark at from is cleared in the one plane it showed in for
// seat (the other plane's byte is zero already, and writing it would only
// bring its cache line in) and writeMarks writes the current ones; after a
// Step only the marks that changed are written (markOps).
func (g *Game) applyDelta(seat int, dst []byte) {
	d := &g.delta
	src := g.obsShared
	dst = dst[:len(src)] // the same length (checkObs): one bounds check a byte below
	for _, r := range d.runs {
		if o := int(r.off); r.end-r.off == 8 {
			binary.LittleEndian.PutUint64(dst[o:], binary.LittleEndian.Uint64(src[o:]))
		} else {
			copy(dst[o:r.end], src[o:r.end])
		}
	}
	for _, off := range d.dyn {
		dst[off] = src[off]
	}
	for _, off := range g.dyn {
		dst[off] = src[off]
	}
	hw := g.width * g.height
	for _, i := range d.cells {
		for _, c := range staticPlanes {
			dst[c*hw+int(i)] = src[c*hw+int(i)]
		}
	}
	if !d.full {
		for _, op := range d.markOps[:d.nMarkOps] {
			o := int(uint16(op))
			if int(uint8(op>>16)) == seat {
				o -= hw
			}
			dst[o] = byte(op >> 24)
		}
		return
	}
	for _, p := range d.marks.players[:d.marks.nPlayers] {
		dst[p.plane(seat)*hw+int(p.cell)] = 0
	}
	for _, b := range d.marks.bombs[:d.marks.nBombs] {
		dst[b.plane(seat)*hw+int(b.cell)] = 0
	}
	g.writeMarks(seat, dst)
}

// obsMarks are what the per-seat planes show of one state: the players on
// their cells (alive; seat order) and the bombs with their timers (slot
// order), and how many players are alive and the round fraction (for the
// scalars).
type obsMarks struct {
	nPlayers, nBombs, alive int
	roundFraction           float32
	// cells are the marked cells by seat (noMark for none), of seats
	// seats. (The used parts of the arrays come first, together.)
	seats   int
	cells   [MaxPlayers]uint16
	players [MaxPlayers]playerMark
	bombs   [MaxBombs]bombMark
}

// noMark is obsMarks.cells' value for a seat whose player is not marked.
const noMark = math.MaxUint16

// playerMark is a player on cell (an index of Game.cells).
type playerMark struct {
	cell uint16
	seat uint8
}

// bombMark is a bomb on cell with owner's seat and the timer the planes
// show.
type bombMark struct {
	cell         uint16
	owner, timer uint8
}

// set makes m the marks of g's state.
func (m *obsMarks) set(g *Game) {
	m.nPlayers, m.nBombs, m.alive = 0, 0, 0
	m.roundFraction = float32(g.round) / float32(g.maxRound+1)
	m.seats = g.nPlayers
	for s := range g.players[:g.nPlayers] {
		// A player is marked when alive and on its cell.
		p := &g.players[s]
		m.cells[s] = noMark
		if p.Killed {
			continue
		}
		m.alive++
		if !g.InBounds(p.X, p.Y) {
			continue
		}
		i := g.index(p.X, p.Y)
		if c := &g.cells[i]; c.Entity == PlayerEntity && int(c.Player) == s {
			m.players[m.nPlayers] = playerMark{uint16(i), uint8(s)}
			m.nPlayers++
			m.cells[s] = uint16(i)
		}
	}
	for b := range g.bombHigh {
		if bomb := &g.bombs[b]; bomb.live {
			m.bombs[m.nBombs] = bombMark{uint16(g.index(bomb.X, bomb.Y)), uint8(bomb.Owner), clampByte(bomb.Timer)}
			m.nBombs++
		}
	}
}

// hasBombOn reports whether m marks a bomb of b's owner on b's cell, with
// any timer.
func (m *obsMarks) hasBombOn(b bombMark) bool {
	for _, c := range m.bombs[:m.nBombs] {
		if c.cell == b.cell && c.owner == b.owner {
			return true
		}
	}
	return false
}

// hasBomb reports whether m marks bomb b: its owner's bomb on its cell
// with its timer.
func (m *obsMarks) hasBomb(b bombMark) bool {
	for _, c := range m.bombs[:m.nBombs] {
		if c == b {
			return true
		}
	}
	return false
}

// copyFrom makes m a copy of the used part of o.
func (m *obsMarks) copyFrom(o *obsMarks) {
	m.nPlayers, m.nBombs, m.alive, m.seats = o.nPlayers, o.nBombs, o.alive, o.seats
	copy(m.players[:o.nPlayers], o.players[:o.nPlayers])
	copy(m.cells[:o.seats], o.cells[:o.seats])
	copy(m.bombs[:o.nBombs], o.bombs[:o.nBombs])
}

// writeMarks writes the per-seat planes (g.marks) into dst, whose per-seat
// planes are zero: the players (seat's own in the self plane) and the bombs
// with their timers (seat's own in the own-bombs plane).
func (g *Game) writeMarks(seat int, dst []byte) {
	hw := g.width * g.height
	m := &g.marks
	for _, p := range m.players[:m.nPlayers] {
		dst[p.plane(seat)*hw+int(p.cell)] = 1
	}
	for _, b := range m.bombs[:m.nBombs] {
		dst[b.plane(seat)*hw+int(b.cell)] = b.timer
	}
}

// plane is the plane the player shows in seat's observation.
func (p playerMark) plane(seat int) int {
	if int(p.seat) == seat {
		return PlaneSelf
	}
	return PlaneOpponents
}

// plane is the plane the bomb shows in seat's observation.
func (b bombMark) plane(seat int) int {
	if int(b.owner) == seat {
		return PlaneOwnBombs
	}
	return PlaneOpponentBombs
}

// writeTouched writes the two [Config.TouchedPlanes] of seat's whole-map
// observation into dst in full: the cells seat's player has occupied, and
// those any other seat's player has.
func (g *Game) writeTouched(seat int, dst []byte) {
	hw := g.width * g.height
	self := dst[PlaneSelfTouched*hw : (PlaneSelfTouched+1)*hw]
	others := dst[PlaneOpponentsTouched*hw : (PlaneOpponentsTouched+1)*hw]
	cells := g.cells[:hw]
	bit := uint16(1) << seat
	for i := range cells {
		t := cells[i].touched
		self[i] = flag(t&bit != 0)
		others[i] = flag(t&^bit != 0)
	}
}

// stepTouched brings the touched planes of dst, which show the state
// before the last Step, up to date: a Step touches only the cells players
// move onto, and a player's cell after the Step is the one it moved onto
// (a player killed that round keeps its last cell), so rewriting each
// player's cell is enough. A cell never becomes untouched but by Reset.
func (g *Game) stepTouched(seat int, dst []byte) {
	hw := g.width * g.height
	bit := uint16(1) << seat
	for s := range g.nPlayers {
		p := &g.players[s]
		if !g.InBounds(p.X, p.Y) {
			continue
		}
		i := g.index(p.X, p.Y)
		t := g.cells[i].touched
		dst[PlaneSelfTouched*hw+i] = flag(t&bit != 0)
		dst[PlaneOpponentsTouched*hw+i] = flag(t&^bit != 0)
	}
}

// staticPlanes are the planes that change only when a wall is destroyed or
// a power-up is taken or uncovered.
var staticPlanes = [...]int{PlaneIndestructible, PlaneDestructible, PlaneBagPowerUp, PlaneRadiusPowerUp, PlaneSuperPowerUp}

// shownCode is what the static planes show of cell c: 0 nothing, then
// one code per plane of shownPlane. Power-ups are visible only when no
// entity covers them, as in state.json.
func shownCode(c *Cell) uint8 {
	switch c.Entity {
	case IndestructibleWall:
		return 1
	case DestructibleWall:
		return 2
	case NoEntity:
		if c.PowerUp != NoPowerUp && c.PowerUp <= SuperPowerUp {
			return 2 + uint8(c.PowerUp)
		}
	}
	return 0
}

// shownPlane is the static plane of each shownCode but 0.
var shownPlane = [...]int{1: PlaneIndestructible, 2: PlaneDestructible, 3: PlaneBagPowerUp, 4: PlaneRadiusPowerUp, 5: PlaneSuperPowerUp}

// writeStaticPlanes zeroes dst and writes the static planes (walls and
// visible power-ups), and records what they show of each cell in its
// shown code.
func (g *Game) writeStaticPlanes(dst []byte) {
	clear(dst)
	hw := g.width * g.height
	for i := range hw {
		c := &g.cells[i]
		code := shownCode(c)
		c.shown = code
		if code != 0 {
			dst[shownPlane[code]*hw+i] = 1
		}
	}
}

// restatic brings the static planes of obsShared, which show the state at
// delta.from (a Reset's), to the current map in place: every cell whose
// shown code changed gets its old plane's byte cleared and its new one's
// set, and the words of those bytes are listed in delta.runs, in order.
// The dynamic planes are left to writeDynamicPlanes, which clears the
// bytes g.dyn lists; the per-seat planes are zero throughout.
func (g *Game) restatic() {
	hw := g.width * g.height
	d := &g.delta
	bits := d.wordBits
	clear(bits)
	dst := g.obsShared
	cells := g.cells[:hw]
	for i := range cells {
		c := &cells[i]
		code, old := shownCode(c), c.shown
		if code == old {
			continue
		}
		c.shown = code
		if old != 0 {
			o := shownPlane[old]*hw + i
			dst[o] = 0
			bits[o>>9] |= 1 << (o >> 3 & 63)
		}
		if code != 0 {
			o := shownPlane[code]*hw + i
			dst[o] = 1
			bits[o>>9] |= 1 << (o >> 3 & 63)
		}
	}
	d.runs = d.runs[:0]
	n := int32(len(dst))
	for w, b := range bits {
		for ; b != 0; b &= b - 1 {
			off := int32(w<<9 | mathbits.TrailingZeros64(b)<<3)
			end := min(off+8, n)
			if k := len(d.runs) - 1; k >= 0 && d.runs[k].end == off {
				d.runs[k].end = end
			} else {
				d.runs = append(d.runs, byteRun{off, end})
			}
		}
	}
}

// refreshStatic rewrites cell i of the cached static planes after Step
// changed its entity or power-up, when that changed what they show, and
// records the cell in the delta.
func (g *Game) refreshStatic(i int) {
	if !g.staticFresh {
		return
	}
	c := &g.cells[i]
	code := shownCode(c)
	if code == c.shown {
		return
	}
	hw := g.width * g.height
	if old := c.shown; old != 0 {
		g.obsShared[shownPlane[old]*hw+i] = 0
	}
	if code != 0 {
		g.obsShared[shownPlane[code]*hw+i] = 1
	}
	c.shown = code
	d := &g.delta
	if d.from == 0 || d.full {
		return
	}
	if len(d.cells) == cap(d.cells) {
		d.from = 0 // more changes than cells: rows are rewritten in full
		return
	}
	d.cells = append(d.cells, int32(i))
}

// writeDynamicPlanes brings the planes that change every round up to date
// in dst: bomb radius, danger and explosions. It zeroes the bytes g.dyn
// lists (the last state's) and writes and lists the non-zero ones of the
// current state, so that it never visits the whole planes.
func (g *Game) writeDynamicPlanes(dst []byte) {
	for _, off := range g.dyn {
		dst[off] = 0
	}
	g.dyn = g.dyn[:0]
	hw := g.width * g.height
	switch {
	case !g.blasts:
		// Only a round with blasts (or a fresh or loaded map) leaves
		// explosions to show.
	case g.blastsListed:
		for _, i := range g.scratch.blast[:g.scratch.nBlast] {
			g.setDyn(dst, PlaneExploding*hw+int(i), 1)
		}
	default:
		for i := range hw {
			if g.cells[i].reached != 0 {
				g.setDyn(dst, PlaneExploding*hw+i, 1)
			}
		}
	}
	for b := range g.bombHigh {
		if bomb := &g.bombs[b]; bomb.live {
			g.setDyn(dst, PlaneBombRadius*hw+g.index(bomb.X, bomb.Y), clampByte(bomb.Radius))
		}
	}
	if g.bombHigh > 0 {
		g.writeDanger(dst[PlaneDanger*hw:(PlaneDanger+1)*hw], PlaneDanger*hw)
	}
}

// setDyn writes v (not 0) at dst[off] of the dynamic planes and lists off
// if it was zero.
func (g *Game) setDyn(dst []byte, off int, v byte) {
	if dst[off] == 0 {
		g.dyn = append(g.dyn, uint16(off))
	}
	dst[off] = v
}

func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// writeDanger writes, for every cell some bomb's blast would reach, the
// number of round-processings before it does: the smallest timer of the
// chain of bombs that reaches it (a blast detonates every bomb it reaches).
// Rays follow the original's propagation (§4.3) on the current map. With
// base >= 0, dst is the danger plane of the shared planes at offset base,
// and the cells it makes non-zero are listed in g.dyn.
func (g *Game) writeDanger(dst []byte, base int) {
	fuse := g.chainFuses()
	for b := range g.bombHigh {
		if !g.bombs[b].live {
			continue
		}
		f := clampByte(fuse[b])
		if f == 0 {
			f = 1
		}
		g.blastRays(b, func(i int) {
			switch {
			case dst[i] == 0:
				if base >= 0 {
					g.dyn = append(g.dyn, uint16(base+i))
				}
				dst[i] = f
			case f < dst[i]:
				dst[i] = f
			}
		})
	}
}

// chainFuses returns, for every live bomb slot, the number of round
// processings before the bomb explodes: its timer, or less when the blast of
// a bomb with a shorter fuse reaches it (directly or through other bombs) and
// so detonates it at once. Rays are cast on the current map, as the engine
// casts them before it removes anything. The result is cached until the
// state changes (small enough to inline, the cached case costs no call).
func (g *Game) chainFuses() *[MaxBombs]int {
	if !g.fusesFresh {
		g.computeFuses()
	}
	return &g.fuses
}

// computeFuses computes [Game.chainFuses], the bombs each seat has on the
// map and fuseDue for the current state, and marks them fresh.
func (g *Game) computeFuses() {
	fuse := &g.fuses
	clear(g.onMap[:])
	for b := range g.bombHigh {
		fuse[b] = g.bombs[b].Timer
		if g.bombs[b].live {
			g.onMap[g.bombs[b].Owner]++
		}
	}
	// Propagate the earliest fuse along "blast reaches bomb" edges until
	// nothing changes; each pass settles at least one more bomb.
	for changed := true; changed; {
		changed = false
		for b := range g.bombHigh {
			if !g.bombs[b].live {
				continue
			}
			g.blastRays(b, func(i int) {
				if o := g.cells[i].bomb; o != 0 && int(o-1) != b && fuse[b] < fuse[o-1] {
					fuse[o-1] = fuse[b]
					changed = true
				}
			})
		}
	}
	g.fuseDue = false
	for b := range g.bombHigh {
		g.fuseDue = g.fuseDue || (g.bombs[b].live && fuse[b] <= 1)
	}
	g.fusesFresh = true
}

// blastRays calls visit with the index of every cell bomb slot b's blast
// would mark or stop at, by the original's rules: rays +x, −x, +y, −y out
// to the radius, stopping at walls (indestructible ones unmarked) and at
// other bombs, passing through players.
func (g *Game) blastRays(b int, visit func(i int)) {
	bomb := &g.bombs[b]
	visit(g.index(bomb.X, bomb.Y))
	for _, d := range rayDirs {
		for k := 1; k <= bomb.Radius; k++ {
			x, y := bomb.X+d[0]*k, bomb.Y+d[1]*k
			if !g.InBounds(x, y) {
				break
			}
			i := g.index(x, y)
			c := &g.cells[i]
			if c.Entity == IndestructibleWall {
				break
			}
			visit(i)
			if c.bomb != 0 || c.Entity == DestructibleWall {
				break
			}
		}
	}
}

// writeScalars writes seat's scalars into dst, each straight into its
// place with a constant offset (no bounds check).
func (g *Game) writeScalars(seat int, all []byte) {
	dst := all[: 4*NumScalars : 4*NumScalars]
	le := binary.LittleEndian
	p := &g.players[seat]
	alive := float32(0)
	if !p.Killed {
		alive = 1
	}
	opponents := float32(g.marks.alive) - alive // g.marks and g.onMap are fresh: see sharedPlanes
	var idle float32
	if len(g.cfg.ConsoleSeats) == 0 || !g.cfg.isConsole(seat) {
		idle = float32(p.Idle) / 20
	}
	le.PutUint32(dst[4*ScalarRoundFraction:], math.Float32bits(g.marks.roundFraction))
	le.PutUint32(dst[4*ScalarBombBag:], math.Float32bits(float32(p.BombBag)))
	le.PutUint32(dst[4*ScalarBombsLeft:], math.Float32bits(float32(p.BombBag-g.onMap[seat])))
	le.PutUint32(dst[4*ScalarBombRadius:], math.Float32bits(float32(p.BombRadius)))
	le.PutUint32(dst[4*ScalarPoints:], math.Float32bits(float32(p.Counter+p.Coverage)/100)) // p.Points(), without copying p
	le.PutUint32(dst[4*ScalarAlive:], math.Float32bits(alive))
	le.PutUint32(dst[4*ScalarOpponentsAlive:], math.Float32bits(opponents))
	le.PutUint32(dst[4*ScalarIdle:], math.Float32bits(idle))
	if g.cfg.OpponentScalars {
		g.writeOpponentScalars(seat, all[4*NumScalars:])
	}
}

// writeOpponentScalars writes the [Config.OpponentScalars] of seat into
// dst (their 12 bytes, after the others): the bomb bag, blast radius and
// points/100 of the strongest opponent, the other seat alive with the most
// points (the lowest seat on a tie), whom planner's rollout value
// subtracts; 0s when no other seat is alive.
func (g *Game) writeOpponentScalars(seat int, dst []byte) {
	dst = dst[: 4*(NumScalarsOpponent-NumScalars) : 4*(NumScalarsOpponent-NumScalars)]
	best, bestPoints := -1, 0
	for s := range g.nPlayers {
		q := &g.players[s]
		if s == seat || q.Killed {
			continue
		}
		if pts := q.Counter + q.Coverage; best < 0 || pts > bestPoints {
			best, bestPoints = s, pts
		}
	}
	var bag, radius, points float32
	if best >= 0 {
		q := &g.players[best]
		bag, radius, points = float32(q.BombBag), float32(q.BombRadius), float32(bestPoints)/100
	}
	le := binary.LittleEndian
	le.PutUint32(dst[4*(ScalarOpponentBombBag-NumScalars):], math.Float32bits(bag))
	le.PutUint32(dst[4*(ScalarOpponentBombRadius-NumScalars):], math.Float32bits(radius))
	le.PutUint32(dst[4*(ScalarOpponentPoints-NumScalars):], math.Float32bits(points))
}

// bombsOnMap counts seat's bombs on the map, exploding ones included, for
// observations and masks: it is cached with the chain fuses, so it reflects
// the state between steps. Round processing uses countBombs.
func (g *Game) bombsOnMap(seat int) int {
	g.chainFuses()
	return g.onMap[seat]
}

// WriteMask writes seat's legal actions into dst (len 7): the commands the
// original would accept this round. A dead seat, a seat the do-nothing rule
// has taken over, a seat whose player a blast kills before commands (the
// engine ignores its command), and every seat of a finished game may only
// do nothing.
// It never allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != NumActions {
		panic(fmt.Sprintf("bomberman: WriteMask: got %d mask entries, want %d", len(dst), NumActions))
	}
	clear(dst)
	dst[DoNothing] = 1
	p := &g.players[seat]
	if g.done || p.Killed || g.forced(seat) || g.doomed(seat) {
		return
	}
	// A move may target a cell on the map without a wall or a bomb.
	at, w := g.index(p.X, p.Y), g.width
	if p.Y > 1 {
		dst[MoveUp] = g.walkFlag(at - w)
	}
	if p.X > 1 {
		dst[MoveLeft] = g.walkFlag(at - 1)
	}
	if p.X < g.width {
		dst[MoveRight] = g.walkFlag(at + 1)
	}
	if p.Y < g.height {
		dst[MoveDown] = g.walkFlag(at + w)
	}
	onMap := g.bombsOnMap(seat)
	if onMap < p.BombBag && g.cells[g.index(p.X, p.Y)].bomb == 0 && g.freeBombSlot() >= 0 {
		dst[PlaceBomb] = 1
	}
	if onMap > 0 {
		fuse := g.chainFuses()
		for b := range g.bombHigh {
			if g.triggerable(b, seat, fuse) {
				dst[TriggerBomb] = 1
				break
			}
		}
	}
	if g.safety != nil {
		g.safety.safeMask(g, seat, dst, g.cfg.SafeMaskWary, g.cfg.SafeMaskStrict)
	}
}

// triggerable reports whether a trigger by seat this round may set off
// bomb slot b (fuse from chainFuses): seat's bomb, still there when
// commands are processed. Bombs that explode before commands (timer 1, or
// detonated by such a bomb's chain) can no longer be triggered.
func (g *Game) triggerable(b, seat int, fuse *[MaxBombs]int) bool {
	bb := &g.bombs[b]
	return bb.live && bb.Owner == seat && !bb.Exploding && fuse[b] > 1
}

// triggerTarget returns the slot of the bomb a trigger by seat this round
// sets off, as the engine chooses it (triggerBomb: the lowest timer, then
// the lowest cell index) among the [Game.triggerable] ones, or -1 when
// there is none.
func (g *Game) triggerTarget(seat int) int {
	fuse := g.chainFuses()
	best, bestIdx := -1, 0
	for b := range g.bombHigh {
		if !g.triggerable(b, seat, fuse) {
			continue
		}
		bb := &g.bombs[b]
		if idx := g.index(bb.X, bb.Y); best < 0 || bb.Timer < g.bombs[best].Timer || bb.Timer == g.bombs[best].Timer && idx < bestIdx {
			best, bestIdx = b, idx
		}
	}
	return best
}

// walkFlag is 1 when a move may target cell i, 0 otherwise: no wall (a
// player is fine: NoEntity and PlayerEntity, bits 0 and 3 of 0b1001) and no
// bomb. It has no branch on the cell, whose walls are random.
func (g *Game) walkFlag(i int) byte {
	c := &g.cells[i]
	return uint8(0b1001) >> c.Entity & 1 & flag(c.bomb == 0)
}

// countBombs counts seat's bombs on the map now, exploding ones included.
func (g *Game) countBombs(seat int) int {
	n := 0
	for b := range g.bombHigh {
		if g.bombs[b].live && g.bombs[b].Owner == seat {
			n++
		}
	}
	return n
}

// doomed reports whether seat's player stands where a blast reaches before
// commands are processed: the engine then kills it in the first kill pass
// and ignores its command.
func (g *Game) doomed(seat int) bool {
	fuse := g.chainFuses()
	if !g.fuseDue {
		return false
	}
	p := &g.players[seat]
	at := g.index(p.X, p.Y)
	hit := false
	for b := range g.bombHigh {
		if !g.bombs[b].live || fuse[b] > 1 {
			continue
		}
		g.blastRays(b, func(i int) {
			if i == at {
				hit = true
			}
		})
		if hit {
			return true
		}
	}
	return false
}

// moveDelta is the (dx, dy) of each move action.
var moveDelta = [NumActions][2]int{MoveUp: {0, -1}, MoveLeft: {-1, 0}, MoveRight: {1, 0}, MoveDown: {0, 1}}

// forced reports whether the 20-do-nothing rule has taken seat over: past 21
// consecutive do-nothings the harness sends Trigger every round.
func (g *Game) forced(seat int) bool {
	return g.players[seat].Idle > doNothingLimit && !g.cfg.isConsole(seat)
}

// What the 20-do-nothing rule makes of a seat's next Do Nothing
// ([Game.nextWait]).
const (
	// waitStays: a wait (a console seat's always is).
	waitStays = iota
	// waitPlants: the bot's 20th in a row, which the harness turns into
	// Place Bomb.
	waitPlants
	// waitTakesOver: the bot's 21st in a row, after which the harness stops
	// running it and sends Trigger every round ([Game.forced]).
	waitTakesOver
)

// nextWait reports what the 20-do-nothing rule (spec §7.3) makes of seat's
// next Do Nothing, from its count of consecutive do-nothings so far.
func (g *Game) nextWait(seat int) int {
	if g.cfg.isConsole(seat) {
		return waitStays
	}
	switch idle := g.players[seat].Idle; {
	case idle == doNothingLimit-1:
		return waitPlants
	case idle >= doNothingLimit:
		return waitTakesOver
	}
	return waitStays
}

// doNothingLimit is the consecutive do-nothing count at which the harness
// plants a bomb for a bot (spec §7.3).
const doNothingLimit = 20

// freeBombSlot returns the lowest free slot in g.bombs, or -1.
func (g *Game) freeBombSlot() int {
	for b := range g.bombHigh {
		if !g.bombs[b].live {
			return b
		}
	}
	if g.bombHigh < MaxBombs {
		return g.bombHigh
	}
	return -1
}

func clampByte(v int) byte {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return byte(v)
}
