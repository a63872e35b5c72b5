package battlebots

import (
	"github.com/botarena/botarena/env"
)

// Dir is one of the eight directions, in the original's order. The zero
// value is N.
type Dir uint8

// The directions; (dx, dy) with y growing downwards.
const (
	N Dir = iota
	NE
	E
	SE
	S
	SW
	W
	NW
	// NumDirs is the number of directions.
	NumDirs = 8
)

var (
	dirNames = [NumDirs]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
	dirDX    = [NumDirs]int{0, 1, 1, 1, 0, -1, -1, -1}
	dirDY    = [NumDirs]int{-1, -1, 0, 1, 1, 1, 0, -1}
)

func (d Dir) String() string {
	if d < NumDirs {
		return dirNames[d]
	}
	return "Dir(?)"
}

// Delta returns the direction's step (dx, dy); y grows downwards.
func (d Dir) Delta() (dx, dy int) { return dirDX[d&7], dirDY[d&7] }

// Action is a seat's action for one round: an index into the 34 actions.
// The zero value is Nothing.
//
//	0      Nothing   ("NO")
//	1–8    Move      N, NE, E, SE, S, SW, W, NW   ("N" ... "NW")
//	9–16   Bullet    in the same direction order   ("B N" ... "B NW")
//	17–24  Missile                                 ("M N" ... "M NW")
//	25–32  Landmine                                ("L N" ... "L NW")
//	33     EMP                                     ("P")
type Action int32

// The action groups; add a [Dir] to the first four.
const (
	Nothing    Action = 0
	MoveN      Action = 1
	BulletN    Action = 9
	MissileN   Action = 17
	LandmineN  Action = 25
	EMP        Action = 33
	NumActions        = 34
)

// Move, Bullet, Missile and Landmine return the action of that kind in
// direction d.
func Move(d Dir) Action     { return MoveN + Action(d) }
func Bullet(d Dir) Action   { return BulletN + Action(d) }
func Missile(d Dir) Action  { return MissileN + Action(d) }
func Landmine(d Dir) Action { return LandmineN + Action(d) }

// Kind returns the action's group (Nothing, MoveN, BulletN, MissileN,
// LandmineN or EMP) and its direction (0 for Nothing and EMP). An action
// outside 0..33 is Nothing.
func (a Action) Kind() (kind Action, d Dir) {
	switch {
	case a >= MoveN && a < EMP:
		k := (a - MoveN) / NumDirs
		return MoveN + k*NumDirs, Dir((a - MoveN) % NumDirs)
	case a == EMP:
		return EMP, 0
	}
	return Nothing, 0
}

var actionNames = func() [NumActions]string {
	var n [NumActions]string
	n[Nothing] = "NO"
	for d := range Dir(NumDirs) {
		n[Move(d)] = dirNames[d]
		n[Bullet(d)] = "B " + dirNames[d]
		n[Missile(d)] = "M " + dirNames[d]
		n[Landmine(d)] = "L " + dirNames[d]
	}
	n[EMP] = "P"
	return n
}()

// String returns the action's native command ("NO", "NE", "B SE", "P").
func (a Action) String() string {
	if a >= 0 && a < NumActions {
		return actionNames[a]
	}
	return "invalid"
}

// Bot is one bot's position and HP.
type Bot struct {
	X, Y int
	// HP starts at 10 and may go below 0.
	HP int
}

// Projectile is a bullet or a missile in flight.
type Projectile struct {
	X, Y int
	Dir  Dir
	dead bool
}

// Mine is a landmine: its cell, who laid it, and whether a second mine has
// "exploded" it (a dead mine still fires once at the next landmine check,
// spec §4.3).
type Mine struct {
	X, Y int
	// Seat is the seat that laid it (0 bot1, 1 bot2).
	Seat int
	Dead bool
}

// Mine cell flags.
const (
	mineLive uint8 = 1 << iota // a mine lies on the cell
	mineDead                   // exploded by a second mine, still in the list
	mineBot2                   // laid by bot2
)

