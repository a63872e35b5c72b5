package bomberman

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newHunterAgent is the factory of the "hunter" agent.
var newHunterAgent = env.GameAgent("bomberman", "hunter", func() env.Agent { return NewHunter() })

// hunterHorizon bounds the rounds Hunter simulates ahead: the longest fuse
// is 10 (spec §5.3), plus the round a new bomb waits before its first
// decrement, with room to spare for loaded states.
const hunterHorizon = 24

// hunterNever is a round beyond the horizon ("not in this simulation").
const hunterNever = hunterHorizon + 2

// hunterSlots is the bombs a simulation holds: the map's, and one
// hypothetical plant per player (the bot's own; a wary safe mask's
// opponents').
const hunterSlots = MaxBombs + MaxPlayers

// Hunter is a built-in Bomberman bot that plays the game's objective, not a
// port of an original bot:
//
//   - Every Act it simulates the bombs on the map forward round by round as
//     the engine processes them (spec §4.2–4.3): timers, chain reactions
//     (a blast that reaches a bomb detonates it and stops), rays that stop
//     at walls and pass over players, walls removed at the end of the round
//     that blasted them, bombs leaving the map as they explode. The result
//     is, per cell, the rounds in which a blast reaches it.
//   - Opponents may trigger (spec §5.4): another player's bomb, and every
//     bomb its blast reaches in turn, is treated as exploding in any round
//     from the second ahead until its own explosion round, since a
//     trigger now makes it explode in the second. When no plan survives
//     that, the bot assumes the trigger comes in the earliest later round
//     that leaves one, so it leaves the blast lines as soon as it can.
//   - Opponents may step into its way: it plants only with an escape that
//     avoids the cells within two steps of an opponent in every round,
//     and plans its moves that way too when it can.
//   - A cell is survivable after the commands of round k when no blast
//     reaches it in round k (the second kill pass) nor in round k+1 (the
//     first kill pass, before commands). A backward pass over rounds gives
//     the cells from which some sequence of moves and waits survives every
//     blast of the simulation; the bot only takes actions that land in such
//     a state, and only plants or triggers when the simulation with that
//     bomb (or trigger) still leaves it one.
//   - Targets: visible power-ups, cells where a bomb would destroy walls
//     no planted bomb will, and cells in line with an opponent; each is
//     scored by its value over the rounds needed to get there on the
//     survivable graph. It plants at once when a bomb there (triggered next
//     round) would leave an opponent no survivable move, and triggers its
//     bomb once that is safe for it.
//   - It never idles long enough for the harness's 20-do-nothing rule.
//
// Ties between equally good targets are broken by the agent's PCG
// generator, seeded in Reset, so a game is deterministic given the env
// state and the seed. Hunter reads the state read-only through the game's
// own types. Its working memory is fixed-size arrays, so Act does not
// allocate. It is not safe for concurrent use; use one per seat.
type Hunter struct {
	pcg rand.PCG
	rng *rand.Rand

	w, h, n int
	seat    int

	wall [maxCells]uint8 // 0 none, 1 indestructible, 2 destructible

	// The bombs of the simulation: the map's, then hypothetical ones (the
	// bot's own plant; a wary safe mask's opponents' plants).
	bx, by, br, bt, bo [hunterSlots]int
	nb                 int
	nMap               int              // the map's bombs come first
	btMap              [hunterSlots]int // their timers
	trigFrom           int              // first round an opponent's trigger blasts (see simulate); 0: none
	trigAt             [hunterSlots]int // per bomb: first round a trigger of it blasts (trigFrom, or later for a plant)

	// Simulation output.
	blast      [maxCells]uint32 // bit k: a blast reaches the cell in round k
	wallUntil  [maxCells]uint8  // last round whose commands see the wall
	bombUntil  [maxCells]uint8  // last round whose commands see a bomb
	last       int              // last round with an explosion (0: none)
	bombAt     [maxCells]uint8  // slot+1 of the live simulated bomb
	timer      [hunterSlots]int
	explodedIn [hunterSlots]int
	cells      [hunterSlots][4*MaxSide + 1]int16
	nCells     [hunterSlots]int
	destroyed  [maxCells]int16
	nDestroyed int
	slotAt     [maxCells]uint8  // slot+1 of the bomb planted on the cell
	reached    [hunterSlots]int // epoch in which trigger reached the bomb
	stack      [hunterSlots]int // bombs to visit in trigger
	epoch      int

	// safe[k][c]: at cell c after round k's commands, some plan survives.
	safe [hunterNever + 1][maxCells]bool

	// Search state.
	seen     [maxCells]bool
	first    [maxCells]Action // first action towards a seen cell
	fcur     [maxCells]Action // first action of a frontier state
	fnext    [maxCells]Action
	dist     [maxCells]int16
	frontier [maxCells]int16
	next     [maxCells]int16
	inNext   [maxCells]bool
	occupied [maxCells]bool
	near     [maxCells]bool // within nearR steps of an opponent
	blockAll bool           // near blocks moves in every round, not occupied in rounds 1–2

	// lineValue is what a bomb spot earns for each opponent in its reach
	// (spotValue): hunterLineValue for hunter, 0 for [Harvester].
	lineValue int

	// spot is spotValue of every cell for the current simulation (spots),
	// and reachTo the sweeps' scratch: per cell, the distance to the first
	// cell that stops a ray in the sweep's direction, and that cell's wall
	// value.
	spot             [maxCells]int32
	reachTo, wallVal [maxCells]int16

	// nbr are each cell's neighbours in hunterMoves order (-1: off the
	// map), for a w×h map.
	nbr [maxCells][4]int16
}

