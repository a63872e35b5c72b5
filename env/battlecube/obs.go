package battlecube

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/botarena/botarena/env"
)

// Observation planes, in order; see the package doc for the layout.
const (
	PlaneSelf = iota
	PlaneOthers
	PlaneBombs
	// NumPlanes is C, the number of planes.
	NumPlanes
)

// Scalar features, in order; see the package doc.
const (
	ScalarTickFraction = iota
	ScalarBotsInPlay
	ScalarSubTick
	ScalarInPlay
	// NumScalars is the length of the scalar vector without
	// Config.History.
	NumScalars
)

// History scalars, after the four above when Config.History is set; see
// the package doc. A tick counts for a seat when the seat was in play at
// its start; the seat stood still in it when it ends the tick's tasks on
// the cell it started on (a NOOP, a bomb, or a move that went nowhere).
const (
	// ScalarStillShare is the share of the seat's ticks so far in which
	// it stood still (0 before its first).
	ScalarStillShare = NumScalars + iota
	// ScalarStillRun is min(r, HistoryRunCap)/HistoryRunCap for the r
	// ticks in a row the seat has stood still up to now.
	ScalarStillRun
	// ScalarOthersStill is the mean ScalarStillShare of the other bots in
	// play (0 when none is).
	ScalarOthersStill
	numScalarsHistory
)

// NumHistoryScalars is how many scalars Config.History adds.
const NumHistoryScalars = numScalarsHistory - NumScalars

// Cycle-mark scalars (Config.CycleMarks), after all others, at
// [CycleMarksOffset]: entry CycleMarkSelf+d is 1 when the cell the seat
// reaches by direction d (0 stay, 1..6 the moves +X, −X, +Y, −Y, +Z, −Z, as
// the move actions) is its own cycle-start cell, entry CycleMarkOthers+d
// when it is the cycle-start cell of another bot in play; 0 otherwise, off
// the cube, and for a seat out of play.
const (
	CycleMarkSelf   = 0
	CycleMarkOthers = int(NumFixedActions)
	// NumCycleMarkScalars is how many scalars Config.CycleMarks adds.
	NumCycleMarkScalars = 2 * int(NumFixedActions)
)

// CycleMarksOffset returns the index of cfg's first cycle-mark scalar:
// after the four scalars of every config and the history scalars when
// cfg.History is set.
func CycleMarksOffset(cfg *Config) int {
	if cfg.History {
		return numScalarsHistory
	}
	return NumScalars
}

// HistoryRunCap is the run of ticks standing still at which
// ScalarStillRun reaches 1.
const HistoryRunCap = 8

// Names of the observation tensors.
const (
	TensorPlanes  = "planes"
	TensorScalars = "scalars"
)

// RewardDefinition is the reward text of the Spec.
const RewardDefinition = "terminal: -1 to a seat in the tick it is lost (out of bounds, a bomb, a crash, a rejected reply); " +
	"+1 to the winner when exactly one bot is left (WINNER_FOUND); 0 to each bot still in play when the tick limit ends the game (TIE)."

// specs caches the Specs by registry name and the config fields they
// depend on, so that envs of one config share one (with its E³ action
// names).
var specs sync.Map // specKey -> *env.Spec

type specKey struct {
	name                             string
	edge, players, maxTick           int
	history, cycleMarks, tasksScalar bool
}

// scalarsOf returns the length of cfg's scalar vector.
func scalarsOf(cfg *Config) int {
	n := CycleMarksOffset(cfg)
	if cfg.CycleMarks {
		n += NumCycleMarkScalars
	}
	if cfg.TasksScalar {
		n++
	}
	return n
}

func newSpec(name string, cfg *Config) *env.Spec {
	k := specKey{name, cfg.Edge, cfg.Players, cfg.MaxTicks, cfg.History, cfg.CycleMarks, cfg.TasksScalar}
	if s, ok := specs.Load(k); ok {
		return s.(*env.Spec)
	}
	s, _ := specs.LoadOrStore(k, buildSpec(name, cfg))
	return s.(*env.Spec)
}

