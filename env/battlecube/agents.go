package battlecube

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newAgent returns the factory of the built-in agent name that make
// makes ([env.GameAgent]).
func newAgent(name string, make func() env.Agent) env.AgentFactory {
	return env.GameAgent("battlecube", name, make)
}

func asBattlecube(e env.Env) *Game {
	g, ok := any(e).(*Game)
	if !ok {
		panic(fmt.Sprintf("battlecube: the battlecube bots cannot play %T", e))
	}
	return g
}

// cyclePlan is the reply a bot gave at the start of the current cycle,
// handed out one task per tick.
type cyclePlan struct {
	tasks [MaxTasksPerTick]Action
	n     int
	// reject, when not 0, is the rejected reply of this cycle.
	reject Action
}

// next returns the task of the coming tick, planning at a cycle's start.
func (p *cyclePlan) next(g *Game, plan func()) int32 {
	sub := g.SubTick()
	if sub == 1 {
		p.n, p.reject = 0, 0
		plan()
	}
	if p.reject != 0 {
		return int32(p.reject)
	}
	if sub-1 < p.n {
		return int32(p.tasks[sub-1])
	}
	return int32(Noop)
}

// taskCounts counts the tasks a bot played while in play, for tests and
// reports.
type taskCounts struct {
	Moves, Bombs, Stays int
}

// count adds task a: NOOP a stay, a move, else a bomb.
func (c *taskCounts) count(a int32) {
	switch {
	case a == int32(Noop):
		c.Stays++
	case a < int32(NumFixedActions):
		c.Moves++
	default:
		c.Bombs++
	}
}

// Dumb is the original dumb-bot (spec §8): for each of the cycle's tasks,
// MOVE, NOOP or BOMB with equal probability; a move in a random direction
// that does not leave the cube from the bot's cell at request time; a bomb
// with each coordinate uniform in 1..edge−1 (getRandomInt's swapped
// arguments; its edge, drawn only when Math.random returns exactly 0, is
// left out). In a cube of edge 1 its move has no direction, which the
// server's move code crashes on (a connection-error loss), and its bomb
// falls outside the cube, which an action cannot express (NOOP).
//
// It draws from its own PCG generator seeded in Reset. Not safe for
// concurrent use; Act does not allocate.
type Dumb struct {
	pcg  rand.PCG
	rng  *rand.Rand
	plan cyclePlan
}

// NewDumb returns a dumb-bot, seeded with 0 until Reset.
func NewDumb() *Dumb {
	d := &Dumb{}
	d.rng = rand.New(&d.pcg)
	return d
}

// Reset seeds the generator and forgets the plan. It panics if e is not a
// battlecube game.
func (d *Dumb) Reset(e env.Env, seat int, seed uint64) {
	asBattlecube(e)
	d.pcg.Seed(seed, 0xd0b)
	d.plan = cyclePlan{}
}

// Act returns the dumb-bot's task for the coming tick.
func (d *Dumb) Act(e env.Env, seat int) int32 {
	g := asBattlecube(e)
	return d.plan.next(g, func() { d.think(g, seat) })
}

func (d *Dumb) think(g *Game, seat int) {
	p := g.Player(seat)
	if !p.InPlay {
		return
	}
	edge := g.Edge()
	for i := range g.TasksPerTick() {
		var a Action
		switch d.rng.IntN(3) {
		case 0:
			var dirs [6]Action
			n := 0
			for m := MovePlusX; m <= MoveMinusZ; m++ {
				c := [3]int{p.X, p.Y, p.Z}
				axis, plus := int(m-1)/2, (m-1)%2 == 0
				if (plus && c[axis] == edge-1) || (!plus && c[axis] == 0) {
					continue
				}
				dirs[n] = m
				n++
			}
			if n == 0 {
				d.plan.reject = RejectConnection
				return
			}
			a = dirs[d.rng.IntN(n)]
		case 1:
			a = Noop
		default:
			if edge < 2 {
				a = Noop
				break
			}
			c := func() int { return 1 + d.rng.IntN(edge-1) }
			x, y, z := c(), c(), c()
			a = BombAction(edge, x, y, z)
		}
		d.plan.tasks[i] = a
		d.plan.n++
	}
}

// TeebotParams are teebot.js's command-line parameters (spec §8).
type TeebotParams struct {
	MinMoves              int     // default 1
	MoveFraction          int     // default 2
	ImplodeRadiusFraction int     // default 2
	ExplodeImplodeRatio   float64 // default 0.8
	RandomMovement        bool
	RandomTargeting       bool
	RandomSpread          bool
	Deterministic         bool // shuffles leave the order as it is
}

