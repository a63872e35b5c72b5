package battlecube

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Stalker's opponent models: how it predicts where a bot will be.
const (
	modelTeebot = iota // the bot plays as teebot would (moves first, then bombs)
	modelStay          // the bot stays where it is
	numModels
)

// stalkerKill is the predicted chance of a hit above which Stalker bombs
// rather than moves.
const stalkerKill = 0.5

// Stalker is a hunting Battle³ bot. It plans each cycle at its first tick,
// as an original bot is asked once per cycle (numOfTasksPerTick tasks), and
// fills every task:
//
//   - It predicts every other bot in play with two models, scored on what
//     the bots did so far: "teebot" (runs teebot's own planner for the bot,
//     both its explode and its implode choice, which gives the bot's cells
//     for each tick of the cycle and every cell it may bomb) and "stay"
//     (the bot keeps its cell; the hit chance is the share of ticks it
//     stayed).
//   - Per task, it bombs the predicted cell of the bot most likely hit when
//     that chance is at least one half and its own cell is safe for that
//     tick; otherwise it moves.
//   - A move goes to a neighbour in the cube with no bomb, outside every
//     cell a bot may bomb in this cycle and every cell a bot may occupy at
//     that tick, preferring open cells a few steps from the nearest bot
//     (seeded tie-breaks). It stays put only when no such move exists and
//     its cell is safe.
//
// Deterministic given the seed of Reset. Not safe for concurrent use; Act
// does not allocate after the first cycle of a cube size.
type Stalker struct {
	pcg  rand.PCG
	rng  *rand.Rand
	plan cyclePlan

	model *Teebot // teebot's planner, run for the other bots

	edge  int
	bomb  []uint8 // bombs known or planned in this cycle, per cell
	risky []uint8 // cells a bot may bomb in this cycle

	// Per seat: where the models put the bot after each task of the
	// cycle, scores of the models, the ticks seen and stayed.
	pred    [MaxPlayers][numModels][MaxTasksPerTick][3]int
	score   [MaxPlayers][numModels]int
	seen    [MaxPlayers]int
	stayed  [MaxPlayers]int
	last    [MaxPlayers][3]int
	lastIn  [MaxPlayers]bool
	cycle   int // first tick of the planned cycle, −1 before any
	prevTck int
	// killed marks bots the plan hits in this cycle.
	killed [MaxPlayers]bool

	taskCounts
}

// NewStalker returns a stalker, seeded with 0 until Reset.
func NewStalker() *Stalker {
	s := &Stalker{model: NewTeebot(DefaultTeebotParams())}
	s.rng = rand.New(&s.pcg)
	return s
}

// Reset seeds the tie-breaks, forgets the opponents and sizes the working
// memory for e's cube. It panics if e is not a battlecube game.
func (s *Stalker) Reset(e env.Env, seat int, seed uint64) {
	g := asBattlecube(e)
	s.pcg.Seed(seed, 0x57a1c3)
	s.plan = cyclePlan{}
	s.model.Reset(e, seat, seed)
	cells := g.Edge() * g.Edge() * g.Edge()
	if len(s.bomb) != cells {
		s.bomb = make([]uint8, cells)
		s.risky = make([]uint8, cells)
	}
	s.edge = g.Edge()
	s.score = [MaxPlayers][numModels]int{}
	s.seen, s.stayed = [MaxPlayers]int{}, [MaxPlayers]int{}
	s.lastIn = [MaxPlayers]bool{}
	s.cycle, s.prevTck = -1, -1
	s.taskCounts = taskCounts{}
}

// Act returns the stalker's task for the coming tick.
func (s *Stalker) Act(e env.Env, seat int) int32 {
	g := asBattlecube(e)
	s.observe(g, seat)
	a := s.plan.next(g, func() { s.think(g, seat) })
	if g.Player(seat).InPlay {
		s.count(a)
	}
	return a
}

