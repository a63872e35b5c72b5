package portalbomber

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Limits of botarena's port.
const (
	// Seats is the number of players: the original is strictly 1 v 1.
	Seats = 2
	// MinSize and MaxSize bound the board side (border included).
	MinSize = 7
	MaxSize = 25
	// MaxCells is the number of cells of the largest board.
	MaxCells = MaxSize * MaxSize
	// DefaultSize is the original's board side, border included.
	DefaultSize = 11
)

// The original's constants (spec §2, §5, §6, §7).
const (
	StartBombCount = 1
	StartRange     = 3
	StartPierce    = 0
	BombTicks      = 5
	TrailTicks     = 2
	UpgradePrice   = 5
	// FireOwner is the owner of apocalypse fire trails.
	FireOwner = -1
)

// Directions and orientations, as the original numbers them.
const (
	Left = iota
	Up
	Right
	Down
)

var dirDX = [4]int{-1, 0, 1, 0}
var dirDY = [4]int{0, -1, 0, 1}

// Action is one move. Its values are botarena's action indices; the native
// move strings are in [Game.ParseCommand]. The zero value is Wait (”).
type Action int32

// The 17 actions; see the package doc.
const (
	Wait Action = iota
	MoveLeft
	MoveUp
	MoveRight
	MoveDown
	TurnLeft
	TurnUp
	TurnRight
	TurnDown
	PlaceBomb
	OrangePortal
	BluePortal
	BuyCount
	BuyRange
	BuyPierce
	BuyBlock
	// InvalidMove is a move string the engine does not know: the move is
	// used up and nothing happens. Its mask bit is always 0.
	InvalidMove
	// NumActions is the size of the action space.
	NumActions = 17
)

// moveStrings are the original's move strings, by action.
var moveStrings = [NumActions]string{"", "ml", "mu", "mr", "md", "tl", "tu", "tr", "td", "b", "op", "bp",
	"buy_count", "buy_range", "buy_pierce", "buy_block", "x"}

var actionNames = [NumActions]string{"wait", "move_left", "move_up", "move_right", "move_down",
	"turn_left", "turn_up", "turn_right", "turn_down", "bomb", "orange_portal", "blue_portal",
	"buy_count", "buy_range", "buy_pierce", "buy_block", "invalid"}

func (a Action) String() string {
	if a >= 0 && a < NumActions {
		return actionNames[a]
	}
	return "Action(?)"
}

// TrailType is the type of a trail. The zero value means no trail.
type TrailType uint8

// The trail types of the original.
const (
	NoTrail TrailType = iota
	TrailH
	TrailV
	TrailOrigin
	TrailFire // "apocalypse"
)

var trailTypeNames = [...]string{"", "h", "v", "origin", "apocalypse"}

func (t TrailType) String() string {
	if int(t) < len(trailTypeNames) {
		return trailTypeNames[t]
	}
	return "TrailType(?)"
}

// Trail is one owner's trail on a cell.
type Trail struct {
	Tick int8
	Type TrailType
}

// Portal colours.
const (
	Orange = 0
	Blue   = 1
)

// Portal is a player's reference to one of its portals: the block it is on
// and the face (direction) it points to.
type Portal struct {
	X, Y, Dir int
	Set       bool
}

// face is one portal-map entry: Owner is the seat + 1 (0: no portal).
type face struct {
	owner uint8
	color uint8
}

// cell is one board cell.
type cell struct {
	// The fields are in an order that leaves no padding: 32 bytes, two
	// cells a cache line.
	hard, soft bool
	// bombTick is the bomb's tick (0: no bomb), bombOwner its seat and
	// bombSeq its insertion order in the bombMap.
	bombTick  int8
	bombOwner uint8
	// trails by owner: index 0 and 1 are the seats, 2 the fire (owner -1).
	trails  [3]Trail
	portals [4]face
	// listed: the cell is in Game.marked (a fire cell is in Game.fire
	// instead, or too).
	listed bool
	// trailSeq orders the cell's trailMap entry (0: no entry); the JSON
	// lists entries by it, as JavaScript lists object keys by insertion.
	trailSeq uint32
	// portalSeq orders the cell's portalMap entry; entries are never
	// deleted, only emptied, as in the original.
	portalSeq uint32
	bombSeq   uint32
}

// Player is one seat's player.
type Player struct {
	X, Y        int // (-1,-1) once dead
	Orientation int
	BombCount   int // bombs available now
	BombRange   int
	BombPierce  int
	Alive       bool
	Coins       int
	Portals     [2]Portal // by colour: Orange, Blue
}