// hunterLineValue is hunter's value of an opponent in a bomb's reach: more
// than two walls, so it closes in on opponents once walls are scarce.
const hunterLineValue = 25

// NewHunter returns a hunter bot, seeded with 0 until Reset.
func NewHunter() *Hunter {
	h := &Hunter{lineValue: hunterLineValue}
	h.rng = rand.New(&h.pcg)
	return h
}

// hunterStream is the PCG stream constant of Hunter.
const hunterStream = 0x4b0b5

// Reset seeds the generator with seed. It panics if e is not a Bomberman
// game.
func (h *Hunter) Reset(e env.Env, seat int, seed uint64) {
	asBomberman(e)
	h.pcg.Seed(seed, hunterStream)
}

// Act returns the hunter's move.txt code for seat (0–6). It panics if e is
// not a Bomberman game.
func (h *Hunter) Act(e env.Env, seat int) int32 {
	return int32(h.act(asBomberman(e), seat))
}

// offsets are the moves in action order: up, left, right, down.
var hunterMoves = [4]struct {
	a      Action
	dx, dy int
}{{MoveUp, 0, -1}, {MoveLeft, -1, 0}, {MoveRight, 1, 0}, {MoveDown, 0, 1}}

func (h *Hunter) idx(x, y int) int    { return (y-1)*h.w + (x - 1) }
func (h *Hunter) xy(i int) (x, y int) { return i%h.w + 1, i/h.w + 1 }
func (h *Hunter) on(x, y int) bool    { return x >= 1 && y >= 1 && x <= h.w && y <= h.h }
func (h *Hunter) alive(k, c int) bool { return h.blast[c]&(1<<k|1<<(k+1)) == 0 }
func (h *Hunter) open(c, k int) bool {
	return h.wall[c] == 0 || int(h.wallUntil[c]) < k && h.wall[c] == 2
}
func (h *Hunter) passable(c, k int) bool { return h.open(c, k) && int(h.bombUntil[c]) < k }

