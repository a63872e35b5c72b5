package battlecube

import (
	"github.com/botarena/botarena/env"
)

var _ env.Env = (*Game)(nil)

// New returns a game for cfg, validated, started with Reset(0). The
// registry name in its Spec is "battlecube".
func New(cfg *Config) (*Game, error) { return newGame("battlecube", cfg) }

func newGame(name string, cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: *cfg, name: name}
	g.cfg.Names = append([]string(nil), cfg.Names...)
	g.cfg.URLs = append([]string(nil), cfg.URLs...)
	g.cfg.StartPositions = append([][3]int(nil), cfg.StartPositions...)
	if g.cfg.GameID == "" {
		g.cfg.GameID = "botarena"
	}
	g.edge = cfg.Edge
	g.cells = cfg.Edge * cfg.Edge * cfg.Edge
	g.n = cfg.Players
	g.tasks = cfg.TasksPerTick
	g.maxTicks = cfg.MaxTicks
	g.id = g.cfg.GameID
	for s := range g.n {
		g.names[s], g.urls[s] = g.cfg.name(s), g.cfg.url(s)
	}
	g.items = make([]Item, 0, g.cells+MaxOutsideBombs)
	g.bombBits = make([]uint64, (g.cells+63)/64)
	g.players = make([]Player, g.n)
	g.strays = make([][MaxStrayKeys]uint32, g.n)
	g.seatTick = make([]tickSeat, g.n)
	g.events = make([]event, maxEventsOf(g.n))
	g.groups = make([]group, g.n)
	g.nScalars = scalarsOf(&g.cfg)
	g.moreScalars = g.nScalars > NumScalars
	g.safeMask, g.history, g.cycleMarks = g.cfg.SafeMask, g.cfg.History, g.cfg.CycleMarks
	botAt := make([]int32, 2*g.n)
	for i := range botAt {
		botAt[i] = -1 // no bots: no view made yet
	}
	g.botAt, g.prevBotAt = botAt[:g.n:g.n], botAt[g.n:]
	g.shown.moved = make([]botCell, 2*g.n)
	if g.cfg.History {
		g.hist = make([]seatHistory, g.n)
	}
	if g.cfg.CycleMarks {
		g.cycStart = make([][3]int32, g.n)
	}
	g.spec = newSpec(name, &g.cfg)
	g.Reset(0)
	return g, nil
}

// Config returns a copy of the game's config.
func (g *Game) Config() Config { return g.cfg }

// Spec returns the game's spec; it is shared and must not be modified.
func (g *Game) Spec() *env.Spec { return g.spec }

// Reset starts a new game: players placed (the configured start cells, or
// random cells from a PCG generator seeded with seed), no bombs, tick 0,
// and the events GAME_STARTED. It does not allocate.
func (g *Game) Reset(seed uint64) {
	g.rng.Seed(seed, seed^0xb3c0be)
	g.tick = 0
	g.done, g.winnerFound, g.truncatedEnd = false, false, false
	// The bombs go: rows that showed them get only their cells.
	g.beginState()
	for _, it := range g.items {
		if x, y, z := int(it.X), int(it.Y), int(it.Z); g.inCube(x, y, z) {
			g.bombSet(g.index(x, y, z))
		}
	}
	g.items = g.items[:0]
	clear(g.bombBits)
	g.outside = 0
	g.nGroups = 0
	g.nLost = 0
	clear(g.invalid[:g.n])
	for s := range g.n {
		p := &g.players[s]
		*p = Player{Name: g.names[s], URL: g.urls[s], InPlay: true}
		if g.cfg.StartPositions != nil {
			c := g.cfg.StartPositions[s]
			p.X, p.Y, p.Z = c[0], c[1], c[2]
			continue
		}
		for {
			p.X, p.Y, p.Z = g.randCoord(), g.randCoord(), g.randCoord()
			if !g.cfg.DistinctStarts || !g.startTaken(s) {
				break
			}
		}
	}
	g.nEvents = 0
	g.snapTick = 0
	clear(g.hist)
	g.record(event{kind: evGameStarted})
}

// randCoord draws one coordinate uniformly from 0..edge-1, as the
// original's getRandomInt(edgeLength-1) does with Math.random.
func (g *Game) randCoord() int {
	return int(g.rng.Uint64() % uint64(g.edge)) // edge ≤ 32: the bias is below 2^-58
}

// startTaken reports whether a seat before s starts on s's cell.
func (g *Game) startTaken(s int) bool {
	p := &g.players[s]
	for o := range s {
		q := &g.players[o]
		if q.X == p.X && q.Y == p.Y && q.Z == p.Z {
			return true
		}
	}
	return false
}

// Done reports whether the game is over (GAME_ENDED was emitted).
func (g *Game) Done() bool { return g.done }