// Game is one BattleBots bout as a fixed-size value with no pointers into
// itself: both bots, the projectiles in list order, the landmines by cell,
// the paralysis counter and the round. Seat 0 is bot1 (the bot registered
// first, favoured by the rules), seat 1 is bot2. It is not safe for
// concurrent use; vecenv gives each worker a disjoint range of envs.
type Game struct {
	// The fields a step reads come first, in two cache lines: the counts
	// and the round in line 0 (the 56 bytes after the malloc header of an
	// object this size with pointers), the bots, the flags, the shaping
	// weight and the observation record in line 1; the mine bits and nDead
	// in line 2 are read only while mines lie (nMines > 0). A pool steps
	// every game in turn, so each line a step reads is a miss once the
	// games outgrow the caches. TestGameHotLines checks the layout.
	lo        int // lowest in-bounds coordinate (1, or 0 for 10×10)
	maxRounds int
	nBullets  int
	nMissiles int
	// nMines counts cells with a mine; nDead (line 2) those whose mine is
	// dead.
	nMines    int
	paralysed int // paralyzedRoundsRemaining
	round     int // rounds played

	bots [2]Bot
	done bool
	// truncatedEnd reports that the round cap ended the bout.
	truncatedEnd bool
	// histN is cfg.History, the rounds of actions the observation shows
	// (0: none); it sits in the padding before hpReward.
	histN uint8
	// hpReward is cfg.HPReward, kept beside the state a step reads.
	hpReward float32
	// marks records what UpdateObs wrote (see obsMarks); nil until its
	// first call.
	marks *obsMarks

	nDead int
	// mineBits has bit i of word i/64 set for each cell i holding a mine
	// laid by the seat, so that observations and the removal of dead mines
	// visit only the mines.
	mineBits [2][2]uint64
	deadBits [2]uint64
	// invalid counts, per seat, out-of-range actions and actions the mask
	// marks illegal (see [Game.Invalid]).
	invalid [2]int

	cfg  Config
	spec *env.Spec

	bullets  [MaxBullets]Projectile
	missiles [MaxMissiles]Projectile
	// mines holds the mine flags of each cell (index y*Side + x). A cell
	// holds at most one mine: a second one explodes the first instead.
	mines [Cells]uint8

	names [2]string

	// The action history of [Config.History] (see history.go), written by
	// Step only while histN > 0: acts[r%MaxHistory] holds round r's
	// actions, own[seat] as the seat chose it and shown[seat] as the
	// other seat saw it; histLen counts the rounds recorded since the
	// last Reset or LoadNative.
	acts    [MaxHistory]roundActs
	histLen int
}

// New returns a bout for cfg, validated, ready to play (Reset is optional:
// the bout has no randomness). The registry name in its Spec is
// "battlebots".
func New(cfg *Config) (*Game, error) { return newGame("battlebots", cfg) }

func newGame(name string, cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: *cfg, hpReward: cfg.HPReward}
	g.cfg.Names = append([]string(nil), cfg.Names...)
	if g.cfg.Arena == "" {
		g.cfg.Arena = Arena9x9
	}
	g.lo = g.cfg.low()
	g.histN = uint8(g.cfg.History)
	g.maxRounds = g.cfg.rounds()
	for seat := range 2 {
		g.names[seat] = g.cfg.name(seat)
	}
	g.spec = newSpec(name, &g.cfg)
	g.Reset(0)
	return g, nil
}

// Config returns a copy of the game's config.
func (g *Game) Config() Config { return g.cfg }

// Spec returns the game's spec; it is shared and must not be modified.
func (g *Game) Spec() *env.Spec { return g.spec }

// clearMines removes every landmine, live or dead.
func (g *Game) clearMines() {
	if g.nMines > 0 {
		clear(g.mines[:])
	}
	g.nMines, g.nDead = 0, 0
	g.mineBits, g.deadBits = [2][2]uint64{}, [2]uint64{}
}

// Reset starts a new bout: bot1 at (1,1), bot2 at (8,8), 10 HP each, no
// weapons, no paralysis, round 0. The bout has no randomness, so seed does
// not matter (it is accepted for the [env.Env] contract). It never
// allocates.
func (g *Game) Reset(seed uint64) {
	_ = seed
	g.bots = [2]Bot{{X: 1, Y: 1, HP: StartHP}, {X: Side - 2, Y: Side - 2, HP: StartHP}}
	g.nBullets, g.nMissiles = 0, 0
	g.clearMines()
	g.paralysed = 0
	g.round = 0
	g.done, g.truncatedEnd = false, false
	g.invalid = [2]int{}
	g.histLen = 0
}

