package battlecube

import (
	"math"
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Action is a seat's task for one tick; see the package doc for the index
// formula. The zero value is NOOP.
type Action int32

// The fixed actions. A bomb on cell (x, y, z) is [BombAction](edge, x, y, z).
const (
	Noop Action = iota
	MovePlusX
	MoveMinusX
	MovePlusY
	MoveMinusY
	MovePlusZ
	MoveMinusZ
	// NumFixedActions is the number of actions before the bomb actions.
	NumFixedActions
)

// Out-of-range actions stand for replies the server rejects (see the
// package doc): the seat is lost in the tick's ask phase.
const (
	// RejectAmount is a reply with the wrong number of tasks: PLAYER_LOST
	// with {error: VALIDATION_ERROR, details: "Invalid amount of directions
	// sent"}. Every out-of-range action that is none of the others below
	// means this.
	RejectAmount Action = -1
	// RejectSchema is a reply that fails the task schema: PLAYER_LOST with
	// {error: VALIDATION_ERROR, details: [...]}.
	RejectSchema Action = -2
	// RejectConnection is a failed request (timeout, a body that is not
	// JSON, a crash of the bot): PLAYER_LOST with cause {} (a JS Error,
	// which socket.io sends as {}).
	RejectConnection Action = -3
)

// Out-of-range actions for the tasks the server accepts but that are none
// of NOOP, the six moves and a bomb on a cube cell (see [Game.ParseCommand]).
// The seat carries them out at its turn, in player order, as the original
// does; they count in [Game.Invalid].
const (
	// CrashMove is a MOVE task without a string direction ({"task":"MOVE"},
	// or with coordinates): the server's move code throws a TypeError at
	// the bot's turn, caught as a loss, PLAYER_LOST with cause {}: after
	// the tasks of the bots before it, before those after it.
	CrashMove Action = -4
	// BombNowhere is a BOMB task without coordinates ({"task":"BOMB"}, or
	// with a direction): the server places a bomb with x, y and z
	// undefined, which every later message shows as {"type":"BOMB"} in
	// items (at most one: a second is "on the same cell"), and emits
	// PLAYER_PLACED_BOMB {name}. It never explodes.
	BombNowhere Action = -5
	// Idle is a task other than MOVE, BOMB and NOOP: the server does
	// nothing and emits no event.
	Idle Action = -6
	// strayMoveFirst is StrayMove(0); StrayMove(NoAxis) is the last.
	strayMoveFirst Action = -16
)

// NoAxis stands for a direction of one character in [StrayMove]: its
// second code unit is undefined, and so is the property's name.
const NoAxis = 0x10000

// StrayMove returns the action of a MOVE whose lower-cased direction's
// second UTF-16 code unit is unit, not x, y or z (NoAxis when there is
// none): moveBot sets that property of the bot's position to NaN, emits
// PLAYER_MOVE_ATTEMPT, and the bot stays where it is; the position object
// keeps the property, sent as "unit":null in every later NEXT_TICK, bot
// request and PLAYER_MOVE_ATTEMPT ("undefined":null for NoAxis). It panics
// if unit is out of 0..NoAxis.
func StrayMove(unit int) Action {
	if unit < 0 || unit > NoAxis {
		panic("battlecube: StrayMove: unit out of range")
	}
	return strayMoveFirst - Action(unit)
}

// StrayUnit returns the code unit of a [StrayMove] action, and false for
// other actions. The actions StrayMove would give x, y and z are none: a
// direction with those axes is a move, and a position cannot hold a stray
// "x" beside its x.
func StrayUnit(a Action) (unit int, ok bool) {
	if a > strayMoveFirst || a < strayMoveFirst-NoAxis {
		return 0, false
	}
	if unit = int(strayMoveFirst - a); unit == 'x' || unit == 'y' || unit == 'z' {
		return 0, false
	}
	return unit, true
}

// moveDelta is each move's change of (x, y, z).
var moveDelta = [NumFixedActions][3]int{
	{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
}

// moveNames are the directions of the move actions, as bots write them.
var moveNames = [NumFixedActions]string{"", "+X", "-X", "+Y", "-Y", "+Z", "-Z"}

// BombAction returns the action that bombs cell (x, y, z) of a cube of the
// given edge: NumFixedActions + (z*edge + y)*edge + x. The cell must lie in
// the cube.
func BombAction(edge, x, y, z int) Action {
	return NumFixedActions + Action((z*edge+y)*edge+x)
}

// BombCell returns the cell a bomb action targets, and false for actions
// that are not bomb actions of a cube of the given edge.
func BombCell(edge int, a Action) (x, y, z int, ok bool) {
	c := int(a - NumFixedActions)
	if c < 0 || c >= edge*edge*edge {
		return 0, 0, 0, false
	}
	return c % edge, c / edge % edge, c / (edge * edge), true
}

// NumActions returns the size of the action space of a cube of the given
// edge: NumFixedActions + edge³.
func NumActions(edge int) int { return int(NumFixedActions) + edge*edge*edge }

// Cause is why a player was lost. The zero value means not lost.
type Cause uint8

// The causes of the original (spec §3, §5).
const (
	NotLost Cause = iota
	CauseOutOfBounds
	CauseBomb
	CauseCrash
	CauseAmount     // VALIDATION_ERROR, wrong number of tasks
	CauseSchema     // VALIDATION_ERROR, schema details
	CauseConnection // CONNECTION_ERROR (sent as {})
	// CauseEarlier marks seats a loaded state (LoadNative) does not list.
	CauseEarlier
	// CauseTypeError is the TypeError of a MOVE without a direction
	// ([CrashMove]), sent as {}.
	CauseTypeError
)

// causeText is the cause string of the three string causes.
var causeText = [...]string{
	CauseOutOfBounds: "Player moved out of bounds",
	CauseBomb:        "Player stepped on a BOMB",
	CauseCrash:       "Player crashed to other player",
}

func (c Cause) String() string {
	switch c {
	case NotLost:
		return "not lost"
	case CauseOutOfBounds, CauseBomb, CauseCrash:
		return causeText[c]
	case CauseAmount:
		return "VALIDATION_ERROR: Invalid amount of directions sent"
	case CauseSchema:
		return "VALIDATION_ERROR: schema"
	case CauseConnection:
		return "CONNECTION_ERROR"
	case CauseEarlier:
		return "lost before the loaded tick"
	case CauseTypeError:
		return "TypeError (a MOVE without a direction)"
	}
	return "Cause(?)"
}

// Player is one seat's bot. The fields a Step reads come first; 72 bytes
// (its stray properties are in Game.strays), so that those of the first
// four players lie in four cache lines.
type Player struct {
	// X, Y, Z is the position; it may be out of the cube in the tick the
	// bot moved out, and it is kept after the bot is lost.
	X, Y, Z int
	// InPlay reports that the bot is in the position list (the original's
	// playerPositions).
	InPlay bool
	// Lost reports that the bot is in lostPlayers; Cause is its first loss
	// cause and HighScore the tick it was lost in.
	Lost bool
	// nStray counts the stray properties (see Game.strays).
	nStray uint8
	Cause  Cause
	// lostOrder is the bot's index in lostPlayers.
	lostOrder uint8
	HighScore int
	Name      string
	URL       string
}

// hasStray reports whether seat s's position has the stray property unit.
func (g *Game) hasStray(s, unit int) bool {
	for _, u := range g.strays[s][:g.players[s].nStray] {
		if int(u) == unit {
			return true
		}
	}
	return false
}

// StrayKeys returns the number of stray properties the bot's position
// holds (see [StrayMove]).
func (p Player) StrayKeys() int { return int(p.nStray) }

// Item is a bomb, the only item of the original: {x, y, z, type: "BOMB"}.
type Item struct{ X, Y, Z int32 }

// nowhere is the bomb of [BombNowhere], x, y and z undefined: no cell has
// its coordinates, and it is sent as {"type":"BOMB"}.
var nowhere = Item{math.MinInt32, math.MinInt32, math.MinInt32}

// eventKind is the socket.io event of a recorded event.
type eventKind uint8

const (
	evGameStarted eventKind = iota
	evNextTick
	evMoveAttempt
	evPlacedBomb
	evDidNothing
	evLost
	evGameEnded
)

var eventNames = [...]string{"GAME_STARTED", "NEXT_TICK", "PLAYER_MOVE_ATTEMPT", "PLAYER_PLACED_BOMB", "PLAYER_DID_NOTHING", "PLAYER_LOST", "GAME_ENDED"}

// event is one recorded event of the last tick; AppendNative("events")
// renders it. NEXT_TICK is rendered from the tick's start snapshot.
type event struct {
	kind    eventKind
	seat    uint8
	cause   Cause
	x, y, z int32
}

// tickSeat is a seat's part of the last tick's record: its position, in
// play and stray properties at the tick's start (for NEXT_TICK, with
// Game.snapTick and snapItems). One struct, so that a tick's writes of the
// first seats share a cache line.
type tickSeat struct {
	pos    [3]int32
	inPlay bool
	stray  uint8
}

// maxBombCells is how many changed cells of bombBits a Step or Reset records
// for UpdateObs; past it, rows get the bombs plane in full.
const maxBombCells = 32

// maxEventsOf bounds the events of one tick of a game of n seats:
// NEXT_TICK, up to three per seat (an ask-phase loss, an action, an
// out-of-bounds loss), one collision loss per seat, GAME_ENDED.
func maxEventsOf(n int) int { return 4*n + 2 }

// group is one collision group of a tick: the cell, whether it held a bomb,
// and its members in detection order.
type group struct {
	x, y, z int
	hasBomb bool
	members [MaxPlayers]uint8
	n       int
}

// Game is one Battle³ match, exact to the original server (see the package
// doc). Its players, bombs and per-tick working memory are fixed-size or
// sized once in New; it is not safe for concurrent use (vecenv gives each
// worker a disjoint range of envs).
type Game struct {
	// The fields a Step reads or writes come first, the small ones before
	// the arrays, so that a pool's step over many games touches few cache
	// lines of each; those that every seat's UpdateObs and UpdateMask
	// read sit in the first three lines.
	spec *env.Spec

	edge, cells int
	n           int // seats
	tasks       int // numOfTasksPerTick
	maxTicks    int

	tick int // currentTick: the tick about to be processed
	done bool
	// winnerFound reports GAME_ENDED's result WINNER_FOUND.
	winnerFound bool
	// truncatedEnd reports that the tick limit ended the game with more
	// than one bot in play.
	truncatedEnd bool
	// moreScalars reports that the scalar vector has more than
	// NumScalars (Config.History, CycleMarks or TasksScalar); safeMask,
	// history and cycleMarks are Config.SafeMask, History and CycleMarks.
	moreScalars, safeMask, history, cycleMarks bool

	// marks records what UpdateObs wrote (see obsMarks); nil until its
	// first call.
	marks *obsMarks

	// bombBits has bit i%64 of word i/64 set for every cube cell i
	// holding a bomb that is not used up (see bombIn): a Step's look-ups
	// in the default cube's 512 cells then read one cache line.
	bombBits []uint64
	// stateVer numbers the game's states: every Reset, Step and
	// LoadNative gives a new one. bombsFrom is the version the last Reset
	// or Step started from (0 after a LoadNative, or when the Reset or
	// Step changed more cells than bombCells holds), and
	// bombCells[:nBombCells] the cells of bombBits it set or cleared. See
	// [Game.UpdateObs].
	stateVer, bombsFrom uint64
	nBombCells          int
	// nScalars is the length of the scalar vector.
	nScalars int
	// shown is what every seat's observation of the state shows alike
	// (see [Game.view]).
	shown obsView
	// botAt holds, per seat, the offset in the others plane of its bot's
	// cell in the state shown.ver, −1 when it is not in play on a cube
	// cell, and botsShare reports that two bots share a cell; prevBotAt
	// and prevShare are those of the state prevVer (0: none), the last
	// state before this one whose view was made.
	botAt, prevBotAt     []int32
	prevVer              uint64
	botsShare, prevShare bool

	// items are the bombs in placement order.
	items []Item
	// outside counts items outside the cube.
	outside int

	// nGroups counts groups; nEvents, snapTick and snapItems go with the
	// events and seatTick below: the events of the last tick and its start
	// snapshot for NEXT_TICK.
	nGroups                      int
	nEvents, snapTick, snapItems int // items[:snapItems] were the items at the tick's start

	// order lists the seats in player order (the original's position-list
	// order, which fixes the order of everything); it is the seat order.
	nLost int
	// lostFrom is nLost at the last Step's start: lost[lostFrom:nLost] are
	// the seats lost in its tick (for rewards).
	lostFrom int

	// seatTick holds, per seat, the tick's start snapshot for NEXT_TICK
	// (sized in New, like players below).
	seatTick []tickSeat

	// players, events and groups are sized for the seats in New (events:
	// maxEventsOf), each a small allocation of its own, so that the Game
	// stays small and a pool's games keep theirs side by side: a step over
	// many games then touches few pages.
	players []Player
	events  []event
	// groups are the last tick's collision groups (the original's
	// collisions), used to remove exploded bombs at the next tick's start.
	groups []group

	rng rand.PCG

	lost [MaxPlayers]uint8 // lostPlayers, in loss order

	bombCells [maxBombCells]int32

	// The fields below are read by the Steps of some configs only, by
	// Reset or by neither.

	cfg Config

	invalid [MaxPlayers]int

	// hist, one per seat, is nil unless Config.History (see
	// seatHistory).
	hist []seatHistory
	// cycStart, one per seat, is nil unless Config.CycleMarks: the cell
	// each seat stood on at the start of the current cycle's first tick,
	// recorded by Step (see recordCycleStarts).
	cycStart [][3]int32

	// strays holds, per seat, the code units (or NoAxis) of the properties
	// [StrayMove] added to its position, in the order added: the first
	// Player.nStray of them.
	strays [][MaxStrayKeys]uint32

	name, id string
	// names and urls are the configured ones, made once so that Reset does
	// not allocate.
	names, urls [MaxPlayers]string
}
