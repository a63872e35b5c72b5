package battlebots

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/botarena/botarena/env"
)

// Observation planes, in order; see the package doc for the layout.
const (
	PlaneSelf     = 0
	PlaneEnemy    = 1
	PlaneBullets  = 2  // 2–9: bullets flying N, NE, ..., NW
	PlaneMissiles = 10 // 10–17: missiles flying N, NE, ..., NW
	PlaneOwnMines = 18
	// NumPlanes is C, the number of planes.
	NumPlanes = 19
)

// Scalar features, in order; see the package doc.
const (
	ScalarHP = iota
	ScalarEnemyHP
	ScalarParalysed
	ScalarRoundFraction
	// NumScalars is the length of the scalar vector.
	NumScalars
)

// Names of the observation tensors.
const (
	TensorPlanes  = "planes"
	TensorScalars = "scalars"
)

// RewardDefinition is the reward text of the Spec.
const RewardDefinition = "terminal, one bout per episode: +1 to the bot with the higher HP when the bout ends, " +
	"-1 to the other, 0 to both on equal HP (the original's bout result). " +
	"Optional shaping: hp_reward × (change in own HP − change in the enemy's HP), every step."

const planeBytes = NumPlanes * Cells

// sharedPlanes are the planes both seats see alike (Tensor.Shared): the
// bullets and missiles, in absolute coordinates.
var sharedPlanes = func() []int {
	var s []int
	for c := PlaneBullets; c < PlaneOwnMines; c++ {
		s = append(s, c)
	}
	return s
}()

func newSpec(name string, cfg *Config) *env.Spec {
	return &env.Spec{
		Game:  name,
		Seats: 2,
		Obs: []env.Tensor{
			{
				Name:   TensorPlanes,
				DType:  env.Uint8,
				Shape:  []int{NumPlanes, Side, Side},
				Layout: fmt.Sprintf("[C,H,W] = [%d,%d,%d]: index = c*100 + y*10 + x for cell (x,y) of the ASCII grid; 0 self, 1 enemy, 2–9 bullets by direction N..NW, 10–17 missiles by direction, 18 own landmines; see the battlebots package doc", NumPlanes, Side, Side),
				Shared: sharedPlanes,
			},
			{
				Name:   TensorScalars,
				DType:  env.Float32,
				Shape:  []int{NumScalars + cfg.History*HistoryScalarsPerRound},
				Layout: scalarsLayout(cfg),
			},
		},
		Actions:     NumActions,
		ActionNames: actionNames[:],
		MaxSteps:    cfg.rounds(),
		Reward:      RewardDefinition,
	}
}

// scalarsLayout describes the scalar tensor for cfg.
func scalarsLayout(cfg *Config) string {
	const base = "own HP/10, enemy HP/10, paralysis counter/2, round/max rounds"
	if cfg.History == 0 {
		return "[4]: " + base
	}
	return fmt.Sprintf("[%d]: %s, then for each of the last %d rounds, the latest first, %d values: "+
		"the seat's own action and the enemy's as the seat saw it (a landmine never, a move only when its cell changed, "+
		"a shot only when it is in flight or cost HP), each a one-hot kind (move, bullet, missile, landmine, EMP) "+
		"and a one-hot direction N..NW; nothing is all zeros",
		NumScalars+cfg.History*HistoryScalarsPerRound, base, cfg.History, HistoryScalarsPerRound)
}

// WriteObs writes seat's observation into dst: dst[0] the planes, dst[1] the
// scalars (little-endian float32). A wrong number or size of slices, or a
// seat other than 0 or 1, panics. It never allocates.
func (g *Game) WriteObs(seat int, dst [][]byte) {
	if len(dst) != 2 || len(dst[0]) != planeBytes || len(dst[1]) != 4*(NumScalars+int(g.histN)*HistoryScalarsPerRound) {
		g.spec.CheckObs(dst) // panics with the details
	}
	g.writePlanes(seat, dst[0])
	g.writeScalars(seat, dst[1])
}

// UpdateObs writes seat's observation into dst as [Game.WriteObs] does and
// returns a version of what it wrote, given have: 0, or the version an
// earlier call returned for this seat after writing the same dst, which
// the caller has not touched since. The planes are nearly all zeros (two
// bots, the projectiles, the own mines), so with have the last version
// of the seat it clears only the bytes that write set and sets the new
// ones, instead of clearing all 1,900; otherwise it writes dst in full.
// The bytes are those WriteObs writes, in every case. vecenv calls it for
// rows that keep their env from step to step. A wrong number or size of
// slices, or a seat other than 0 or 1, panics. It never allocates once
// warm (the first call makes the record of the marks).
func (g *Game) UpdateObs(seat int, dst [][]byte, have uint64) uint64 {
	if len(dst) != 2 || len(dst[0]) != planeBytes || len(dst[1]) != 4*(NumScalars+int(g.histN)*HistoryScalarsPerRound) {
		g.spec.CheckObs(dst) // panics with the details
	}
	m := g.marks
	if m == nil {
		m = new(obsMarks)
		g.marks = m
	}
	p, at := dst[0][:planeBytes], &m.at[seat]
	if have != 0 && have == m.ver[seat] {
		for _, i := range at[:m.n[seat]] {
			p[i] = 0
		}
	} else {
		clear(p)
	}
	m.n[seat] = g.writeMarks(seat, p, at)
	m.writes++
	m.ver[seat] = m.writes
	g.writeScalars(seat, dst[1])
	return m.writes
}