// Steps returns currentTick: the number of ticks processed.
func (g *Game) Steps() int { return g.tick }

// Tick returns currentTick, the tick about to be processed.
func (g *Game) Tick() int { return g.tick }

// SubTick returns the sub-tick (1..TasksPerTick) of the tick about to be
// processed: bots are asked when it is 1, and carry out task SubTick-1 of
// their reply.
func (g *Game) SubTick() int { return g.tick%g.tasks + 1 }

// Edge returns the cube's edge length.
func (g *Game) Edge() int { return g.edge }

// TasksPerTick returns numOfTasksPerTick.
func (g *Game) TasksPerTick() int { return g.tasks }

// MaxTicks returns maxNumOfTicks.
func (g *Game) MaxTicks() int { return g.maxTicks }

// ID returns the game id (gameInfo.id).
func (g *Game) ID() string { return g.id }

// Players returns the number of seats.
func (g *Game) Players() int { return g.n }

// Player returns a copy of seat's player. It panics if seat is out of range.
func (g *Game) Player(seat int) Player {
	if seat < 0 || seat >= g.n {
		panic("battlecube: Player: seat out of range")
	}
	return g.players[seat]
}

// InPlay returns the number of bots still in play (numOfBotsInPlay).
func (g *Game) InPlay() int {
	k := 0
	for s := range g.n {
		if g.players[s].InPlay {
			k++
		}
	}
	return k
}

// AppendItems appends the bombs the next tick shows (see [Game.Items]) to
// dst. The bomb without coordinates of [BombNowhere], on no cell, is left
// out.
func (g *Game) AppendItems(dst []Item) []Item {
	for _, it := range g.items {
		if !g.exploded(it) && it != nowhere {
			dst = append(dst, it)
		}
	}
	return dst
}

// EachItem calls f for every bomb the next tick shows, in placement order,
// but the bomb without coordinates of [BombNowhere]. It does not allocate.
func (g *Game) EachItem(f func(Item)) {
	for _, it := range g.items {
		if !g.exploded(it) && it != nowhere {
			f(it)
		}
	}
}

// HasBomb reports whether a bomb that the next tick shows lies on (x, y, z).
func (g *Game) HasBomb(x, y, z int) bool {
	if g.inCube(x, y, z) {
		return g.bombIn(g.index(x, y, z))
	}
	for _, it := range g.items {
		if int(it.X) == x && int(it.Y) == y && int(it.Z) == z {
			return !g.exploded(it)
		}
	}
	return false
}

// exploded reports whether it is on the cell of a last-tick collision with
// a bomb (it goes at the start of the next tick). A finished game keeps
// every bomb, as the original's last state does.
func (g *Game) exploded(it Item) bool {
	return !g.done && g.explodedIn(it)
}

// bombIn reports whether cube cell i holds a bomb that is not used up.
func (g *Game) bombIn(i int) bool { return g.bombByte(i) != 0 }

// bombByte returns the bombs plane's byte of cube cell i: 1 when it holds
// a bomb that is not used up, else 0.
func (g *Game) bombByte(i int) uint8 { return uint8(g.bombBits[uint(i)/64] >> (uint(i) % 64) & 1) }

// setBombIn puts a bomb on cube cell i (on) or takes it off.
func (g *Game) setBombIn(i int, on bool) {
	if on {
		g.bombBits[uint(i)/64] |= 1 << (uint(i) % 64)
	} else {
		g.bombBits[uint(i)/64] &^= 1 << (uint(i) % 64)
	}
}

// writeBombs writes the bombs plane into dst (one byte per cell): 1 on
// the cells holding a bomb that is not used up, 0 on the rest.
func (g *Game) writeBombs(dst []byte) {
	dst = dst[:g.cells]
	for k, w := range g.bombBits {
		for j, c := 0, 64*k; j < 64 && c < len(dst); j, c = j+1, c+1 {
			dst[c] = uint8(w >> j & 1)
		}
	}
}

// inCube reports whether (x, y, z) lies in the cube.
func (g *Game) inCube(x, y, z int) bool {
	e := g.edge
	return x >= 0 && y >= 0 && z >= 0 && x < e && y < e && z < e
}

// index returns the cell index (z*E + y)*E + x; the caller ensures inCube.
func (g *Game) index(x, y, z int) int { return (z*g.edge+y)*g.edge + x }

// Invalid returns how many out-of-range actions seat sent since the last
// Reset: rejected replies and the accepted tasks beyond the action space
// ([CrashMove], [BombNowhere], [Idle], [StrayMove]).
func (g *Game) Invalid(seat int) int { return g.invalid[seat] }

// record appends e to the tick's events.
func (g *Game) record(e event) {
	if g.nEvents < len(g.events) {
		g.events[g.nEvents] = e
		g.nEvents++
	}
}
