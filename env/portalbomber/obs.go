package portalbomber

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/botarena/botarena/env"
)

// Observation planes, in order; see the package doc for the layout.
const (
	PlaneHard = iota
	PlaneSoft
	PlaneBlockValue
	PlaneOwnBombs
	PlaneOpponentBombs
	PlaneOwnTrails
	PlaneOpponentTrails
	PlaneFire
	// PlanePortals is the first of 8 portal planes: PlanePortals + 4*colour
	// + face, colour 0 orange and 1 blue.
	PlanePortals
)

// The player planes, after the 8 portal planes.
const (
	PlaneSelf = PlanePortals + 8 + iota
	PlaneOpponent
	// NumPlanes is C, the number of planes.
	NumPlanes
)

// Scalar features, in order; see the package doc.
const (
	ScalarCoins = iota
	ScalarBombCount
	ScalarRange
	ScalarPierce
	ScalarOrientation
	ScalarOpponentCoins
	ScalarOpponentBombCount
	ScalarOpponentRange
	ScalarOpponentPierce
	ScalarOpponentOrientation
	ScalarMoveNumber
	ScalarMyTurn
	// NumScalars is the length of the scalar vector.
	NumScalars
)

// Names of the observation tensors.
const (
	TensorPlanes  = "planes"
	TensorScalars = "scalars"
)

// RewardDefinition is the reward text of the Spec.
const RewardDefinition = "terminal: +1 to the winner and -1 to the loser by the original's victory check " +
	"(the last player alive); 0 to both on a tie (both dead) or a truncation; " +
	"plus coins_reward × the coins earned in the step, and minus danger_reward for standing where the fire forecast " +
	"puts a blast within 5 round ends, when configured"