// Done reports whether the bout is over: a bot below 1 HP, or the round cap.
func (g *Game) Done() bool { return g.done }

// Steps returns the number of rounds played.
func (g *Game) Steps() int { return g.round }

// Round returns the number of rounds played (the index of the next round).
func (g *Game) Round() int { return g.round }

// MaxRounds returns the round cap.
func (g *Game) MaxRounds() int { return g.maxRounds }

// Bot returns seat's bot (0 bot1, 1 bot2). It panics if seat is not 0 or 1.
func (g *Game) Bot(seat int) Bot { return g.bots[seat] }

// Name returns seat's bot name.
func (g *Game) Name(seat int) string { return g.names[seat] }

// Paralysed returns the paralysis counter: how many of the coming movement
// phases an EMP skips (0–2).
func (g *Game) Paralysed() int { return g.paralysed }

// NumBullets returns the number of bullets in flight.
func (g *Game) NumBullets() int { return g.nBullets }

// BulletAt returns bullet i (0 ≤ i < NumBullets) in list order, oldest first.
func (g *Game) BulletAt(i int) Projectile { return g.bullets[:g.nBullets][i] }

// NumMissiles returns the number of missiles in flight.
func (g *Game) NumMissiles() int { return g.nMissiles }

// MissileAt returns missile i (0 ≤ i < NumMissiles) in list order.
func (g *Game) MissileAt(i int) Projectile { return g.missiles[:g.nMissiles][i] }

// Mines appends the landmines to dst in row-major order and returns the
// extended slice. Bots never see them (spec §4.3).
func (g *Game) Mines(dst []Mine) []Mine {
	if g.nMines == 0 {
		return dst
	}
	for i, f := range g.mines {
		if f == 0 {
			continue
		}
		m := Mine{X: i % Side, Y: i / Side, Dead: f&mineDead != 0}
		if f&mineBot2 != 0 {
			m.Seat = 1
		}
		dst = append(dst, m)
	}
	return dst
}

// InBounds reports whether (x, y) is inside the arena: 1..9 by default
// (HEAD's test x > 0 && y > 0 && x < 10 && y < 10), 0..9 for the 10×10
// arena.
func (g *Game) InBounds(x, y int) bool {
	return x >= g.lo && y >= g.lo && x < Side && y < Side
}

// Invalid returns how many of seat's actions since the last Reset were out
// of range or marked illegal by the mask (a move while paralysed or off the
// arena, a landmine off the arena); they did what the original does with
// them (nothing).
func (g *Game) Invalid(seat int) int { return g.invalid[seat] }

// setMine puts a mine with flags on cell i, which holds none.
func (g *Game) setMine(i int, flags uint8) {
	g.mines[i] = flags
	g.nMines++
	g.mineBits[flags>>2&1][i>>6] |= 1 << (i & 63)
	if flags&mineDead != 0 {
		g.nDead++
		g.deadBits[i>>6] |= 1 << (i & 63)
	}
}

// killMine marks the mine on cell i dead (exploded by a second mine).
func (g *Game) killMine(i int) {
	if g.mines[i]&mineDead == 0 {
		g.mines[i] |= mineDead
		g.nDead++
		g.deadBits[i>>6] |= 1 << (i & 63)
	}
}

// removeMine takes the mine off cell i.
func (g *Game) removeMine(i int) {
	f := g.mines[i]
	if f&mineDead != 0 {
		g.nDead--
		g.deadBits[i>>6] &^= 1 << (i & 63)
	}
	g.mineBits[f>>2&1][i>>6] &^= 1 << (i & 63)
	g.mines[i] = 0
	g.nMines--
}

// dist is the original's Chebyshev distance.
func dist(x1, y1, x2, y2 int) int {
	return max(abs(x1-x2), abs(y1-y2))
}

// adjacent is the original's isAdjacentTo: distance < 2, the same cell
// included.
func adjacent(x1, y1, x2, y2 int) bool { return dist(x1, y1, x2, y2) < 2 }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