// observe scores the models on where the other bots went in the last tick.
func (s *Stalker) observe(g *Game, seat int) {
	t := g.Tick()
	if t == s.prevTck {
		return
	}
	k := t - 1 - s.cycle // index of the last tick in the planned cycle
	for o := range g.Players() {
		p := g.Player(o)
		if o == seat || !p.InPlay {
			s.lastIn[o] = false
			continue
		}
		pos := [3]int{p.X, p.Y, p.Z}
		if s.lastIn[o] && t == s.prevTck+1 {
			s.seen[o]++
			if pos == s.last[o] {
				s.stayed[o]++
			}
			if s.cycle >= 0 && k >= 0 && k < g.TasksPerTick() {
				for m := range numModels {
					if s.pred[o][m][k] == pos {
						s.score[o][m]++
					}
				}
			}
		}
		s.last[o], s.lastIn[o] = pos, true
	}
	s.prevTck = t
}

func (s *Stalker) idx(c [3]int) int { return (c[2]*s.edge+c[1])*s.edge + c[0] }

func (s *Stalker) in(c [3]int) bool {
	e := s.edge
	return c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[0] < e && c[1] < e && c[2] < e
}

// best returns the model that predicts bot o best so far (teebot on ties)
// and the chance of a hit on its predicted cell.
func (s *Stalker) best(o int) (int, float64) {
	tb, st := s.score[o][modelTeebot], s.score[o][modelStay]
	n := s.seen[o]
	if tb >= st {
		// Trusted until it misses more than it hits.
		return modelTeebot, float64(tb+1) / float64(n+1)
	}
	return modelStay, float64(s.stayed[o]+1) / float64(n+2)
}

func (s *Stalker) think(g *Game, seat int) {
	me := g.Player(seat)
	if !me.InPlay {
		return
	}
	T := g.TasksPerTick()
	s.cycle = g.Tick()
	for i := range s.bomb {
		s.bomb[i] = 0
		s.risky[i] = 0
	}
	g.EachItem(func(it Item) {
		c := [3]int{int(it.X), int(it.Y), int(it.Z)}
		if s.in(c) {
			s.bomb[s.idx(c)] = 1
		}
	})
	for o := range g.Players() {
		s.killed[o] = false
		if o == seat || !g.Player(o).InPlay {
			continue
		}
		s.predict(g, o)
	}
	pos := [3]int{me.X, me.Y, me.Z}
	for k := range T {
		a, next := s.task(g, seat, pos, k)
		s.plan.tasks[k] = a
		s.plan.n++
		pos = next
	}
}

// predict fills the models' cells of bot o for each task of the cycle and
// marks every cell teebot's planner may bomb for o as risky.
func (s *Stalker) predict(g *Game, o int) {
	p := g.Player(o)
	start := [3]int{p.X, p.Y, p.Z}
	T := g.TasksPerTick()
	for k := range T {
		s.pred[o][modelStay][k] = start
	}
	m := s.model
	for _, ratio := range [2]float64{1, 0} {
		m.P.ExplodeImplodeRatio = ratio
		m.plan = cyclePlan{}
		m.think(g, o)
		pos := start
		for k := range T {
			if m.plan.reject == 0 && k < m.plan.n {
				a := m.plan.tasks[k]
				switch {
				case a > Noop && a < NumFixedActions:
					d := moveDelta[a]
					pos = [3]int{pos[0] + d[0], pos[1] + d[1], pos[2] + d[2]}
				case a >= NumFixedActions:
					if x, y, z, ok := BombCell(s.edge, a); ok {
						s.risky[s.idx([3]int{x, y, z})] = 1
					}
				}
			}
			s.pred[o][modelTeebot][k] = pos
		}
	}
	m.P.ExplodeImplodeRatio = DefaultTeebotParams().ExplodeImplodeRatio
}