func newSpec(name string, cfg *Config) *env.Spec {
	n := cfg.Size
	maxSteps := cfg.lastRound()
	if !cfg.Simultaneous {
		maxSteps *= Seats
	}
	return &env.Spec{
		Game:  name,
		Seats: Seats,
		Obs: []env.Tensor{
			{
				Name:   TensorPlanes,
				DType:  env.Uint8,
				Shape:  []int{NumPlanes, n, n},
				Layout: fmt.Sprintf("[C,H,W] = [%d,%d,%d]: index = c*H*W + y*W + x for cell (x,y), (0,0) top left; own pieces first, see the portalbomber package doc", NumPlanes, n, n),
				Shared: []int{PlaneHard, PlaneSoft, PlaneBlockValue, PlaneFire},
			},
			{
				Name:   TensorScalars,
				DType:  env.Float32,
				Shape:  []int{NumScalars},
				Layout: "[12]: coins, bombs, range, pierce, orientation; the opponent's five; moveNumber; 1 if the seat may move now",
			},
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
	g.writePlanes(seat, dst[0])
	g.writeScalars(seat, dst[1])
}

// checkObs panics unless dst is an observation's tensors ([env.Spec.CheckObs]),
// comparing the lengths first without the spec.
func (g *Game) checkObs(dst [][]byte) {
	if len(dst) != 2 || len(dst[0]) != NumPlanes*g.n*g.n || len(dst[1]) != 4*NumScalars {
		g.spec.CheckObs(dst)
	}
}

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func clamp8(v int) byte {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return byte(v)
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns a version of what it wrote, given have: 0, or the version an
// earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. Fourteen of the eighteen planes (bombs,
// trails, fire, portals, players) are nearly all zeros, and the hard and
// soft planes change only when a block is bought or destroyed, so with
// have the last version of the seat it clears only the bytes of those
// planes that the last write set, sets the new ones, adds to the fire
// plane only the cells that caught fire since (fire never goes out: see
// updateFire), and rewrites the hard and soft planes only when the board
// changed since, leaving the block values as they are (only the cells
// changed since, when the game knows them: see cellChanged); otherwise,
// or when the last write set more bytes than the record holds (64: see
// obsRecord), it writes dst in full. It leaves the marks as they are when
// none changed since (see marksChanged). The bytes
// are those WriteObs writes, in every case. vecenv calls it for rows that
// keep their env from step to step. A wrong number or size of slices
// panics. It never allocates.
//
// The versions count this Game value's writes (Game.obsWrites). A copy of
// a Game (an agent's look-ahead) counts on from the same number, so a
// version is only meaningful to the Game value that returned it, as the
// contract of have says: a copy given the original's version of a row
// would take the row for its own.
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.checkObs(dst)
	hw := g.n * g.n
	o, at := &g.obs, &g.obsAt[seat]
	p := dst[0]
	if have != 0 && have == o.ver[seat] && o.n[seat] >= 0 {
		if !o.marks[seat] {
			n, more := int(o.n[seat]), &g.obsMore[seat]
			for _, i := range at[:min(n, obsRecord)] {
				p[i] = 0
			}
			if n > obsRecord {
				for _, i := range more[:n-obsRecord] {
					p[i] = 0
				}
			}
			o.n[seat] = int16(g.writeMarks(seat, p, at, more))
		}
		if g.nFire != 0 || o.blocks[seat] == blocksStale {
			// Fire, or maybe the fire of an earlier board (see
			// boardChanged).
			g.updateFire(seat, p)
		}
		switch o.blocks[seat] {
		case blocksShown:
		case blocksBefore:
			if g.nBoardCells >= 0 {
				g.writeBlockCells(p)
				break
			}
			g.writeBlocks(p)
		default:
			g.writeBlocks(p)
		}
	} else {
		clear(p)
		copy(p[PlaneBlockValue*hw:(PlaneBlockValue+1)*hw], g.values[:hw])
		g.writeBlocks(p)
		o.n[seat] = int16(g.writeMarks(seat, p, at, &g.obsMore[seat]))
		g.writeFire(p, 0)
		g.fireShown[seat] = uint16(g.nFire)
	}
	o.marks[seat] = true
	o.blocks[seat] = blocksShown
	g.boardPending = false
	g.writeScalars(seat, dst[1])
	g.obsWrites++
	o.ver[seat] = g.obsWrites
	return g.obsWrites
}

// obsHeads records, per seat, what the last [Game.UpdateObs] of the seat
// through this Game value wrote: the version it returned (0: none); how
// many plane offsets it set non-zero in the planes after the block values
// (n; -1 when they did not fit in the seat's Game.obsAt and obsMore); whether the
// marks it wrote are still the game's (marks: no marksChanged since); and
// which board its hard and soft planes show (blocks). The records lie in
// one cache line with the counters a step reads; the offsets, in another,
// are read only when the marks changed.
type obsHeads struct {
	ver    [Seats]uint64
	n      [Seats]int16
	marks  [Seats]bool
	blocks [Seats]uint8
}

// What a row's hard and soft planes show, as obsHeads.blocks records it.
const (
	// blocksStale: an older board; the planes are written in full.
	blocksStale = iota
	// blocksBefore: the board before the changes of the cells in
	// Game.boardCells (all of them when nBoardCells >= 0).
	blocksBefore
	// blocksShown: the game's board.
	blocksShown
)

// marksChanged records that something writeMarks shows may have changed
// (a bomb, trail, portal or player), for [Game.UpdateObs]: no row shows
// the marks any more.
func (g *Game) marksChanged() { g.obs.marks = [Seats]bool{} }

// boardChanged records that the hard and soft blocks changed (a reset, a
// load), for [Game.UpdateObs]: every row gets both planes in full, and
// its fire plane (see updateFire).
func (g *Game) boardChanged() {
	g.obs.blocks = [Seats]uint8{blocksStale, blocksStale}
	g.fireShown = [Seats]uint16{fireStale, fireStale}
	g.boardPending, g.nBoardCells = true, -1
}

// cellChanged records that cell i's hard or soft block changed, for
// [Game.UpdateObs]. The first change after an UpdateObs starts a new list
// of changed cells: a row that showed the board then now shows the board
// before the listed changes (blocksBefore), and a row that showed the
// board before an earlier list shows an older one (blocksStale). A row
// before the list gets the listed cells, up to boardCells' capacity
// (more, and it gets the planes in full).
func (g *Game) cellChanged(i int) {
	if !g.boardPending {
		g.boardPending, g.nBoardCells = true, 0
		for s := range Seats {
			b := &g.obs.blocks[s]
			if *b == blocksShown {
				*b = blocksBefore
			} else {
				*b = blocksStale
			}
		}
	}
	record(g.boardCells[:], &g.nBoardCells, i)
}

// record appends i to list[:*n] while it fits; *n becomes -1 once i does
// not, and stays -1.
func record(list []uint16, n *int, i int) {
	switch {
	case *n < 0:
	case *n == len(list):
		*n = -1
	default:
		list[*n] = uint16(i)
		*n++
	}
}

func (g *Game) writePlanes(seat int, dst []byte) {
	clear(dst)
	hw := g.n * g.n
	copy(dst[PlaneBlockValue*hw:(PlaneBlockValue+1)*hw], g.values[:hw])
	g.writeBlocks(dst)
	var at [obsRecord]uint16
	var more [obsMore]uint16
	g.writeMarks(seat, dst, &at, &more)
	g.writeFire(dst, 0)
}

// fireStale is Game.fireShown of a row whose fire plane may show the
// fire of an earlier board.
const fireStale = math.MaxUint16

// updateFire brings the fire plane of seat's row dst, which shows the
// fire cells the seat's Game.fireShown records, up to the game's: the
// cells listed since, or, when the row shows an earlier board's fire, the
// plane in full.
func (g *Game) updateFire(seat int, dst []byte) {
	from := int(g.fireShown[seat])
	if from > int(g.nFire) { // fireStale
		hw := g.n * g.n
		clear(dst[PlaneFire*hw:][:hw])
		from = 0
	}
	g.writeFire(dst, from)
	g.fireShown[seat] = uint16(g.nFire)
}

// writeFire sets the fire plane's bytes of the cells of g.fire from the
// from-th on in dst.
func (g *Game) writeFire(dst []byte, from int) {
	hw := g.n * g.n
	fire := dst[PlaneFire*hw:][:hw]
	for _, i := range g.fire[from:g.nFire] {
		fire[i] = 1
	}
}

// writeBlocks writes the hard and soft planes into dst.
func (g *Game) writeBlocks(dst []byte) {
	hw := g.n * g.n
	hard, soft := dst[PlaneHard*hw:][:hw], dst[PlaneSoft*hw:][:hw]
	for i := range hw {
		c := &g.cells[i]
		hard[i], soft[i] = bit(c.hard), bit(c.soft)
	}
}

// writeBlockCells writes the hard and soft bytes of the cells in
// g.boardCells into dst.
func (g *Game) writeBlockCells(dst []byte) {
	hw := g.n * g.n
	hard, soft := dst[PlaneHard*hw:][:hw], dst[PlaneSoft*hw:][:hw]
	for _, i := range g.boardCells[:g.nBoardCells] {
		c := &g.cells[i]
		hard[i], soft[i] = bit(c.hard), bit(c.soft)
	}
}

// obsRecord and obsMore are how many offsets of marks a seat's UpdateObs
// record holds: obsRecord in Game.obsAt, which both seats' records share
// a line of, then obsMore in Game.obsMore, for a step with more (an
// apocalypse's fire cells, which stay, or a blast's trails).
const (
	obsRecord = 16
	obsMore   = 48
)

// writeMarks sets seat's non-zero bytes of the planes after the block
// values but the fire plane (see writeFire) in dst, where they are zero,
// and returns how many it set, or -1
// when they did not fit in at and more, which receive their offsets (the
// first obsRecord + obsMore of them).
func (g *Game) writeMarks(seat int, dst []byte, at *[obsRecord]uint16, more *[obsMore]uint16) int {
	w := marker{dst: dst, at: at, more: more}
	hw := g.n * g.n
	opp := 1 - seat
	// Bombs are listed in g.bombs, and seats' trails and portals lie only
	// on the cells of g.marked.
	for _, b := range g.bombs[:g.nBombs] {
		i := int(b)
		c := &g.cells[i]
		pl := PlaneOwnBombs
		if int(c.bombOwner) != seat {
			pl = PlaneOpponentBombs
		}
		w.set(pl*hw+i, clamp8(int(c.bombTick)))
	}
	for _, m := range g.marked[:g.nMarked] {
		i := int(m)
		c := &g.cells[i]
		if c.trailSeq != 0 {
			t := &c.trails
			w.set(PlaneOwnTrails*hw+i, clamp8(int(t[seat].Tick)))
			w.set(PlaneOpponentTrails*hw+i, clamp8(int(t[opp].Tick)))
		}
		f := &c.portals
		if f[0].owner|f[1].owner|f[2].owner|f[3].owner == 0 {
			continue
		}
		for k, pf := range f {
			if pf.owner != 0 {
				v := byte(1)
				if int(pf.owner)-1 != seat {
					v = 2
				}
				w.set((PlanePortals+4*int(pf.color)+k)*hw+i, v)
			}
		}
	}
	if x, y := g.players[seat].at(); g.players[seat].Alive && g.inBoard(x, y) {
		w.set(PlaneSelf*hw+g.idx(x, y), 1)
	}
	if x, y := g.players[opp].at(); g.players[opp].Alive && g.inBoard(x, y) {
		w.set(PlaneOpponent*hw+g.idx(x, y), 1)
	}
	if w.n > obsRecord+obsMore {
		return -1
	}
	return w.n
}

// marker sets bytes of a row for writeMarks and records their offsets in
// at, then more, while they fit; n counts them all.
type marker struct {
	dst  []byte
	at   *[obsRecord]uint16
	more *[obsMore]uint16
	n    int
}

// set sets dst[i] to v unless v is 0, and records i.
func (w *marker) set(i int, v byte) {
	if v == 0 {
		return
	}
	w.dst[i] = v
	if w.n < obsRecord {
		w.at[w.n] = uint16(i)
	} else if k := w.n - obsRecord; k < obsMore {
		w.more[k] = uint16(i)
	}
	w.n++
}

func (g *Game) writeScalars(seat int, dst []byte) {
	d := (*[4 * NumScalars]byte)(dst)
	put := func(k int, v int32) {
		binary.LittleEndian.PutUint32(d[4*k:], math.Float32bits(float32(v)))
	}
	p, o := &g.players[seat], &g.players[1-seat]
	put(ScalarCoins, p.Coins)
	put(ScalarBombCount, p.BombCount)
	put(ScalarRange, p.BombRange)
	put(ScalarPierce, p.BombPierce)
	put(ScalarOrientation, p.Orientation)
	put(ScalarOpponentCoins, o.Coins)
	put(ScalarOpponentBombCount, o.BombCount)
	put(ScalarOpponentRange, o.BombRange)
	put(ScalarOpponentPierce, o.BombPierce)
	put(ScalarOpponentOrientation, o.Orientation)
	put(ScalarMoveNumber, int32(g.moveNumber))
	turn := int32(0)
	if g.mayMove(seat) {
		turn = 1
	}
	put(ScalarMyTurn, turn)
}

// mayMove reports whether seat's action counts in the next step.
func (g *Game) mayMove(seat int) bool {
	if g.Done() || !g.players[seat].Alive {
		return false
	}
	return g.simultaneous || int(g.moveOrder[g.moveIterator]) == seat
}

// WriteMask writes seat's legal actions into dst (len [NumActions]): only
// action 0 when it is not the seat's turn, the seat is dead or the game is
// over; otherwise the actions the engine would carry out rather than ignore
// (see [Game.Invalid]). Moves into a wall are legal: they still turn the
// player. [InvalidMove] is never legal. With [Config.SafeMask] it also
// clears the actions after which the seat has no escape (safemask.go);
// action 0 always stays. It never allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != NumActions {
		panic(fmt.Sprintf("portalbomber: WriteMask: got %d entries, want %d", len(dst), NumActions))
	}
	if !g.mayMove(seat) {
		clear(dst)
		dst[0] = 1
		return
	}
	// What legal says of each action of a living player: moves, turns
	// and portal shots always.
	p := &g.players[seat]
	*(*[NumActions]uint8)(dst) = [NumActions]uint8{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1}
	dst[PlaceBomb] = bit(p.BombCount > 0 && (g.nBombs == 0 || g.cells[g.idx(p.at())].bombSeq == 0))
	buy := bit(p.Coins >= UpgradePrice)
	dst[BuyCount], dst[BuyRange], dst[BuyPierce] = buy, buy, buy
	dst[BuyBlock] = bit(g.legal(seat, BuyBlock))
	if g.safety != nil {
		g.safety.safeMask(g, seat, dst, g.cfg.SafeMaskWary)
	}
}
