package bomberman

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Entity is what occupies a cell besides bombs and power-ups. The zero value
// is an empty cell.
type Entity uint8

// The entities of the original.
const (
	NoEntity Entity = iota
	IndestructibleWall
	DestructibleWall
	PlayerEntity
)

func (e Entity) String() string {
	switch e {
	case NoEntity:
		return "none"
	case IndestructibleWall:
		return "indestructible wall"
	case DestructibleWall:
		return "destructible wall"
	case PlayerEntity:
		return "player"
	}
	return "Entity(?)"
}

// PowerUp is the power-up lying on a cell. The zero value is none.
type PowerUp uint8

// The power-ups of the original.
const (
	NoPowerUp PowerUp = iota
	BombBagPowerUp
	BombRadiusPowerUp
	SuperPowerUp
)

func (p PowerUp) String() string {
	switch p {
	case NoPowerUp:
		return "none"
	case BombBagPowerUp:
		return "bomb bag"
	case BombRadiusPowerUp:
		return "bomb radius"
	case SuperPowerUp:
		return "super"
	}
	return "PowerUp(?)"
}

// Action is a seat's command for one round. Its values are the move.txt
// codes of the original (spec §5.1); the zero value is DoNothing.
type Action int32

// The seven actions, numbered as the move.txt codes.
const (
	DoNothing Action = iota
	MoveUp
	MoveLeft
	MoveRight
	MoveDown
	PlaceBomb
	TriggerBomb
	// NumActions is the size of the action space.
	NumActions = 7
)

var actionNames = [NumActions]string{"nothing", "up", "left", "right", "down", "bomb", "trigger"}

func (a Action) String() string {
	if a >= 0 && a < NumActions {
		return actionNames[a]
	}
	return "invalid"
}

// Cell is one map cell: at most one entity, one bomb and one power-up.
type Cell struct {
	// reached has bit i set when bomb slot i's blast reached the cell in
	// the round being (or just) processed. The cell is Exploding when it is
	// non-zero. (It comes first so that a Cell takes 16 bytes, with
	// shown and destroy in what would be padding: a round's work on a
	// cell stays in the cell's own line.)
	reached uint64
	Entity  Entity
	// Player is the seat of the player on the cell when Entity is
	// PlayerEntity.
	Player uint8
	// PowerUp lies on the cell; it is hidden from bots while an entity
	// covers it.
	PowerUp PowerUp
	// bomb is the slot+1 of the bomb on the cell in Game.bombs, 0 for none.
	bomb uint8
	// touched has bit s set when seat s has ever occupied the cell.
	touched uint16
	// shown is what the game's cached static planes show of the cell (see
	// shownCode), while Game.staticFresh. It survives the map's
	// regeneration, so that a Reset can bring the planes to the new map
	// in place (see Game.restatic).
	shown uint8
	// destroy marks the cell for destruction in the round being
	// processed (a kill pass; see Game.mark); map generation borrows it
	// for the players' safe zones.
	destroy bool
}

// Exploding reports whether a blast reached the cell in the last round.
func (c Cell) Exploding() bool { return c.reached != 0 }

// HasBomb reports whether a bomb lies on the cell.
func (c Cell) HasBomb() bool { return c.bomb != 0 }

// Touched reports whether seat has ever occupied the cell.
func (c Cell) Touched(seat int) bool { return c.touched&(1<<seat) != 0 }

// Bomb is a planted bomb.
type Bomb struct {
	Owner     int // seat of the owner
	X, Y      int
	Radius    int // the owner's radius when it was planted
	Timer     int // the "fuse" of the original
	Exploding bool
	// points accumulates the points this bomb earned in the round being
	// processed (walls and kills it reached).
	points int
	// live reports that the slot holds a bomb.
	live bool
}

// Player is one seat's player.
type Player struct {
	Name string
	Key  byte // 'A' + seat (mod 26)
	// Counter is the points counter; the visible points are Counter +
	// Coverage ([Player.Points]).
	Counter int
	// Coverage is the coverage points, recomputed every round while alive.
	Coverage    int
	Killed      bool
	KilledRound int
	BombBag     int // capacity, not the bombs left
	BombRadius  int
	X, Y        int // 1-based; kept at the last cell after death
	// Touched counts the cells the player has ever occupied.
	Touched int
	// Idle counts consecutive do-nothing results for the 20-do-nothing
	// harness rule (spec §7.3); it is not used for console seats.
	Idle int
}

// Points returns the visible points: counter plus coverage.
func (p Player) Points() int { return p.Counter + p.Coverage }