func (h *Hunter) act(g *Game, seat int) Action {
	p := g.Player(seat)
	if p.Killed {
		return DoNothing
	}
	h.seat = seat
	h.see(g)
	me := h.idx(p.X, p.Y)
	onMap, lowest := 0, -1
	for b := range h.nMap {
		if h.bo[b] == seat {
			onMap++
			if lowest < 0 || h.bt[b] < h.bt[lowest] {
				lowest = b
			}
		}
	}
	canPlant := onMap < p.BombBag && !h.bombAt0(me)
	fuse := min(9, 3*p.BombBag) + 1

	// Trap: a bomb here, triggered next round, leaves an opponent nowhere.
	if canPlant && onMap == 0 && h.trap(p, me, fuse) {
		return PlaceBomb
	}

	// Trigger our next bomb once that is safe: it frees the bag sooner.
	if lowest >= 0 && h.btMap[lowest] >= 3 {
		h.reset(triggerNext)
		h.bt[lowest] = 2 // set to 1 in round 1's commands, explodes in round 2
		if h.simulate(); h.safe[1][me] {
			return TriggerBomb
		}
	}

	best, a := h.plan(g, p, me, canPlant, true)
	if best == me && canPlant && h.spotValue(me, p.BombRadius) > 0 {
		if h.plantSafe(me, p.BombRadius, fuse+1, triggerNext, true) {
			return PlaceBomb
		}
		_, a = h.plan(g, p, me, canPlant, false)
	}
	if a == DoNothing && p.Idle >= 12 {
		return h.notIdle(me)
	}
	return a
}

// plan returns bestMove's target and first action under the most
// cautious model that leaves a plan: opponents' bombs triggered from round
// 2 (a trigger now), else from the earliest later round some plan
// survives, so that the bot leaves their blast lines as soon as it can,
// else with the fuses as they stand. For each trigger round it first
// tries with the cells near opponents blocked in every round (blockAll).
func (h *Hunter) plan(g *Game, p Player, me int, canPlant, withMe bool) (best int, a Action) {
	for i := 0; i < 2*(hunterHorizon-1); i++ {
		from := triggerNext + i/2
		h.reset(from)
		h.blockAll = i%2 == 0
		h.simulate()
		var ok bool
		if best, a, ok = h.bestMove(g, p, me, canPlant, withMe); ok {
			return best, a
		}
	}
	h.reset(0)
	h.simulate()
	best, a, _ = h.bestMove(g, p, me, canPlant, withMe)
	return best, a
}

// notIdle keeps clear of the harness's 20-do-nothing rule (spec §7.3): any
// command but Do Nothing resets its count, so it takes a safe move, or
// else bumps into a wall or a bomb, which the engine rejects and which
// leaves the player where it is.
func (h *Hunter) notIdle(me int) Action {
	x, y := h.xy(me)
	bump := DoNothing
	for _, m := range hunterMoves {
		nx, ny := x+m.dx, y+m.dy
		if !h.on(nx, ny) {
			continue
		}
		c := h.idx(nx, ny)
		if h.passable(c, 1) && !h.occupied[c] && h.safe[1][c] {
			return m.a
		}
		if bump == DoNothing && (h.wall[c] != 0 || h.bombAt[c] != 0) {
			bump = m.a
		}
	}
	return bump
}

// bombAt0 reports whether a bomb of the map lies on cell c.
func (h *Hunter) bombAt0(c int) bool {
	x, y := h.xy(c)
	for b := range h.nMap {
		if h.bx[b] == x && h.by[b] == y {
			return true
		}
	}
	return false
}

// see reads the map: walls, other players and the bombs in row-major order.
func (h *Hunter) see(g *Game) {
	if h.w != g.width || h.h != g.height {
		h.w, h.h = g.width, g.height
		h.n = h.w * h.h
		for c := range h.n {
			x, y := h.xy(c)
			for j, m := range hunterMoves {
				h.nbr[c][j] = -1
				if nx, ny := x+m.dx, y+m.dy; h.on(nx, ny) {
					h.nbr[c][j] = int16(h.idx(nx, ny))
				}
			}
		}
	}
	h.nMap = 0
	for i := range h.n {
		c := &g.cells[i]
		switch c.Entity {
		case IndestructibleWall:
			h.wall[i] = 1
		case DestructibleWall:
			h.wall[i] = 2
		default:
			h.wall[i] = 0
		}
		h.occupied[i] = c.Entity == PlayerEntity && int(c.Player) != h.seat
		h.near[i] = false
		if c.bomb != 0 && h.nMap < MaxBombs {
			b := g.bombs[c.bomb-1]
			k := h.nMap
			h.bx[k], h.by[k], h.br[k], h.btMap[k], h.bo[k] = b.X, b.Y, b.Radius, b.Timer, b.Owner
			h.nMap++
		}
	}
	for i := range h.n {
		if !h.occupied[i] {
			continue
		}
		x, y := h.xy(i)
		for dy := -nearR; dy <= nearR; dy++ {
			for dx := -nearR; dx <= nearR; dx++ {
				if nx, ny := x+dx, y+dy; abs(dx)+abs(dy) <= nearR && h.on(nx, ny) {
					h.near[h.idx(nx, ny)] = true
				}
			}
		}
	}
}