// task chooses the k-th task of the cycle from pos and returns it with the
// cell it leaves the stalker on.
func (s *Stalker) task(g *Game, seat int, pos [3]int, k int) (Action, [3]int) {
	here := s.idx(pos)
	hereSafe := s.risky[here] == 0 && !s.mayOccupy(g, seat, pos, k)
	// The best hit.
	target, chance := -1, 0.0
	var cell [3]int
	for o := range g.Players() {
		if o == seat || !g.Player(o).InPlay || s.killed[o] {
			continue
		}
		m, c := s.best(o)
		at := s.pred[o][m][k]
		if !s.in(at) || at == pos || s.bomb[s.idx(at)] != 0 {
			continue
		}
		if c > chance {
			target, chance, cell = o, c, at
		}
	}
	if target >= 0 && chance >= stalkerKill && hereSafe {
		s.killed[target] = true
		s.bomb[s.idx(cell)] = 1
		return BombAction(s.edge, cell[0], cell[1], cell[2]), pos
	}
	// The best move.
	bestMove, bestScore := Noop, -1e9
	for a := MovePlusX; a <= MoveMinusZ; a++ {
		d := moveDelta[a]
		c := [3]int{pos[0] + d[0], pos[1] + d[1], pos[2] + d[2]}
		if !s.in(c) || s.bomb[s.idx(c)] != 0 || s.risky[s.idx(c)] != 0 || s.mayOccupy(g, seat, c, k) {
			continue
		}
		if v := s.cellValue(g, seat, c, k) + s.rng.Float64()*0.5; v > bestScore {
			bestMove, bestScore = a, v
		}
	}
	if bestMove != Noop {
		d := moveDelta[bestMove]
		return bestMove, [3]int{pos[0] + d[0], pos[1] + d[1], pos[2] + d[2]}
	}
	if target >= 0 && hereSafe {
		s.killed[target] = true
		s.bomb[s.idx(cell)] = 1
		return BombAction(s.edge, cell[0], cell[1], cell[2]), pos
	}
	return Noop, pos
}

// mayOccupy reports whether another bot may be on c after the k-th task:
// its predicted cell, the cell it holds before that task, and, for a bot
// that does not follow teebot's plan, the neighbours of that cell.
func (s *Stalker) mayOccupy(g *Game, seat int, c [3]int, k int) bool {
	for o := range g.Players() {
		if o == seat || !g.Player(o).InPlay {
			continue
		}
		m, _ := s.best(o)
		prev := [3]int{g.Player(o).X, g.Player(o).Y, g.Player(o).Z}
		if k > 0 {
			prev = s.pred[o][m][k-1]
		}
		if c == s.pred[o][m][k] || c == prev {
			return true
		}
		if m != modelTeebot || s.score[o][modelTeebot] < s.seen[o] {
			if abs(c[0]-prev[0])+abs(c[1]-prev[1])+abs(c[2]-prev[2]) <= 1 {
				return true
			}
		}
	}
	return false
}

// cellValue scores a cell to move to: free neighbours (room to dodge),
// then being two to four steps from the nearest bot.
func (s *Stalker) cellValue(g *Game, seat int, c [3]int, k int) float64 {
	free := 0
	for a := MovePlusX; a <= MoveMinusZ; a++ {
		d := moveDelta[a]
		n := [3]int{c[0] + d[0], c[1] + d[1], c[2] + d[2]}
		if s.in(n) && s.bomb[s.idx(n)] == 0 && s.risky[s.idx(n)] == 0 {
			free++
		}
	}
	near := 1 << 30
	for o := range g.Players() {
		if o == seat || !g.Player(o).InPlay {
			continue
		}
		m, _ := s.best(o)
		p := s.pred[o][m][k]
		near = min(near, abs(c[0]-p[0])+abs(c[1]-p[1])+abs(c[2]-p[2]))
	}
	v := 10 * float64(free)
	switch {
	case near < 2:
		v -= 8
	case near > 4 && near < 1<<30:
		v -= float64(near - 4)
	}
	return v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