// player is a [Player] as a Game keeps it: the fields that a step, an
// observation and a mask read, in 32 bytes, so that both players share one
// cache line; the portals, which only moves and blasts through portals and
// portal shots read, are in Game.portals. Every value fits an int32: a
// state loads counters of at most statLimit and coordinates on the board,
// and play adds to them by the coins of a board's blocks.
type player struct {
	X, Y        int32 // (-1,-1) once dead
	Orientation int32
	BombCount   int32
	BombRange   int32
	BombPierce  int32
	Coins       int32
	Alive       bool
}

// at returns p's cell.
func (p *player) at() (x, y int) { return int(p.X), int(p.Y) }

// Player returns p with its portals.
func (p *player) Player(portals [2]Portal) Player {
	return Player{X: int(p.X), Y: int(p.Y), Orientation: int(p.Orientation), BombCount: int(p.BombCount),
		BombRange: int(p.BombRange), BombPierce: int(p.BombPierce), Alive: p.Alive, Coins: int(p.Coins), Portals: portals}
}

// setPlayer sets seat's player and portals to q, whose counters fit an
// int32 (see player).
func (g *Game) setPlayer(seat int, q Player) {
	g.players[seat] = player{X: int32(q.X), Y: int32(q.Y), Orientation: int32(q.Orientation), BombCount: int32(q.BombCount),
		BombRange: int32(q.BombRange), BombPierce: int32(q.BombPierce), Coins: int32(q.Coins), Alive: q.Alive}
	g.portals[seat] = q.Portals
}

// Game states as the original names them.
const (
	stateInProgress = iota
	stateComplete
	// stateAborted is the server's "aborted": a timeout before the third
	// move ([Game.TimeOut]).
	stateAborted
)

// Game is one UPE portal Bomberman match: a fixed-size value without
// pointers into itself. It is not safe for concurrent use; vecenv gives each
// worker a disjoint range of envs.
type Game struct {
	// A pool steps every game in turn, so each cache line of a Game that
	// a step reads is a miss. What a step and the observations of both
	// seats read lies in three lines (TestGameLayout): two of counters,
	// the config's hot fields and the UpdateObs records, then the two
	// players (their portals, read by moves into blocks and portal shots,
	// in the two lines after). The mark offsets of UpdateObs take one more
	// line, read when the marks changed; then the lists and the board;
	// then what only Reset, LoadNative and full observations read.

	// Line 0 (the 56 bytes after the allocator's header).
	n            int // board side
	moveNumber   int
	moveIterator int
	// nBombs, nMarked and nFire count the lists bombs, marked and fire;
	// seatTrails counts the cells with a seat's trail.
	nBombs     int16
	nMarked    int16
	nFire      int16
	seatTrails int16
	steps      int32
	seq        uint32
	// truncAt is the moveNumber from which the round cap truncates a
	// game, 2 × cfg.MaxRounds (math.MaxInt32, which no game reaches,
	// without a cap); apocalypseAfter, and simultaneous and
	// dangerReward below, are cfg's fields of those names: what a step
	// reads of the config, kept here so that a step does not read cfg's
	// line (see setConfig).
	truncAt         int32
	apocalypseAfter int32
	state           int8
	winner          int8 // -2 in progress, -1 tie, else the seat
	simultaneous    bool
	// boardPending: the hard or soft blocks changed since the last
	// UpdateObs (see cellChanged).
	boardPending bool
	// killedBy records, per seat, the cause of its player's death (an
	// index into deathCauses) when a trail of this game killed it, 0
	// otherwise (alive, or loaded dead): see [Game.DeathCause]. It is
	// kept outside Player, which state files describe.
	killedBy [Seats]uint8

	// Line 1: obs records, per seat, the last UpdateObs through this
	// value; obsWrites numbers its writes (see UpdateObs).
	obs       obsHeads
	obsWrites uint64
	invalid   [Seats]int32
	earned    [Seats]int32 // coins earned in the current step (Config.CoinsReward)
	// safety is WriteMask's scratch with Config.SafeMask (nil without).
	// Copies of a Game share it; only WriteMask uses it.
	safety       *Raider
	dangerReward float32
	moveOrder    [Seats]uint8
	_            [2]byte

	// Line 2, read when the board changed or a game ends.
	// boardCells lists the cells whose blocks changed since the first
	// change after the last UpdateObs (nBoardCells of them; -1: more than
	// boardCells holds), for UpdateObs: see cellChanged.
	boardCells  [8]uint16
	nBoardCells int
	// layout is the new board of the configured size (see generate).
	layout      *layout
	spec        *env.Spec
	coinsReward float32
	// fireShown records, per seat, how many cells of the fire list the
	// fire plane of its last UpdateObs shows (fireStale: cells of an
	// earlier board); see updateFire.
	fireShown [Seats]uint16
	_         [16]byte // players start line 3

	// Line 3: both players; lines 4 and 5: their portals.
	players [Seats]player
	portals [Seats][2]Portal // by seat, then colour: Orange, Blue

	// Line 6: the offsets of the marks of the seats' last UpdateObs;
	// the three lines after, the offsets after each seat's first
	// obsRecord, read only when its marks outnumber those (the
	// apocalypse's fire).
	obsAt   [Seats][obsRecord]uint16
	obsMore [Seats][obsMore]uint16

	// fire is apocalypse head 1: cell and direction; head 2 is its mirror.
	fireX, fireY, fireDir int
	// fireSoft lists the cells of Game.fire outside Game.marked that may
	// hold a soft block (fire set on one, a block bought on fire), for the
	// next trail step (see burn): nFireSoft of them, -1 when more (every
	// fire cell may).
	fireSoft  [4]uint16
	nFireSoft int

	// bombs lists the bomb cells in bombMap insertion order (nBombs of
	// them).
	bombs [MaxCells]uint16
	// marked lists, in no particular order, every cell that has had a
	// seat's trail or a portal entry since the board was cleared (entries
	// that emptied since stay listed), so that observations and the trail
	// step visit those cells only (see Game.listCell); nMarked of them.
	marked [MaxCells]uint16
	// fire lists the cells with apocalypse fire in the order they caught
	// it (nFire of them). Fire never goes out, so the fire plane of an
	// observation only gains the cells listed since, and a cell that
	// holds nothing but fire (most of a long game's trails) need not be
	// in marked: the trail step resolves it from this list.
	fire  [MaxCells]uint16
	_     [50]byte // cells start a cache line (TestGameLayout)
	cells [MaxCells]cell

	cfg Config
	// gameID and playerIDs are the ids of a loaded state (idsLoaded);
	// after a Reset, ids derives them from idHash when they are asked
	// for.
	gameID    [24]byte
	playerIDs [Seats][24]byte
	idHash    uint64
	idsLoaded bool

	// values holds BlockValue of every cell (index y*n + x), computed
	// once for the size.
	values [MaxCells]uint8

	// danger is the scratch fire forecast of Config.DangerReward.
	danger [MaxCells]uint16
	rng    rand.PCG
}