func buildSpec(name string, cfg *Config) *env.Spec {
	e := cfg.Edge
	n := NumActions(e)
	names := make([]string, n)
	names[Noop] = "noop"
	for a := MovePlusX; a < NumFixedActions; a++ {
		names[a] = "move" + moveNames[a]
	}
	for z := range e {
		for y := range e {
			for x := range e {
				names[BombAction(e, x, y, z)] = fmt.Sprintf("bomb(%d,%d,%d)", x, y, z)
			}
		}
	}
	scalars := "[4]: currentTick/maxTicks, bots in play, (sub-tick-1)/tasks per tick of the coming tick, self in play"
	if cfg.History {
		scalars = fmt.Sprintf("[%d]: currentTick/maxTicks, bots in play, (sub-tick-1)/tasks per tick of the coming tick, self in play, "+
			"share of self's ticks standing still, min(self's ticks standing still in a row, %d)/%d, mean share of the other bots in play",
			numScalarsHistory, HistoryRunCap, HistoryRunCap)
	}
	if cfg.CycleMarks {
		scalars = fmt.Sprintf("[%d]: %s; then at %d..%d, for the seat's cell and its neighbours (stay, +X, -X, +Y, -Y, +Z, -Z): "+
			"1 if it is the seat's own cycle-start cell (where it stood when bots were last asked), then at %d..%d: 1 if it is another bot's in play",
			scalarsOf(cfg), scalars[strings.Index(scalars, " ")+1:], CycleMarksOffset(cfg), CycleMarksOffset(cfg)+CycleMarkOthers-1,
			CycleMarksOffset(cfg)+CycleMarkOthers, CycleMarksOffset(cfg)+NumCycleMarkScalars-1)
	}
	if cfg.TasksScalar {
		scalars = fmt.Sprintf("[%d]: %s; then at %d: 1/tasks per tick", scalarsOf(cfg), scalars[strings.Index(scalars, " ")+1:], scalarsOf(cfg)-1)
	}
	return &env.Spec{
		Game:  name,
		Seats: cfg.Players,
		Obs: []env.Tensor{
			{
				Name:   TensorPlanes,
				DType:  env.Uint8,
				Shape:  []int{NumPlanes, e, e, e},
				Layout: fmt.Sprintf("[C,D,H,W] = [%d,%d,%d,%d]: index = c*E³ + z*E² + y*E + x for cell (x,y,z); planes: self, other bots in play, bombs", NumPlanes, e, e, e),
				Shared: []int{PlaneBombs},
			},
			{
				Name:   TensorScalars,
				DType:  env.Float32,
				Shape:  []int{scalarsOf(cfg)},
				Layout: scalars,
			},
		},
		Actions:     n,
		ActionNames: names,
		MaxSteps:    cfg.MaxTicks,
		Reward:      RewardDefinition,
	}
}

// WriteObs writes seat's observation into dst: dst[0] the planes, dst[1]
// the scalars (see the package doc). It panics on wrong lengths and never
// allocates.
func (g *Game) WriteObs(seat int, dst [][]byte) {
	g.checkObs(dst)
	v := g.view()
	planes := dst[0]
	clear(planes[:PlaneBombs*g.cells])
	g.markBots(seat, planes)
	g.writeBombs(planes[PlaneBombs*g.cells:])
	g.writeScalars(v, seat, dst[1])
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns a version of what it wrote, given have: 0, or the version an
// earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. With have the last version of the
// seat, written by this game: when that write showed the current state,
// it writes only the scalars; when it showed the state the view's moves
// start from (see [obsView]), it changes in the self and others planes
// only the bytes of the bots that moved, left or came, instead of both
// planes, and when it showed the state before the last Step or Reset, it
// writes in the bombs plane only the cells that the Step or Reset
// changed. The bytes are those WriteObs writes, in every case. vecenv
// calls it for rows that keep their env from step to step. It panics as
// WriteObs does, and never allocates once warm (the first call makes the
// record of the writes).
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.checkObs(dst)
	m := g.marks
	if m == nil {
		m = &obsMarks{seats: make([]seatMarks, g.n)}
		g.marks = m
	}
	v := g.view()
	sm := &m.seats[seat]
	if known := have != 0 && have == sm.ver && sm.by == g; !known || sm.shows != g.stateVer {
		planes, c := dst[0], g.cells
		if known && sm.shows == v.from && v.from != 0 {
			gone, came := v.changes()
			for _, b := range gone {
				planes[b.offset(seat, c)] = 0
			}
			for _, b := range came {
				planes[b.offset(seat, c)] = 1
			}
		} else {
			clear(planes[:PlaneBombs*c])
			g.markBots(seat, planes)
		}
		bombs := planes[PlaneBombs*c:]
		if known && sm.shows == g.bombsFrom && g.bombsFrom != 0 {
			for _, i := range g.bombCells[:g.nBombCells] {
				bombs[i] = g.bombByte(int(i))
			}
		} else {
			g.writeBombs(bombs)
		}
		sm.shows, sm.by = g.stateVer, g
	}
	g.writeScalars(v, seat, dst[1])
	m.writes++
	sm.ver = m.writes
	return m.writes
}