// triggerNext is the first round a trigger pulled now blasts: the fuse
// drops to 1 in this round's commands and the bomb explodes before the
// next round's (spec §4.2).
const triggerNext = 2

// nearR is how far from an opponent (steps, walls ignored) a cell counts
// as one the opponent can take before the bot passes: two, the opponent's
// move this round and the next. Tuned on seeds 1–600 against reference.
const nearR = 2

// reset restores the simulation's bombs to the map's; opponents' chains
// may blast from round trigFrom on (0: only at their own fuses).
func (h *Hunter) reset(trigFrom int) {
	h.nb = h.nMap
	copy(h.bt[:h.nMap], h.btMap[:h.nMap])
	h.trigFrom = trigFrom
	for b := range h.nMap {
		h.trigAt[b] = trigFrom
	}
	h.blockAll = false
}

// plantSafe reports whether a bomb of radius with sim timer t at c (ours)
// still leaves us, standing on it this round, a survivable plan, with
// opponents' triggers from round trigFrom (see reset) and, with blockAll,
// no step into a cell near an opponent.
func (h *Hunter) plantSafe(c, radius, t, trigFrom int, blockAll bool) bool {
	h.reset(trigFrom)
	h.blockAll = blockAll
	h.addPlant(c, radius, t, h.seat, 0)
	h.simulate()
	return h.safe[1][c]
}

// trap reports whether a bomb planted on me now and triggered next round
// leaves some opponent no survivable move while we escape, whether or not
// the trigger comes.
func (h *Hunter) trap(p Player, me, fuse int) bool {
	x, y := h.xy(me)
	near := false
	for c := range h.n {
		if h.occupied[c] {
			ox, oy := h.xy(c)
			near = near || abs(ox-x)+abs(oy-y) <= p.BombRadius+3
		}
	}
	if !near || !h.plantSafe(me, p.BombRadius, fuse+1, triggerNext, false) {
		return false
	}
	if !h.plantSafe(me, p.BombRadius, 3, 0, false) {
		return false
	}
	for c := range h.n {
		if !h.occupied[c] {
			continue
		}
		ox, oy := h.xy(c)
		if abs(ox-x)+abs(oy-y) > p.BombRadius+3 {
			continue
		}
		escape := h.safe[1][c]
		for _, m := range hunterMoves {
			nx, ny := ox+m.dx, oy+m.dy
			if escape || !h.on(nx, ny) {
				continue
			}
			t := h.idx(nx, ny)
			escape = t != me && !h.occupied[t] && h.passable(t, 1) && h.safe[1][t]
		}
		if !escape {
			return true
		}
	}
	return false
}