// listCell adds cell i to Game.marked unless it is there: every place
// that gives a cell a seat's trail or a portal entry calls it.
func (g *Game) listCell(i int) {
	if c := &g.cells[i]; !c.listed {
		c.listed = true
		g.marked[g.nMarked] = uint16(i)
		g.nMarked++
	}
}

// setFire gives cell i apocalypse fire, adding it to Game.fire unless it
// has fire already: every place that sets fire calls it.
func (g *Game) setFire(i int) {
	if c := &g.cells[i]; c.trails[2].Type != TrailFire {
		c.trails[2] = Trail{Type: TrailFire}
		g.fire[g.nFire] = uint16(i)
		g.nFire++
		if c.soft {
			record(g.fireSoft[:], &g.nFireSoft, i)
		}
	}
}

// idx returns the cell index of (x, y): row-major, y*n + x.
func (g *Game) idx(x, y int) int { return y*g.n + x }

// inBoard reports whether (x, y) is on the board: 0 <= x, y < n, as two
// unsigned comparisons.
func (g *Game) inBoard(x, y int) bool { return uint(x) < uint(g.n) && uint(y) < uint(g.n) }

// Size returns the board side, border included.
func (g *Game) Size() int { return g.n }

// Player returns a copy of seat's player.
func (g *Game) Player(seat int) Player { return g.players[seat].Player(g.portals[seat]) }

// MoveNumber returns the original's moveNumber: accepted moves of both
// players.
func (g *Game) MoveNumber() int { return g.moveNumber }

// ToMove returns the seat whose turn it is (with simultaneous moves, -1).
func (g *Game) ToMove() int {
	if g.cfg.Simultaneous {
		return -1
	}
	return int(g.moveOrder[g.moveIterator])
}

// GameID returns the game's 24-hex-digit id (the state JSON's gameID).
func (g *Game) GameID() string {
	id, _ := g.ids()
	return string(id[:])
}

// PlayerID returns seat's 24-hex-digit player id (the state JSON's playerID
// for that seat, which a client sends back with each submit).
func (g *Game) PlayerID(seat int) string {
	_, ids := g.ids()
	return string(ids[seat][:])
}