// Game is one Bomberman match: the map, the players, the bombs and the
// round counter, exact to the original engine (see the package doc). A Game
// is a fixed-size value with no pointers into itself; it is not safe for
// concurrent use (vecenv gives each worker a disjoint range of envs).
type Game struct {
	cfg  Config
	spec *env.Spec
	// safety is WriteMask's scratch with Config.SafeMask (nil without).
	safety *Hunter

	// width and height are equal on generated maps (the side); the
	// engine's unit-test fixtures use others, such as 3×1.
	width, height int
	usable        int // cells that are not indestructible walls

	round    int   // CurrentRound: the round about to be processed
	maxRound int   // the game ends once round > maxRound
	mapSeed  int32 // the gameSeed (MapSeed in state.json)
	bounty   int   // PlayerBounty
	// noBounty marks a state loaded from the schema without PlayerBounty;
	// writers then leave the key (and the map.txt header part) out.
	noBounty bool
	done     bool
	// truncatedEnd reports that the game ended on the round cap.
	truncatedEnd bool
	// blasts reports that some cell may have a non-zero reached set or a
	// destroy mark (a blast in the last round, a loaded Exploding cell, a
	// fresh map); the next round clears them only then.
	blasts bool
	// blastsListed reports that scratch.blast lists every cell with a
	// non-zero reached set or a destroy mark, so that the round's passes
	// over exploding cells visit those cells only instead of the map. A
	// fresh or loaded map is scanned in full at its first round.
	blastsListed bool

	nPlayers int
	// bombHigh bounds the used bomb slots: every live bomb is below it,
	// so loops over bombs stop there (see [Game.putBomb]).
	bombHigh int

	// rng draws the collision rolls the original took from a clock-seeded
	// Random; it is seeded from the env seed.
	rng rand.PCG

	// obsShared caches the planes every seat sees alike, in the planes
	// tensor's layout with the per-seat planes zero. The static planes
	// (walls, power-ups) are valid while staticFresh, and Step keeps them
	// so cell by cell (refreshStatic); the dynamic planes (bomb radius,
	// danger, explosions) are valid while obsFresh, which every Step
	// clears. See [Game.stateChanged] and [Game.stepped].
	obsShared   []byte
	obsFresh    bool
	staticFresh bool
	// padded is obsShared with a border of ViewRadius cells around every
	// plane (indestructible walls off the map), from which player-centred
	// windows are copied row by row (see obsview.go); it shows the state
	// of version paddedVer.
	padded    []byte
	paddedVer uint64
	// dyn lists the offsets of the non-zero bytes of obsShared's dynamic
	// planes (bomb radius, danger, explosions), valid while obsFresh.
	dyn []uint16
	// obsVer numbers the states observations show: every Reset, every
	// Step that processes a round and every direct edit (stateChanged)
	// gives a new one. It is 0 only before the first Reset. See
	// [Game.UpdateObs].
	obsVer uint64

	players [MaxPlayers]Player
	// killedBy records, per seat, the cause of its player's death (an
	// index into deathCauses) when a blast of this game killed it, 0
	// otherwise (alive, or loaded dead): see [Game.DeathCause]. It is
	// kept outside Player, which state files describe.
	killedBy [MaxPlayers]uint8

	// invalid counts, per seat, commands the original rejected or ignored
	// (walking into walls, a plant with an empty bag, out-of-range
	// actions, ...).
	invalid [MaxPlayers]int

	// fuses caches [Game.chainFuses] and onMap the bombs each seat has on
	// the map, for the current state while fusesFresh.
	fuses      [MaxBombs]int
	onMap      [MaxPlayers]int
	fusesFresh bool
	// fuseDue reports that some live bomb's chain fuse is at most 1 (it
	// goes off before commands), with the fuses.
	fuseDue bool

	// marks are the per-seat planes' marks of the state obsShared shows,
	// valid while obsFresh.
	marks obsMarks
	bombs [MaxBombs]Bomb

	// scratch is per-round working memory.
	scratch scratch

	// delta records what changed in the observations from state
	// delta.from to obsVer, for [Game.UpdateObs].
	delta obsDelta

	// The map comes after everything else a round touches, so that on a
	// map smaller than MaxSide×MaxSide a round's memory is one span from
	// the Game's start to the end of the map's cells (TestGameRoundSpan);
	// what a round does not touch comes last.
	cells [MaxSide * MaxSide]Cell

	// info describes each seat's player for roundInfo.json (Author,
	// NickName, Email, BotType); see [Game.SetPlayerInfo].
	info [MaxPlayers]PlayerInfo

	// names are the configured player names, made once so that Reset
	// does not allocate.
	names [MaxPlayers]string
}

// PlayerInfo is how roundInfo.json describes a player (spec §8.3). The zero
// value describes a console player: the name in the three text fields and
// BotType "Unkown" (the engine's spelling).
type PlayerInfo struct {
	Author   string
	NickName string
	Email    string
	BotType  string
}