// checkObs panics unless dst has the spec's tensors; the spec's full check
// runs only when the cheap one fails.
func (g *Game) checkObs(dst [][]byte) {
	if len(dst) != 2 || len(dst[0]) != NumPlanes*g.cells || len(dst[1]) != 4*g.nScalars {
		g.spec.CheckObs(dst)
	}
}

// obsMarks records, per seat, what the last [Game.UpdateObs] of the seat
// wrote. It sits behind a pointer, so copies of a Game share it; the
// versions number every write of the record, so a row last written
// through another copy is not the one recorded and is written in full,
// and state versions count only for the game that made them.
type obsMarks struct {
	writes uint64
	seats  []seatMarks
}

// seatMarks is a seat's part of [obsMarks]: the version the write returned,
// the game that made it and the state it showed (a Game.stateVer).
type seatMarks struct {
	ver, shows uint64
	by         *Game
}

// obsView is what the observations of every seat of one state show alike,
// made once per state by [Game.view] rather than once per seat, with
// Game.botAt. 64 bytes: what a row's update reads of it shares a line.
type obsView struct {
	// ver is the Game.stateVer it shows; 0 before the first.
	ver uint64
	// inPlay has bit s set for every seat s in play.
	inPlay uint64
	// scalars are the bytes of the scalars every seat sees alike
	// (ScalarTickFraction to ScalarSubTick).
	scalars [4 * ScalarInPlay]byte
	// nGone and nCame count the bots of changes (see there).
	nGone, nCame int16
	// from is the state (Game.prevVer when the view was made; 0: none)
	// from whose bots [obsView.changes] leads to this one's; moved is the
	// room of changes: two halves, each with room for one bot per seat.
	from  uint64
	moved []botCell
}

// changes returns the bots of the state v.from whose marks go and the
// bots of v's state whose marks come: a bot on the same cell in both is
// in neither, unless two bots of v.from share a cell: then every bot of
// v.from goes and every bot of v's state comes.
func (v *obsView) changes() (gone, came []botCell) {
	half := len(v.moved) / 2
	return v.moved[:v.nGone], v.moved[half : half+int(v.nCame)]
}

// botCell is a bot of [obsView.changes]: its seat and the offset of its
// cell in the others plane.
type botCell struct {
	others int32
	seat   int32
}

// offset returns the offset in planes of the bot's mark in seat's
// observation of a cube of c cells: in the self plane for the seat's
// own bot, in the others plane for the rest.
func (b botCell) offset(seat, c int) int32 {
	if int(b.seat) == seat {
		return b.others - int32(PlaneOthers*c) + int32(PlaneSelf*c)
	}
	return b.others
}

// view returns the current state's [obsView], made on the first call for
// the state.
func (g *Game) view() *obsView {
	if g.shown.ver != g.stateVer {
		g.makeView()
	}
	return &g.shown
}