// simulate runs the bombs h.bx… forward (spec §4.2 steps 2–3 and 8, §4.3)
// and fills blast, wallUntil, bombUntil and the survivable table safe.
func (h *Hunter) simulate() {
	n := h.n
	clear(h.blast[:n])
	for i := range n {
		h.wallUntil[i] = hunterNever
		h.bombUntil[i] = 0
		h.bombAt[i] = 0
	}
	for b := range h.nb {
		h.timer[b] = h.bt[b]
		h.explodedIn[b] = 0
		h.nCells[b] = 0
		i := h.idx(h.bx[b], h.by[b])
		h.bombAt[i] = uint8(b + 1)
		h.bombUntil[i] = hunterNever
	}
	h.last = 0
	live := h.nb
	for k := 1; k <= hunterHorizon && live > 0; k++ {
		for b := range h.nb {
			if h.explodedIn[b] == 0 {
				h.timer[b]--
			}
		}
		h.nDestroyed = 0
		for b := range h.nb {
			if h.explodedIn[b] == 0 && h.timer[b] < 1 {
				h.detonate(b, k)
			}
		}
		for _, c := range h.destroyed[:h.nDestroyed] {
			if h.wallUntil[c] == hunterNever {
				h.wallUntil[c] = uint8(k)
			}
		}
		for b := range h.nb {
			if h.explodedIn[b] == k {
				i := h.idx(h.bx[b], h.by[b])
				h.bombAt[i] = 0
				h.bombUntil[i] = uint8(k)
				live--
				h.last = k
			}
		}
	}
	// Opponents may trigger: another player's bomb can go off from round
	// trigFrom on, with every bomb its blast reaches.
	if h.trigFrom > 0 {
		for b := range h.nb {
			h.slotAt[h.idx(h.bx[b], h.by[b])] = uint8(b + 1)
		}
		for b := range h.nb {
			if h.bo[b] != h.seat && h.explodedIn[b] != 0 {
				h.trigger(b)
			}
		}
		for b := range h.nb {
			h.slotAt[h.idx(h.bx[b], h.by[b])] = 0
		}
	}
	// Survivable states, backwards from the round after the last blast.
	K := h.last + 1
	for c := range n {
		h.safe[K][c] = h.wall[c] != 1
	}
	for k := K - 1; k >= 1; k-- {
		for c := range n {
			if h.wall[c] == 1 || !h.alive(k, c) {
				h.safe[k][c] = false
				continue
			}
			ok := h.safe[k+1][c]
			for _, t16 := range h.nbr[c] {
				if ok {
					break
				}
				if t := int(t16); t >= 0 {
					// Other players may still stand in the way for a round.
					ok = h.passable(t, k+1) && !(k+1 <= 2 && h.occupied[t] || h.blockAll && h.near[t]) && h.safe[k+1][t]
				}
			}
			h.safe[k][c] = ok
		}
	}
	for k := K + 1; k <= hunterNever; k++ {
		// Rounds past the simulation read as the first quiet one.
		copy(h.safe[k][:n], h.safe[K][:n])
	}
}

// trigger marks the rounds in which a trigger of bomb b, pulled from now
// until its own explosion, blasts a cell: from b's trigAt on, b and every
// bomb its blast reaches, transitively, each until it would have exploded
// anyway. The blast of each is the one the simulation gave it.
func (h *Hunter) trigger(b int) {
	h.epoch++
	kb := h.explodedIn[b]
	h.reached[b] = h.epoch
	h.stack[0] = b
	for n := 1; n > 0; {
		n--
		o := h.stack[n]
		var mask uint32
		for j := min(h.trigAt[b], kb); j <= min(kb, h.explodedIn[o]); j++ {
			mask |= 1 << j
		}
		for _, c := range h.cells[o][:h.nCells[o]] {
			h.blast[c] |= mask
			if r := int(h.slotAt[c]) - 1; r >= 0 && h.reached[r] != h.epoch && h.explodedIn[r] != 0 {
				h.reached[r] = h.epoch
				h.stack[n] = r
				n++
			}
		}
	}
}

// detonate explodes simulated bomb b in round k, and every bomb its blast
// reaches (spec §4.3).
func (h *Hunter) detonate(b, k int) {
	h.explodedIn[b] = k
	for d := range 4 {
		dx, dy := [4]int{1, -1, 0, 0}[d], [4]int{0, 0, 1, -1}[d]
		for i := 0; i <= h.br[b]; i++ {
			x, y := h.bx[b]+dx*i, h.by[b]+dy*i
			if !h.on(x, y) {
				break
			}
			c := h.idx(x, y)
			if h.wall[c] == 1 {
				break
			}
			if h.wall[c] == 2 && int(h.wallUntil[c]) >= k {
				h.mark(b, c, k)
				h.destroyed[h.nDestroyed] = int16(c)
				h.nDestroyed++
				break
			}
			h.mark(b, c, k)
			if o := int(h.bombAt[c]) - 1; o >= 0 && o != b {
				if h.explodedIn[o] == 0 {
					h.detonate(o, k)
				}
				break
			}
		}
	}
}

func (h *Hunter) mark(b, c, k int) {
	h.blast[c] |= 1 << k
	if h.nCells[b] < len(h.cells[b]) {
		h.cells[b][h.nCells[b]] = int16(c)
		h.nCells[b]++
	}
}