// obsMarks records, per seat, the plane offsets the last [Game.UpdateObs]
// set non-zero (at[seat][:n[seat]]) and the version it returned. It sits
// behind a pointer, so copies of a Game (LoadNative, an agent's look-ahead)
// share it; the versions number every write of the record, so a row last
// written through another copy is not the one recorded and is written in
// full.
type obsMarks struct {
	writes uint64
	ver    [2]uint64
	n      [2]int
	at     [2][maxMarks]uint16
}

// maxMarks bounds the non-zero plane bytes of an observation: the two
// bots, every projectile and a mine on every cell.
const maxMarks = 2 + MaxBullets + MaxMissiles + Cells

func (g *Game) writePlanes(seat int, dst []byte) {
	dst = dst[:planeBytes]
	clear(dst)
	g.writeMarks(seat, dst, nil)
}

// writeMarks sets seat's non-zero plane bytes in dst, which is zero, and
// returns how many it set; at, when not nil, receives their offsets.
func (g *Game) writeMarks(seat int, dst []byte, at *[maxMarks]uint16) int {
	n := 0
	mark := func(i int) {
		if dst[i] == 0 && at != nil {
			at[n] = uint16(i)
			n++
		}
		if dst[i] < 255 { // a count, saturating at 255
			dst[i]++
		}
	}
	me, en := &g.bots[seat], &g.bots[1-seat]
	mark(PlaneSelf*Cells + me.Y*Side + me.X)
	mark(PlaneEnemy*Cells + en.Y*Side + en.X)
	for i := range g.nBullets {
		p := &g.bullets[i]
		mark((PlaneBullets+int(p.Dir))*Cells + p.Y*Side + p.X)
	}
	for i := range g.nMissiles {
		p := &g.missiles[i]
		mark((PlaneMissiles+int(p.Dir))*Cells + p.Y*Side + p.X)
	}
	if g.nMines == 0 {
		return n
	}
	for w, word := range g.mineBits[seat] {
		for word != 0 {
			mark(PlaneOwnMines*Cells + w<<6 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return n
}

func (g *Game) writeScalars(seat int, dst []byte) {
	d := (*[4 * NumScalars]byte)(dst) // one length check for the four
	put := func(i int, v float32) { binary.LittleEndian.PutUint32(d[4*i:], math.Float32bits(v)) }
	put(ScalarHP, float32(g.bots[seat].HP)/StartHP)
	put(ScalarEnemyHP, float32(g.bots[1-seat].HP)/StartHP)
	put(ScalarParalysed, float32(g.paralysed)/2)
	put(ScalarRoundFraction, float32(g.round)/float32(g.maxRounds))
	if g.histN > 0 {
		g.writeHistory(seat, dst[4*NumScalars:])
	}
}

// WriteMask writes seat's legal actions into dst (34 entries): Nothing,
// the bullets, the missiles and the EMP always; a move when the coming
// movement phase is not paralysed and its target is inside the arena (the
// enemy's cell counts, since the enemy may move away first); a landmine
// when its target is inside the arena. A finished bout allows only Nothing.
// A wrong length panics. It never allocates.
func (g *Game) WriteMask(seat int, dst []uint8) {
	if len(dst) != NumActions {
		panic(fmt.Sprintf("battlebots: WriteMask: got %d entries, want %d", len(dst), NumActions))
	}
	if g.done {
		clear(dst)
		dst[Nothing] = 1
		return
	}
	b := &g.bots[seat]
	p := 0
	if g.paralysed > 0 {
		p = 1
	}
	*(*[NumActions]uint8)(dst) = maskTable[g.lo][p][b.Y*Side+b.X]
}

// maskTable holds the mask of an alive bout by the arena's lowest
// coordinate (0 or 1), paralysis (0 no, 1 yes) and the seat's cell.
var maskTable = func() (t [2][2][Cells][NumActions]uint8) {
	for lo := range 2 {
		for p := range 2 {
			for i := range Cells {
				x, y := i%Side, i/Side
				m := &t[lo][p][i]
				m[Nothing], m[EMP] = 1, 1
				for d := range NumDirs {
					tx, ty := x+dirDX[d], y+dirDY[d]
					in := uint8(0)
					if tx >= lo && ty >= lo && tx < Side && ty < Side {
						in = 1
					}
					m[int(MoveN)+d] = in * uint8(1-p)
					m[int(BulletN)+d] = 1
					m[int(MissileN)+d] = 1
					m[int(LandmineN)+d] = in
				}
			}
		}
	}
	return t
}()