// makeView makes g.shown and g.botAt for the current state.
func (g *Game) makeView() {
	v := &g.shown
	botAt := g.botAt[:g.n]
	var inPlay uint64
	for s := range botAt {
		p := &g.players[s]
		o := int32(-1)
		if p.InPlay && g.inCube(p.X, p.Y, p.Z) {
			o = int32(PlaneOthers*g.cells + g.index(p.X, p.Y, p.Z))
		}
		botAt[s] = o
		if p.InPlay {
			inPlay |= 1 << s
		}
	}
	v.inPlay, v.from = inPlay, g.prevVer
	v.nGone, v.nCame = movedBots(v.moved, g.prevBotAt[:len(botAt)], botAt, g.prevShare)
	g.botsShare = shareCell(botAt)
	binary.LittleEndian.PutUint32(v.scalars[4*ScalarTickFraction:], math.Float32bits(float32(g.tick)/float32(g.maxTicks)))
	binary.LittleEndian.PutUint32(v.scalars[4*ScalarBotsInPlay:], math.Float32bits(float32(bits.OnesCount64(inPlay))))
	binary.LittleEndian.PutUint32(v.scalars[4*ScalarSubTick:], math.Float32bits(float32(g.SubTick()-1)/float32(g.tasks)))
	v.ver = g.stateVer
}

// movedBots writes into the halves of moved (see [obsView.changes]) the
// bots of prev (offsets in the others plane by seat, as Game.botAt) whose
// marks go and those of now whose marks come, and returns their numbers:
// every bot when all is set, else those not on the same cell in both.
func movedBots(moved []botCell, prev, now []int32, all bool) (nGone, nCame int16) {
	gone, came := moved[:len(prev)], moved[len(prev):]
	now = now[:len(prev)]
	for s, o := range prev {
		if n := now[s]; n != o || all {
			if o >= 0 {
				gone[nGone] = botCell{others: o, seat: int32(s)}
				nGone++
			}
			if n >= 0 {
				came[nCame] = botCell{others: n, seat: int32(s)}
				nCame++
			}
		}
	}
	return nGone, nCame
}

// shareCell reports whether two bots of botAt (as Game.botAt) are on one
// cell.
func shareCell(botAt []int32) bool {
	var seen uint64 // bit o%64 for every offset o so far
	for s, o := range botAt {
		if o < 0 {
			continue
		}
		if bit := uint64(1) << (o % 64); seen&bit == 0 {
			seen |= bit
		} else if slices.Contains(botAt[:s], o) {
			return true
		}
	}
	return false
}

// bombsChanged gives the state a new version with no delta of the bombs
// from an earlier one: LoadNative calls it.
func (g *Game) bombsChanged() {
	g.stateVer++
	g.bombsFrom = 0
}

// beginState gives the state a new version and starts recording the
// cells of bombBits that the Reset or Step calling it changes from the
// current one. When rows were written from the current state (its view is
// made), its bots become prevBots, which rows that show it clear.
func (g *Game) beginState() {
	if g.shown.ver == g.stateVer {
		g.prevBotAt, g.botAt = g.botAt, g.prevBotAt
		g.prevVer, g.prevShare = g.stateVer, g.botsShare
	}
	g.bombsFrom = g.stateVer
	g.stateVer++
	g.nBombCells = 0
}

// bombSet records that the Reset or Step set or cleared bomb cell i; past
// the record's capacity it has no delta (rows get the bombs in full).
func (g *Game) bombSet(i int) {
	if g.nBombCells == len(g.bombCells) {
		g.bombsFrom = 0
		return
	}
	g.bombCells[g.nBombCells] = int32(i)
	g.nBombCells++
}

// markBots marks the bots of g.botAt in seat's self and others planes of
// planes, which are zero there.
func (g *Game) markBots(seat int, planes []byte) {
	for s, o := range g.botAt {
		if o >= 0 {
			planes[botCell{others: o, seat: int32(s)}.offset(seat, g.cells)] = 1
		}
	}
}

// writeScalars writes seat's scalars into sc, v the current state's view.
func (g *Game) writeScalars(v *obsView, seat int, sc []byte) {
	sc = sc[:4*g.nScalars]
	*(*[4 * ScalarInPlay]byte)(sc) = v.scalars
	self := uint32(0)
	if v.inPlay>>seat&1 != 0 {
		self = one
	}
	binary.LittleEndian.PutUint32(sc[4*ScalarInPlay:], self)
	if g.moreScalars {
		g.writeMoreScalars(seat, sc)
	}
}