// scratch is per-round working memory, kept in the Game so that Step does not
// allocate.
type scratch struct {
	// The lengths of the lists below come first, together, so that a
	// round touches one cache line for them.
	nMoves, nKilled, nBlast, nMarked int
	// markedOver reports that more than len(marked) cells were marked
	// this round: marked holds the first ones only, and destroyMarked
	// finds them all in the cells' destroy marks instead.
	markedOver bool
	// chain is a union-find forest over bomb slots for this round's chain
	// graph.
	chain [MaxBombs]uint8
	// lastPoints are each seat's points before the step, for shaping
	// (set only with Config.PointsReward).
	lastPoints [MaxPlayers]int
	// moves is the queue of this round's moves (nMoves of them).
	moves  [MaxPlayers]move
	killed [MaxPlayers]uint8 // nKilled seats killed this round, in destroy order
	// blast lists the nBlast cells whose reached set became non-zero
	// since the last clearExplosions, while Game.blastsListed; a round
	// whose blasts reach more cells than it holds stops listing them, and
	// its passes over exploding cells scan the map instead.
	blast [blastListLen]uint16
	// marked lists the nMarked cells marked for destruction this round,
	// in marking order, unless markedOver.
	marked [blastListLen]uint16
}

// blastListLen bounds scratch's lists of reached and marked cells. The
// lists are kept short, so that they and the map's cells stay near the
// Game's start (see Game.cells); a round that outgrows them (on a 21×21
// map it takes several bombs of radius 8 or more) falls back to scanning
// the map, which gives the same result.
const blastListLen = 128

// move is one queued move: seat and target cell.
type move struct {
	seat int
	x, y int
}

// stateChanged invalidates everything derived from the state (the shared
// observation planes, the chain fuses, the bomb counts, the observation
// delta). LoadNative calls it, and so must code that edits cells directly.
func (g *Game) stateChanged() {
	g.delta.from = 0
	g.remapped()
}

// remapped invalidates everything derived from the state but keeps the
// observation delta that Reset began (see [Game.beginDelta]).
func (g *Game) remapped() {
	g.obsFresh, g.staticFresh, g.fusesFresh = false, false, false
	g.obsVer++
}

// stepped invalidates what a round changes wholesale. Step keeps the static
// planes up to date itself, cell by cell, through refreshStatic.
func (g *Game) stepped() {
	g.obsFresh, g.fusesFresh = false, false
	g.obsVer++
}

// putBomb puts b, made live, in slot and on its cell, and raises bombHigh.
func (g *Game) putBomb(slot int, b Bomb) {
	b.live = true
	g.bombs[slot] = b
	g.cells[g.index(b.X, b.Y)].bomb = uint8(slot + 1)
	g.bombHigh = max(g.bombHigh, slot+1)
}

// Width returns the map width (the side on generated maps).
func (g *Game) Width() int { return g.width }

// Height returns the map height (the side on generated maps).
func (g *Game) Height() int { return g.height }

// Round returns CurrentRound: the round about to be processed (0 after
// Reset).
func (g *Game) Round() int { return g.round }

// MapSeed returns the game seed the map was generated from.
func (g *Game) MapSeed() int32 { return g.mapSeed }

// PlayerBounty returns the points a kill is worth.
func (g *Game) PlayerBounty() int { return g.bounty }

// Players returns the number of seats.
func (g *Game) Players() int { return g.nPlayers }

// Player returns a copy of seat's player. It panics if seat is out of range.
func (g *Game) Player(seat int) Player {
	if seat < 0 || seat >= g.nPlayers {
		panic("bomberman: Player: seat out of range")
	}
	return g.players[seat]
}

// InBounds reports whether (x, y) is on the map (1-based).
func (g *Game) InBounds(x, y int) bool { return x >= 1 && y >= 1 && x <= g.width && y <= g.height }

// index returns the cell index of (x, y); the caller ensures InBounds.
func (g *Game) index(x, y int) int { return (y-1)*g.width + (x - 1) }

// At returns a copy of cell (x, y), 1-based. It panics if (x, y) is off the
// map.
func (g *Game) At(x, y int) Cell {
	if !g.InBounds(x, y) {
		panic("bomberman: At: cell off the map")
	}
	return g.cells[g.index(x, y)]
}

// BombAt returns the bomb on cell (x, y), if any.
func (g *Game) BombAt(x, y int) (Bomb, bool) {
	if !g.InBounds(x, y) {
		return Bomb{}, false
	}
	c := g.cells[g.index(x, y)]
	if c.bomb == 0 {
		return Bomb{}, false
	}
	return g.bombs[c.bomb-1], true
}

// Invalid returns how many of seat's commands the original would have
// rejected or ignored since the last Reset.
func (g *Game) Invalid(seat int) int { return g.invalid[seat] }