// ids returns the game's id and its players' ids: those of the loaded
// state, or those derived from the seed of the last Reset.
func (g *Game) ids() (game [24]byte, players [Seats][24]byte) {
	if g.idsLoaded {
		return g.gameID, g.playerIDs
	}
	h := g.idHash
	hexID(&game, h)
	hexID(&players[0], env.SplitMix64(h^1))
	hexID(&players[1], env.SplitMix64(h^2))
	return game, players
}

// TimeOut ends the game as the original server (Handler.js checkTimeout,
// spec §9) does when the player to move sends no move in time: with fewer
// than 3 moves made the game is "aborted" (no winner, Result is a draw);
// otherwise the player to move loses: "complete", the other seat wins,
// both players still alive. It returns the winner (-1 when aborted) and
// does nothing to a game that is over (returning its winner). Botarena has
// no clock; the UPE HTTP server (agents/upe) calls this.
func (g *Game) TimeOut() (winner int) {
	if g.state != stateInProgress {
		w, _ := g.Outcome()
		return w
	}
	if g.moveNumber < 3 || g.cfg.Simultaneous { // no single player to move
		g.state, g.winner = stateAborted, -1
		return -1
	}
	g.state, g.winner = stateComplete, int8(1-g.ToMove())
	return int(g.winner)
}

// Abort ends an unfinished game as "aborted", with no winner: what the UPE
// server (agents/upe) does to a game it gives up (the server shuts down,
// or the match is stopped early), as the original marked games in progress
// "aborted" when it restarted.
func (g *Game) Abort() {
	if g.state == stateInProgress {
		g.state, g.winner = stateAborted, -1
	}
}

// MoveOrder returns the original's moveOrder and moveIterator.
func (g *Game) MoveOrder() (order [Seats]int, iterator int) {
	return [Seats]int{int(g.moveOrder[0]), int(g.moveOrder[1])}, g.moveIterator
}

// Hard reports whether (x, y) holds a hard block.
func (g *Game) Hard(x, y int) bool { return g.inBoard(x, y) && g.cells[g.idx(x, y)].hard }

// Soft reports whether (x, y) holds a soft block.
func (g *Game) Soft(x, y int) bool { return g.inBoard(x, y) && g.cells[g.idx(x, y)].soft }

// Bomb returns the bomb at (x, y): its owner and tick, ok false for none.
func (g *Game) Bomb(x, y int) (owner, tick int, ok bool) {
	if !g.inBoard(x, y) {
		return 0, 0, false
	}
	c := &g.cells[g.idx(x, y)]
	return int(c.bombOwner), int(c.bombTick), c.bombSeq != 0
}

// TrailOf returns owner's trail at (x, y) (owner 0, 1 or [FireOwner]).
func (g *Game) TrailOf(x, y, owner int) Trail {
	if !g.inBoard(x, y) {
		return Trail{}
	}
	return g.cells[g.idx(x, y)].trails[ownerSlot(owner)]
}

// HasTrail reports whether (x, y) holds any trail.
func (g *Game) HasTrail(x, y int) bool { return g.inBoard(x, y) && g.cells[g.idx(x, y)].trailSeq != 0 }

// PortalAt returns the portal on face dir of block (x, y): owner seat and
// colour, ok false for none.
func (g *Game) PortalAt(x, y, dir int) (owner, color int, ok bool) {
	if !g.inBoard(x, y) {
		return 0, 0, false
	}
	f := g.cells[g.idx(x, y)].portals[dir]
	return int(f.owner) - 1, int(f.color), f.owner != 0
}

// Invalid returns how many of seat's actions were refused: out of range,
// out of turn (a non-zero action of the seat not to move), the invalid move,
// and moves the engine carries out as no-ops for want of coins, bombs or an
// empty cell (the actions [Game.WriteMask] marks 0).
func (g *Game) Invalid(seat int) int { return int(g.invalid[seat]) }

func ownerSlot(owner int) int {
	if owner < 0 {
		return 2
	}
	return owner
}

// value returns the block value of cell (x, y).
func (g *Game) value(x, y int) int { return int(g.values[g.idx(x, y)]) }

// BlockValue returns the original's block value of (x, y) on a board of
// side n (spec §3, generalised to n as §13.2 suggests): floor(10·|(n−1−x)·x·
// (n−1−y)·y| / ((n−1)⁴/16)), and 1 where that is 0.
func BlockValue(n, x, y int) int {
	raw := (n - 1 - x) * x * (n - 1 - y) * y
	if raw < 0 {
		raw = -raw
	}
	m := n - 1
	v := 10 * raw * 16 / (m * m * m * m)
	if v == 0 {
		return 1
	}
	return v
}