// writeMoreScalars writes seat's scalars after the first NumScalars into
// sc (its whole scalars): those of Config.History, Config.CycleMarks and
// Config.TasksScalar.
func (g *Game) writeMoreScalars(seat int, sc []byte) {
	if g.hist != nil {
		g.writeHistory(seat, sc)
	}
	if g.cycStart != nil {
		g.writeCycleMarks(seat, sc[4*CycleMarksOffset(&g.cfg):])
	}
	if g.cfg.TasksScalar {
		binary.LittleEndian.PutUint32(sc[4*(g.nScalars-1):], math.Float32bits(1/float32(g.tasks)))
	}
}

// recordCycleStarts records every seat's cell as its cycle-start cell
// (Config.CycleMarks): Step calls it at a cycle's first tick, before the
// tasks, and LoadNative for the loaded state.
func (g *Game) recordCycleStarts() {
	for s := range g.n {
		p := &g.players[s]
		g.cycStart[s] = [3]int32{int32(p.X), int32(p.Y), int32(p.Z)}
	}
}

// writeCycleMarks writes seat's cycle-mark scalars (Config.CycleMarks)
// into sc, which starts at the first of them: one pass over the bots in
// play, each cycle-start cell at distance 0 or 1 from the seat's cell
// marking the direction that reaches it.
func (g *Game) writeCycleMarks(seat int, sc []byte) {
	sc = sc[:4*NumCycleMarkScalars]
	clear(sc)
	p := &g.players[seat]
	if !p.InPlay {
		return
	}
	now := g.SubTick() == 1 // the cycle starts at the coming tick: the cells now
	for s := range g.n {
		q := &g.players[s]
		if !q.InPlay {
			continue
		}
		x, y, z := q.X, q.Y, q.Z
		if !now {
			c := &g.cycStart[s]
			x, y, z = int(c[0]), int(c[1]), int(c[2])
		}
		d, ok := direction(x-p.X, y-p.Y, z-p.Z)
		if !ok {
			continue
		}
		k := CycleMarkOthers + int(d)
		if s == seat {
			k = CycleMarkSelf + int(d)
		}
		binary.LittleEndian.PutUint32(sc[4*k:], one)
	}
}

// one is the bits of float32 1 (math.Float32bits(1)).
const one = 0x3f800000

// direction returns the action that reaches the cell at offset (dx, dy,
// dz): Noop for (0,0,0), the move for a unit step along one axis; false
// for any other offset.
func direction(dx, dy, dz int) (Action, bool) {
	switch {
	case dx|dy|dz == 0:
		return Noop, true
	case dy == 0 && dz == 0 && (dx == 1 || dx == -1):
		return MovePlusX + Action(1-dx)/2, true
	case dx == 0 && dz == 0 && (dy == 1 || dy == -1):
		return MovePlusY + Action(1-dy)/2, true
	case dx == 0 && dy == 0 && (dz == 1 || dz == -1):
		return MovePlusZ + Action(1-dz)/2, true
	}
	return 0, false
}

// writeHistory writes seat's history scalars (Config.History) into sc.
func (g *Game) writeHistory(seat int, sc []byte) {
	h := &g.hist[seat]
	run := min(h.run, HistoryRunCap)
	others, k := float32(0), 0
	for s := range g.n {
		if s != seat && g.players[s].InPlay {
			others += g.hist[s].share()
			k++
		}
	}
	if k > 0 {
		others /= float32(k)
	}
	binary.LittleEndian.PutUint32(sc[4*ScalarStillShare:], math.Float32bits(h.share()))
	binary.LittleEndian.PutUint32(sc[4*ScalarStillRun:], math.Float32bits(float32(run)/HistoryRunCap))
	binary.LittleEndian.PutUint32(sc[4*ScalarOthersStill:], math.Float32bits(others))
}

// seatHistory counts a seat's ticks (those it started in play) since the
// Reset or LoadNative, the ticks of those it stood still in, and how
// many in a row up to now.
type seatHistory struct {
	ticks, still, run int32
}

// share returns the share of h's ticks it stood still in, 0 before any.
func (h *seatHistory) share() float32 {
	if h.ticks == 0 {
		return 0
	}
	return float32(h.still) / float32(h.ticks)
}