// spotValue is what a bomb of radius on c would earn on the current map:
// 10 a wall no simulated bomb destroys, and lineValue (a share of the
// bounty) for each opponent in reach.
func (h *Hunter) spotValue(c, radius int) int {
	if h.bombAt[c] != 0 || h.wall[c] != 0 {
		return 0
	}
	v := 0
	x0, y0 := h.xy(c)
	for d := range 4 {
		dx, dy := [4]int{1, -1, 0, 0}[d], [4]int{0, 0, 1, -1}[d]
		for i := 1; i <= radius; i++ {
			x, y := x0+dx*i, y0+dy*i
			if !h.on(x, y) {
				break
			}
			t := h.idx(x, y)
			if h.wall[t] == 1 || h.bombAt[t] != 0 {
				break
			}
			if h.wall[t] == 2 {
				if h.wallUntil[t] == hunterNever {
					v += 10
				}
				break
			}
			if h.occupied[t] {
				v += h.lineValue
			}
		}
	}
	return v
}

// spotDirs are the ray directions of spots: the sweep over a direction
// visits a cell's neighbour that way before the cell.
var spotDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// stops reports whether a ray of spotValue stops at cell t: a wall or a
// bomb of the simulation (the ray counts a destructible wall, then stops).
func (h *Hunter) stops(t int) bool { return h.wall[t] != 0 || h.bombAt[t] != 0 }

// spots fills spot with spotValue(c, radius) for every cell c, in four
// sweeps along the rows and columns instead of a ray from every cell.
func (h *Hunter) spots(radius int) {
	n := h.n
	clear(h.spot[:n])
	for _, d := range spotDirs {
		dx, dy := d[0], d[1]
		// Visit (x+dx, y+dy) before (x, y).
		x0, x1, sx := 1, h.w+1, 1
		if dx > 0 {
			x0, x1, sx = h.w, 0, -1
		}
		y0, y1, sy := 1, h.h+1, 1
		if dy > 0 {
			y0, y1, sy = h.h, 0, -1
		}
		for y := y0; y != y1; y += sy {
			for x := x0; x != x1; x += sx {
				c := h.idx(x, y)
				nx, ny := x+dx, y+dy
				switch {
				case !h.on(nx, ny):
					h.reachTo[c], h.wallVal[c] = 1, 0
				case h.stops(h.idx(nx, ny)):
					t := h.idx(nx, ny)
					h.reachTo[c], h.wallVal[c] = 1, 0
					if h.wall[t] == 2 && h.bombAt[t] == 0 && h.wallUntil[t] == hunterNever {
						h.wallVal[c] = 10
					}
				default:
					t := h.idx(nx, ny)
					h.reachTo[c], h.wallVal[c] = h.reachTo[t]+1, h.wallVal[t]
				}
				if int(h.reachTo[c]) <= radius {
					h.spot[c] += int32(h.wallVal[c])
				}
			}
		}
		if h.lineValue == 0 {
			continue
		}
		// An opponent in reach: walk back from it while the ray from the
		// walked cell to it is clear.
		for o := range n {
			if !h.occupied[o] || h.bombAt[o] != 0 {
				continue
			}
			ox, oy := h.xy(o)
			for i := 1; i <= radius; i++ {
				x, y := ox-dx*i, oy-dy*i
				if !h.on(x, y) {
					break
				}
				if i > 1 && h.stops(h.idx(x+dx, y+dy)) {
					break
				}
				h.spot[h.idx(x, y)] += int32(h.lineValue)
			}
		}
	}
	for c := range n {
		if h.stops(c) {
			h.spot[c] = 0
		}
	}
}

