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
	g.spec.CheckObs(dst)
	g.writePlanes(seat, dst[0])
	g.writeScalars(seat, dst[1])
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
// planes that the last write set, sets the new ones, and rewrites the hard
// and soft planes only when the board changed since, leaving the block
// values as they are; otherwise, or when the last write set more bytes
// than the record holds (H·W), it writes dst in full. The bytes are those
// WriteObs writes, in every case. vecenv calls it for rows that keep their
// env from step to step. A wrong number or size of slices panics. It never
// allocates once warm (the first call makes the record of the marks).
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	g.spec.CheckObs(dst)
	hw := g.n * g.n
	m := g.marks
	if m == nil || len(m.at) != Seats*hw {
		m = &obsMarks{at: make([]uint16, Seats*hw)}
		if g.marks != nil {
			m.writes = g.marks.writes // versions stay unique
		}
		g.marks, g.board = m, 0
	}
	if g.board == 0 {
		m.writes++
		g.board = m.writes
	}
	p, at := dst[0], m.at[seat*hw:][:hw]
	if have != 0 && have == m.ver[seat] && m.n[seat] >= 0 {
		for _, i := range at[:m.n[seat]] {
			p[i] = 0
		}
		if m.board[seat] != g.board {
			g.writeBlocks(p)
		}
	} else {
		clear(p)
		copy(p[PlaneBlockValue*hw:(PlaneBlockValue+1)*hw], g.values[:hw])
		g.writeBlocks(p)
	}
	m.n[seat] = g.writeMarks(seat, p, at)
	m.board[seat] = g.board
	g.writeScalars(seat, dst[1])
	m.writes++
	m.ver[seat] = m.writes
	return m.writes
}

// obsMarks records, per seat, the plane offsets that the last
// [Game.UpdateObs] set non-zero in the planes after the block values
// (at[seat*H*W:][:n[seat]]; n[seat] is -1 when they did not fit), the
// board it showed (see Game.board) and the version it returned. It sits
// behind a pointer, so copies of a Game (an agent's look-ahead) share it;
// the versions number every write of the record and every board, so a row
// last written through another copy is not the one recorded and is
// written in full, and two copies show one board number only while
// neither has changed its board.
type obsMarks struct {
	writes uint64
	ver    [Seats]uint64
	board  [Seats]uint64
	n      [Seats]int
	at     []uint16
}

// boardChanged records that a hard or soft block changed, for
// [Game.UpdateObs].
func (g *Game) boardChanged() { g.board = 0 }

func (g *Game) writePlanes(seat int, dst []byte) {
	clear(dst)
	hw := g.n * g.n
	copy(dst[PlaneBlockValue*hw:(PlaneBlockValue+1)*hw], g.values[:hw])
	g.writeBlocks(dst)
	g.writeMarks(seat, dst, nil)
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

// writeMarks sets seat's non-zero bytes of the planes after the block
// values in dst, where they are zero, and returns how many it set; at,
// when not nil, receives their offsets, and the count is -1 when they do
// not fit in it.
func (g *Game) writeMarks(seat int, dst []byte, at []uint16) int {
	n := 0
	mark := func(i int, v byte) {
		if v == 0 {
			return
		}
		dst[i] = v
		if at == nil || n < 0 {
			return
		}
		if n == len(at) {
			n = -1
			return
		}
		at[n] = uint16(i)
		n++
	}
	hw := g.n * g.n
	opp := 1 - seat
	// Bombs are listed in g.bombs, and trails and portals lie only on the
	// cells of g.marked.
	for _, b := range g.bombs[:g.nBombs] {
		i := int(b)
		c := &g.cells[i]
		pl := PlaneOwnBombs
		if int(c.bombOwner) != seat {
			pl = PlaneOpponentBombs
		}
		mark(pl*hw+i, clamp8(int(c.bombTick)))
	}
	for _, m := range g.marked[:g.nMarked] {
		i := int(m)
		c := &g.cells[i]
		if c.trailSeq != 0 {
			mark(PlaneOwnTrails*hw+i, clamp8(int(c.trails[seat].Tick)))
			mark(PlaneOpponentTrails*hw+i, clamp8(int(c.trails[opp].Tick)))
			mark(PlaneFire*hw+i, bit(c.trails[2].Type == TrailFire))
		}
		if c.portalSeq != 0 {
			for f := range 4 {
				if o := c.portals[f].owner; o != 0 {
					v := byte(1)
					if int(o)-1 != seat {
						v = 2
					}
					mark((PlanePortals+4*int(c.portals[f].color)+f)*hw+i, v)
				}
			}
		}
	}
	if p := &g.players[seat]; p.Alive && g.inBoard(p.X, p.Y) {
		mark(PlaneSelf*hw+g.idx(p.X, p.Y), 1)
	}
	if p := &g.players[opp]; p.Alive && g.inBoard(p.X, p.Y) {
		mark(PlaneOpponent*hw+g.idx(p.X, p.Y), 1)
	}
	return n
}

func (g *Game) writeScalars(seat int, dst []byte) {
	put := func(k int, v float64) {
		binary.LittleEndian.PutUint32(dst[4*k:], math.Float32bits(float32(v)))
	}
	for k, s := range [Seats]int{seat, 1 - seat} {
		p := &g.players[s]
		put(5*k+ScalarCoins, float64(p.Coins))
		put(5*k+ScalarBombCount, float64(p.BombCount))
		put(5*k+ScalarRange, float64(p.BombRange))
		put(5*k+ScalarPierce, float64(p.BombPierce))
		put(5*k+ScalarOrientation, float64(p.Orientation))
	}
	put(ScalarMoveNumber, float64(g.moveNumber))
	turn := 0.0
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
	return g.cfg.Simultaneous || g.moveOrder[g.moveIterator] == seat
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
	clear(dst)
	dst[0] = 1
	if !g.mayMove(seat) {
		return
	}
	for a := Action(1); a < NumActions; a++ {
		if g.legal(seat, a) {
			dst[a] = 1
		}
	}
	if g.safety != nil {
		g.safety.safeMask(g, seat, dst, g.cfg.SafeMaskWary)
	}
}