// countHistory adds the tick whose tasks were just carried out to every
// seat's history: it runs in Step after applyTasks, while seatTick holds
// the tick's start, and only with Config.History.
func (g *Game) countHistory() {
	for s := range g.n {
		t := &g.seatTick[s]
		if !t.inPlay {
			continue
		}
		p, h := &g.players[s], &g.hist[s]
		h.ticks++
		if t.pos == [3]int32{int32(p.X), int32(p.Y), int32(p.Z)} {
			h.still++
			h.run++
		} else {
			h.run = 0
		}
	}
}

// WriteMask writes seat's legal actions into dst (len Spec().Actions). The
// server accepts every task, so every action is legal while the seat is in
// play and the game runs; with Config.SafeMask, moves out of the cube and a
// bomb on the seat's own cell are masked. Only NOOP is legal for a seat no
// longer in play and in a finished game. It never allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != int(NumFixedActions)+g.cells { // Spec().Actions
		panic(fmt.Sprintf("battlecube: WriteMask: got %d mask entries, want %d", len(dst), g.spec.Actions))
	}
	g.writeMaskContent(dst, g.maskContent(seat))
}

// UpdateMask writes seat's mask as WriteMask does, changing only the
// entries that differ from what have says dst holds, and returns the
// version of what it wrote, for the pool (vecenv's MaskUpdater). A
// version names the mask's content, not a state (see maskContent): every
// action but the listed ones, or NOOP alone. have 0 or unknown: the mask is
// written in full. It never allocates.
func (g *Game) UpdateMask(seat int, dst []uint8, have uint64) uint64 {
	if len(dst) != int(NumFixedActions)+g.cells { // Spec().Actions
		panic(fmt.Sprintf("battlecube: UpdateMask: got %d mask entries, want %d", len(dst), g.spec.Actions))
	}
	now := g.maskContent(seat)
	switch {
	case have == now:
	case have&maskVerAllBut != 0 && now&maskVerAllBut != 0:
		// Both are "every action but a few": legal again what was not,
		// then illegal what is not now.
		setMaskExceptions(dst, have, 1)
		setMaskExceptions(dst, now, 0)
	default:
		g.writeMaskContent(dst, now)
	}
	return now
}

// Mask contents, which are UpdateMask's versions (never 0):
// maskVerNoopOnly, or maskVerAllBut with the moves masked out (bit a for
// move action a) and, when the bomb on the seat's own cell is masked out,
// its cell index + 1 in the bits from maskBombShift.
const (
	maskVerNoopOnly uint64 = 1 << 62
	maskVerAllBut   uint64 = 1 << 63
	maskBombShift          = 8
)

// maskContent returns seat's mask content (see maskVerAllBut).
func (g *Game) maskContent(seat int) uint64 {
	if g.done || g.view().inPlay>>seat&1 == 0 {
		return maskVerNoopOnly
	}
	v := maskVerAllBut
	if !g.safeMask {
		return v
	}
	p := &g.players[seat]
	for a := MovePlusX; a < NumFixedActions; a++ {
		d := moveDelta[a]
		if !g.inCube(p.X+d[0], p.Y+d[1], p.Z+d[2]) {
			v |= 1 << a
		}
	}
	if g.inCube(p.X, p.Y, p.Z) {
		v |= uint64(g.index(p.X, p.Y, p.Z)+1) << maskBombShift
	}
	return v
}

// writeMaskContent writes the whole mask of content v into dst.
func (g *Game) writeMaskContent(dst []uint8, v uint64) {
	if v == maskVerNoopOnly {
		clear(dst)
		dst[Noop] = 1
		return
	}
	copy(dst, allLegal[:len(dst)])
	setMaskExceptions(dst, v, 0)
}

// setMaskExceptions sets the entries that content v (maskVerAllBut) masks
// out to b.
func setMaskExceptions(dst []uint8, v uint64, b uint8) {
	for a := MovePlusX; a < NumFixedActions; a++ {
		if v&(1<<a) != 0 {
			dst[a] = b
		}
	}
	if cell := (v &^ (maskVerAllBut | maskVerNoopOnly)) >> maskBombShift; cell != 0 {
		dst[NumFixedActions+Action(cell-1)] = b
	}
}

// allLegal is a mask with every action of the largest cube legal, copied
// from rather than written byte by byte.
var allLegal = func() []uint8 {
	m := make([]uint8, NumActions(MaxEdge))
	for i := range m {
		m[i] = 1
	}
	return m
}()