// DefaultTeebotParams returns teebot.js's defaults.
func DefaultTeebotParams() TeebotParams {
	return TeebotParams{MinMoves: 1, MoveFraction: 2, ImplodeRadiusFraction: 2, ExplodeImplodeRatio: 0.8}
}

// teebotNodes bounds teebot's breadth-first searches, which keep duplicate
// queue entries as the original does and grow quickly with the number of
// tasks per tick; a search that needs more stands for the original bot
// missing the server's 5 s timeout (a connection-error loss).
const teebotNodes = 1 << 15

type tbNode struct {
	x, y, z int
	parent  int32
	dir     Action
	depth   int
	score   int64
}

// Teebot is the original teebot.js (spec §8), quirks included: a
// breadth-first flight to the first path of n = max(minMoves,
// tasks/moveFraction) moves (cut to trunc(n); the longest path found when
// none is that long), then the remaining tasks as bombs on the other bots
// in order of increasing desirability (the most boxed-in first), each by
// "explode" (its cell, then neighbours) with probability
// explodeImplodeRatio, else "implode" (a shell at breadth-first radius
// ceil(tasks/implodeRadiusFraction)). Desirability of a cell for a bot is
// the sum of squared distances to every bomb and every other bot. Its
// searches keep duplicate queue entries as the original's do, so it may
// bomb a cell twice; sorts are stable (V8's sort of 2017 was stable for up
// to 10 elements only). A reply of the wrong length loses
// ([RejectAmount]), as does the original's crash when it has
// bombs to place and nobody to target ([RejectConnection]).
//
// Math.random comes from its own PCG generator seeded in Reset. Not safe
// for concurrent use; Act does not allocate.
type Teebot struct {
	P    TeebotParams
	pcg  rand.PCG
	rng  *rand.Rand
	plan cyclePlan

	g     *Game
	me    int
	items []Item
	nodes []tbNode
	done  []uint32
	stamp uint32
	path  [MaxTasksPerTick]Action
	order [MaxPlayers]int
	tn    [MaxPlayers]int
	keys  [MaxPlayers]int64
	nbr   [6]tbNode
}

// NewTeebot returns a teebot with the given parameters, seeded with 0
// until Reset.
func NewTeebot(p TeebotParams) *Teebot {
	t := &Teebot{P: p, nodes: make([]tbNode, 0, teebotNodes)}
	t.rng = rand.New(&t.pcg)
	return t
}

// Reset seeds the generator, forgets the plan and sizes the working memory
// for e's cube. It panics if e is not a battlecube game.
func (t *Teebot) Reset(e env.Env, seat int, seed uint64) {
	g := asBattlecube(e)
	t.pcg.Seed(seed, 0x7eeb07)
	t.plan = cyclePlan{}
	cells := g.Edge() * g.Edge() * g.Edge()
	if len(t.done) != cells {
		t.done = make([]uint32, cells)
		t.items = make([]Item, 0, cells+MaxOutsideBombs)
	}
}

// Act returns teebot's task for the coming tick.
func (t *Teebot) Act(e env.Env, seat int) int32 {
	g := asBattlecube(e)
	return t.plan.next(g, func() { t.think(g, seat) })
}

func (t *Teebot) think(g *Game, seat int) {
	if !g.Player(seat).InPlay {
		return
	}
	t.g, t.me = g, seat
	t.items = g.AppendItems(t.items[:0])
	T := g.TasksPerTick()
	n := math.Max(float64(t.P.MinMoves), float64(T)/float64(t.P.MoveFraction))
	moves, ok := t.moveDistance(n)
	if !ok {
		t.plan.reject = RejectConnection
		return
	}
	for _, m := range t.path[:moves] {
		t.add(m)
	}
	k := T - moves
	targets, tok := t.pickTargets(k)
	if !tok {
		t.plan.reject = RejectConnection
		return
	}
	for i := range targets {
		o := t.order[i]
		p := g.Player(o)
		var ok bool
		if t.rng.Float64() < t.P.ExplodeImplodeRatio {
			ok = t.explode(p.X, p.Y, p.Z, t.tn[i])
		} else {
			ok = t.implode(p.X, p.Y, p.Z, t.tn[i])
		}
		if !ok {
			t.plan.reject = RejectConnection
			return
		}
	}
	if t.plan.reject == 0 && t.plan.n != T {
		t.plan.reject = RejectAmount
	}
}

// add appends a task to the reply (counting past the array as a wrong
// length).
func (t *Teebot) add(a Action) {
	if t.plan.n < len(t.plan.tasks) {
		t.plan.tasks[t.plan.n] = a
	} else {
		t.plan.reject = RejectAmount
	}
	t.plan.n++
}