// bestMove searches the survivable states from me round by round and
// returns the best target cell and the first action towards it. Targets
// are visible power-ups, bomb spots, untouched cells (coverage) and, when
// nothing else is worth a step, the cells nearest an opponent; withMe
// counts the spot value of me itself.
// ok is false when no plan survives (the action then only flees).
func (h *Hunter) bestMove(g *Game, p Player, me int, canPlant, withMe bool) (best int, a Action, ok bool) {
	n := h.n
	clear(h.seen[:n])
	K := h.last + 1
	h.frontier[0] = int16(me)
	nf := 1
	h.fcur[me] = DoNothing
	h.seen[me], h.dist[me], h.first[me] = true, 0, DoNothing
	for k := 1; nf > 0; k++ {
		kk := min(k, hunterNever)
		nn, fresh := 0, false
		for _, f := range h.frontier[:nf] {
			c := int(f)
			if k-1 > K && int(h.dist[c]) != k-1 {
				continue // static from here on: only new cells expand
			}
			x, y := h.xy(c)
			for o := -1; o < 4; o++ {
				t, a := c, DoNothing
				if o >= 0 {
					m := hunterMoves[o]
					nx, ny := x+m.dx, y+m.dy
					if !h.on(nx, ny) {
						continue
					}
					t, a = h.idx(nx, ny), m.a
					if !h.passable(t, kk) || k == 1 && h.occupied[t] {
						continue
					}
				}
				if !h.safe[kk][t] || h.inNext[t] {
					continue
				}
				h.inNext[t] = true
				fa := h.fcur[c]
				if k == 1 {
					fa = a
				}
				h.fnext[t] = fa
				h.next[nn] = int16(t)
				nn++
				if !h.seen[t] {
					h.seen[t], h.dist[t], h.first[t] = true, int16(k), fa
					fresh = true
				}
			}
		}
		for _, t := range h.next[:nn] {
			h.inNext[t] = false
			h.fcur[t] = h.fnext[t]
		}
		copy(h.frontier[:nn], h.next[:nn])
		nf = nn
		if k > K && !fresh {
			break
		}
	}
	anySafe := h.safe[1][me]
	for c := range n {
		anySafe = anySafe || h.seen[c] && c != me
	}
	if !anySafe {
		return me, h.flee(me), false
	}

	best, bestScore, ties := -1, 0.0, 0
	h.spots(p.BombRadius)
	for c := range n {
		if !h.seen[c] {
			continue
		}
		cell := &g.cells[c]
		v := 0
		if cell.Entity == NoEntity {
			switch cell.PowerUp {
			case SuperPowerUp:
				v += 400
			case BombBagPowerUp:
				v += pickInt(p.BombBag < 4, 150, 30)
			case BombRadiusPowerUp:
				v += pickInt(p.BombRadius < 8, 120, 20)
			}
		}
		if c != me || withMe && canPlant {
			v += int(h.spot[c])
		}
		if !cell.Touched(h.seat) {
			v++
		}
		if v == 0 {
			continue
		}
		score := float64(v) / float64(h.dist[c]+1)
		switch {
		case best < 0 || score > bestScore:
			best, bestScore, ties = c, score, 1
		case score == bestScore:
			if ties++; h.rng.IntN(ties) == 0 {
				best = c
			}
		}
	}
	if best < 0 {
		// Nothing to take: close in on the nearest opponent.
		bestD := 0
		for c := range n {
			if !h.seen[c] {
				continue
			}
			x, y := h.xy(c)
			for o := range n {
				if h.occupied[o] {
					ox, oy := h.xy(o)
					if d := 4*(abs(ox-x)+abs(oy-y)) + int(h.dist[c]); best < 0 || d < bestD {
						best, bestD = c, d
					}
				}
			}
		}
		if best < 0 {
			return me, DoNothing, true
		}
	}
	return best, h.first[best], true
}

// flee is the move when no plan survives: the neighbour (or me) that a
// blast reaches last.
func (h *Hunter) flee(me int) Action {
	firstBlast := func(c int) int {
		m := h.blast[c] >> 1
		k := 1
		for m != 0 && m&1 == 0 {
			m >>= 1
			k++
		}
		if m == 0 {
			return hunterNever
		}
		return k
	}
	bestA, bestK := DoNothing, firstBlast(me)
	x, y := h.xy(me)
	for _, m := range hunterMoves {
		nx, ny := x+m.dx, y+m.dy
		if !h.on(nx, ny) {
			continue
		}
		if t := h.idx(nx, ny); h.passable(t, 1) && !h.occupied[t] && firstBlast(t) > bestK {
			bestA, bestK = m.a, firstBlast(t)
		}
	}
	return bestA
}

func pickInt(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}
