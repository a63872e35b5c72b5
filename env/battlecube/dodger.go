package battlecube

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Dodger is a Battle³ bot for cubes of several tasks per tick, built on how
// the original bots plan: they are asked once per cycle and aim at where
// the bots stood then (teebot bombs its targets' cycle-start cells), and a
// bot that bombs stands still while it does. Per tick of a cycle:
//
//   - The cycle's first tick: a move to a neighbour in the cube that holds
//     no bomb and is neither another bot's cell nor next to one (the
//     cells the others' bombs of this cycle aim at and spill onto), the
//     six directions tried in a seeded random order. When none is, a move
//     to a neighbour with no bomb and no bot; else NOOP. It never ends the
//     first tick on its cycle-start cell when it can leave it.
//   - Its second tick: a bomb on the cell of the first other bot in play
//     (seat order) whose cell holds no bomb yet; NOOP when there is none.
//   - Every later tick: the same, but only on bots that stood still in the
//     tick before (a bot that bombs, as teebot after its moves, stays).
//
// With one task per tick there is no cycle to dodge in and Dodger plays as
// [Stalker]. Deterministic given the seed of Reset. Not safe for
// concurrent use; Act does not allocate.
type Dodger struct {
	pcg rand.PCG
	rng *rand.Rand
	one *Stalker // plays the one-task cubes

	// Where every bot stood at the start of the tick last seen.
	last     [MaxPlayers][3]int
	lastIn   [MaxPlayers]bool
	lastTick int

	taskCounts
}

// NewDodger returns a dodger, seeded with 0 until Reset.
func NewDodger() *Dodger {
	d := &Dodger{one: NewStalker()}
	d.rng = rand.New(&d.pcg)
	return d
}

// Reset seeds the move order and forgets the bots. It panics if e is not a
// battlecube game.
func (d *Dodger) Reset(e env.Env, seat int, seed uint64) {
	g := asBattlecube(e)
	d.pcg.Seed(seed, 0xd0d6e7)
	d.lastIn = [MaxPlayers]bool{}
	d.lastTick = -2
	d.taskCounts = taskCounts{}
	if g.TasksPerTick() == 1 {
		d.one.Reset(e, seat, seed)
	}
}

// Act returns the dodger's task for the coming tick.
func (d *Dodger) Act(e env.Env, seat int) int32 {
	g := asBattlecube(e)
	var a int32
	if g.TasksPerTick() == 1 {
		a = d.one.Act(e, seat)
	} else {
		a = int32(d.task(g, seat))
		d.remember(g)
	}
	if g.Player(seat).InPlay {
		d.count(a)
	}
	return a
}

// remember records where the bots stand at the start of this tick.
func (d *Dodger) remember(g *Game) {
	for o := range g.Players() {
		p := g.Player(o)
		d.last[o], d.lastIn[o] = [3]int{p.X, p.Y, p.Z}, p.InPlay
	}
	d.lastTick = g.Tick()
}

// stood reports whether bot o stood still in the tick before this one.
func (d *Dodger) stood(g *Game, o int) bool {
	p := g.Player(o)
	return d.lastTick == g.Tick()-1 && d.lastIn[o] && d.last[o] == [3]int{p.X, p.Y, p.Z}
}

func (d *Dodger) task(g *Game, seat int) Action {
	me := g.Player(seat)
	if !me.InPlay {
		return Noop
	}
	sub := g.SubTick()
	if sub == 1 {
		return d.dodge(g, seat, me)
	}
	for o := range g.Players() {
		q := g.Player(o)
		if o == seat || !q.InPlay || !g.inCube(q.X, q.Y, q.Z) || g.HasBomb(q.X, q.Y, q.Z) {
			continue
		}
		if sub > 2 && !d.stood(g, o) {
			continue
		}
		return BombAction(g.Edge(), q.X, q.Y, q.Z)
	}
	return Noop
}

// dodge returns the cycle's first task: the first move, in a seeded random
// order of the six, to a free cell away from every bot, else to a free
// cell, else NOOP.
func (d *Dodger) dodge(g *Game, seat int, me Player) Action {
	dirs := [6]Action{MovePlusX, MoveMinusX, MovePlusY, MoveMinusY, MovePlusZ, MoveMinusZ}
	for i := len(dirs) - 1; i > 0; i-- {
		j := d.rng.IntN(i + 1)
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	fallback := Noop
	for _, a := range dirs {
		m := moveDelta[a]
		x, y, z := me.X+m[0], me.Y+m[1], me.Z+m[2]
		if !g.inCube(x, y, z) || g.HasBomb(x, y, z) {
			continue
		}
		near := 0 // 2: a bot's cell, 1: next to one
		for o := range g.Players() {
			q := g.Player(o)
			if o == seat || !q.InPlay {
				continue
			}
			switch abs(q.X-x) + abs(q.Y-y) + abs(q.Z-z) {
			case 0:
				near = 2
			case 1:
				near = max(near, 1)
			}
		}
		if near == 0 {
			return a
		}
		if near == 1 && fallback == Noop {
			fallback = a
		}
	}
	return fallback
}