func (t *Teebot) inBounds(x, y, z int) bool {
	e := t.g.Edge()
	return x >= 0 && y >= 0 && z >= 0 && x < e && y < e && z < e
}

func (t *Teebot) cell(x, y, z int) int { e := t.g.Edge(); return (z*e+y)*e + x }

func (t *Teebot) hasPlayer(x, y, z int) bool {
	for s := range t.g.Players() {
		if p := t.g.Player(s); p.InPlay && p.X == x && p.Y == y && p.Z == z {
			return true
		}
	}
	return false
}

// desirability is the sum of squared distances from (x,y,z) to every bomb
// and to every bot in play other than seat.
func (t *Teebot) desirability(x, y, z, seat int) int64 {
	sq := func(a, b, c int) int64 { return int64(a*a) + int64(b*b) + int64(c*c) }
	var sum int64
	for _, it := range t.items {
		sum += sq(int(it.X)-x, int(it.Y)-y, int(it.Z)-z)
	}
	for s := range t.g.Players() {
		if p := t.g.Player(s); p.InPlay && s != seat {
			sum += sq(p.X-x, p.Y-y, p.Z-z)
		}
	}
	return sum
}

// newSearch starts a breadth-first search: no cell done, no nodes.
func (t *Teebot) newSearch() {
	t.stamp++
	if t.stamp == 0 {
		clear(t.done)
		t.stamp = 1
	}
	t.nodes = t.nodes[:0]
}

func (t *Teebot) isDone(x, y, z int) bool { return t.done[t.cell(x, y, z)] == t.stamp }

func (t *Teebot) markDone(x, y, z int) {
	if t.inBounds(x, y, z) {
		t.done[t.cell(x, y, z)] = t.stamp
	}
}

// neighbours fills t.nbr with pos's neighbours that keep returns true for,
// in the original's order (+X, −X, +Y, −Y, +Z, −Z), and returns how many.
func (t *Teebot) neighbours(pos int, keep func(x, y, z int) bool) int {
	p := t.nodes[pos]
	k := 0
	for d := MovePlusX; d <= MoveMinusZ; d++ {
		x, y, z := p.x, p.y, p.z
		switch d {
		case MovePlusX:
			x++
		case MoveMinusX:
			x--
		case MovePlusY:
			y++
		case MoveMinusY:
			y--
		case MovePlusZ:
			z++
		default:
			z--
		}
		if !t.inBounds(x, y, z) || t.isDone(x, y, z) || !keep(x, y, z) {
			continue
		}
		t.nbr[k] = tbNode{x: x, y: y, z: z, parent: int32(pos), dir: d, depth: p.depth + 1}
		k++
	}
	return k
}

// prioritize orders nb by score (descending when desc), stably, or
// shuffles it when random.
func (t *Teebot) prioritize(nb []tbNode, random, desc bool) {
	if random {
		t.shuffle(len(nb), func(i, j int) { nb[i], nb[j] = nb[j], nb[i] })
		return
	}
	for i := 1; i < len(nb); i++ {
		for j := i; j > 0; j-- {
			a, b := nb[j].score, nb[j-1].score
			if (desc && a > b) || (!desc && a < b) {
				nb[j], nb[j-1] = nb[j-1], nb[j]
			} else {
				break
			}
		}
	}
}

// shuffle is teebot.js's shuffle: Fisher–Yates from the end, index
// floor(random·(i+1)); nothing when deterministic.
func (t *Teebot) shuffle(n int, swap func(i, j int)) {
	if t.P.Deterministic {
		return
	}
	for i := n - 1; i >= 0; i-- {
		j := int(t.rng.Float64() * float64(i+1))
		swap(j, i)
	}
}

// enqueue appends the first k nodes of t.nbr to the queue, ordered by
// their desirability for t's bot (descending when desc, stably) or
// shuffled when random ([Teebot.prioritize]); false when the search grows
// too large.
func (t *Teebot) enqueue(k int, random, desc bool) bool {
	nb := t.nbr[:k]
	if !random {
		for i := range nb {
			nb[i].score = t.desirability(nb[i].x, nb[i].y, nb[i].z, t.me)
		}
	}
	t.prioritize(nb, random, desc)
	if len(t.nodes)+len(nb) > cap(t.nodes) {
		return false
	}
	t.nodes = append(t.nodes, nb...)
	return true
}

// moveDistance writes teebot's moves into t.path and returns how many;
// false when the search is too large.
func (t *Teebot) moveDistance(n float64) (int, bool) {
	me := t.g.Player(t.me)
	t.newSearch()
	t.nodes = append(t.nodes, tbNode{x: me.X, y: me.Y, z: me.Z, parent: -1})
	best := -1
	for head := 0; head < len(t.nodes); head++ {
		pos := t.nodes[head]
		if float64(pos.depth) >= n {
			return t.pathTo(head, int(n)), true
		}
		k := t.neighbours(head, func(x, y, z int) bool { return !t.g.HasBomb(x, y, z) && !t.hasPlayer(x, y, z) })
		if !t.enqueue(k, t.P.RandomMovement, true) {
			return 0, false
		}
		t.markDone(pos.x, pos.y, pos.z)
		if best < 0 || t.nodes[best].depth < pos.depth {
			best = head
		}
	}
	return t.pathTo(best, len(t.path)), true
}

// pathTo writes the moves leading to node i, at most limit of them, into
// t.path and returns how many.
func (t *Teebot) pathTo(i, limit int) int {
	d := min(t.nodes[i].depth, len(t.path))
	for j := i; t.nodes[j].parent >= 0; j = int(t.nodes[j].parent) {
		if t.nodes[j].depth <= len(t.path) {
			t.path[t.nodes[j].depth-1] = t.nodes[j].dir
		}
	}
	return min(d, limit)
}

// pickTargets orders the other bots into t.order with their bomb counts in
// t.tn and returns them; false where the original throws.
func (t *Teebot) pickTargets(k int) ([]int, bool) {
	m := 0
	for s := range t.g.Players() {
		if s != t.me && t.g.Player(s).InPlay {
			t.order[m] = s
			p := t.g.Player(s)
			t.keys[m] = t.desirability(p.X, p.Y, p.Z, s)
			m++
		}
	}
	others := t.order[:m]
	if t.P.RandomTargeting {
		t.shuffle(m, func(i, j int) { others[i], others[j] = others[j], others[i] })
	} else {
		for i := 1; i < m; i++ {
			for j := i; j > 0 && t.keys[j] < t.keys[j-1]; j-- {
				others[j], others[j-1] = others[j-1], others[j]
				t.keys[j], t.keys[j-1] = t.keys[j-1], t.keys[j]
			}
		}
	}
	if k <= 0 {
		return nil, true
	}
	nt := min(k, m)
	for i := range nt {
		t.tn[i] = 1
	}
	if nt < k {
		if nt == 0 {
			return nil, false // targets[i % 0] is undefined: a TypeError
		}
		for i := range k - nt {
			t.tn[i%nt]++
		}
	}
	return others[:nt], true
}

// explode bombs the target's cell, then its neighbours breadth-first in
// increasing desirability, until n bombs.
func (t *Teebot) explode(tx, ty, tz, n int) bool {
	me := t.g.Player(t.me)
	t.newSearch()
	t.nodes = append(t.nodes, tbNode{x: tx, y: ty, z: tz, parent: -1})
	placed := 0
	for head := 0; head < len(t.nodes) && placed < n; head++ {
		pos := t.nodes[head]
		if !t.g.HasBomb(pos.x, pos.y, pos.z) {
			t.add(BombAction(t.g.Edge(), pos.x, pos.y, pos.z))
			placed++
		}
		if placed < n {
			k := t.neighbours(head, func(x, y, z int) bool { return x != me.X || y != me.Y || z != me.Z })
			if !t.enqueue(k, t.P.RandomSpread, false) {
				return false
			}
		}
		t.markDone(pos.x, pos.y, pos.z)
	}
	return true
}

// implode collects the cells within the implode radius of the target
// breadth-first (duplicates included, as the original), and bombs the n
// farthest.
func (t *Teebot) implode(tx, ty, tz, n int) bool {
	me := t.g.Player(t.me)
	radius := int(math.Ceil(float64(t.g.TasksPerTick()) / float64(t.P.ImplodeRadiusFraction)))
	t.newSearch()
	t.nodes = append(t.nodes, tbNode{x: tx, y: ty, z: tz, parent: -1})
	for head := 0; head < len(t.nodes); head++ {
		pos := t.nodes[head]
		if pos.depth < radius {
			k := t.neighbours(head, func(x, y, z int) bool {
				return (x != me.X || y != me.Y || z != me.Z) && !t.g.HasBomb(x, y, z)
			})
			if !t.enqueue(k, t.P.RandomSpread, false) {
				return false
			}
		}
		t.markDone(pos.x, pos.y, pos.z)
	}
	// Stable sort by depth, descending: the queue is in nondecreasing
	// depth, so take the depths from the deepest down, in queue order.
	placed := 0
	for d := radius; d >= 0 && placed < n; d-- {
		for _, nd := range t.nodes {
			if nd.depth == d && placed < n {
				t.add(BombAction(t.g.Edge(), nd.x, nd.y, nd.z))
				placed++
			}
		}
	}
	return true
}
