package battlebots

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// newAgent returns the factory of the built-in agent name that make
// makes ([env.GameAgent]).
func newAgent(name string, make func() env.Agent) env.AgentFactory {
	return env.GameAgent("battlebots", name, make)
}

// Nop is the original's Nop.java: it always prints NO (action 0). It has
// no state, so one value may serve any number of seats.
type Nop struct{}

// Reset does nothing.
func (Nop) Reset(env.Env, int, uint64) {}

// Act returns 0, NO.
func (Nop) Act(env.Env, int) int32 { return 0 }

// battlebotsGame returns e as a BattleBots game or panics.
func battlebotsGame(e env.Env) *Game {
	g, ok := e.(*Game)
	if !ok {
		panic(fmt.Sprintf("battlebots: a battlebots bot cannot play %s", e.Spec().Game))
	}
	return g
}

// Huggy is the original's example bot huggy.py at HEAD (spec §7): it reads
// both bots' cells from the arena string; while the Chebyshev distance to
// the enemy is above 1 it steps toward it (the vertical part N/S, then the
// horizontal part E/W: "SE", "N", "W"); once adjacent it prints P every
// round, paying 1 HP each time. It has no state, so one value may serve any
// number of seats.
type Huggy struct{}

// Reset does nothing: huggy keeps no state.
func (Huggy) Reset(env.Env, int, uint64) {}

// Act returns huggy's action for seat.
func (Huggy) Act(e env.Env, seat int) int32 {
	g := battlebotsGame(e)
	me, en := g.Bot(seat), g.Bot(1-seat)
	dx, dy := en.X-me.X, en.Y-me.Y
	if max(abs(dx), abs(dy)) <= 1 {
		return int32(EMP)
	}
	return int32(Move(dirOf(sign(dx), sign(dy))))
}

// dirOf returns the direction of the unit step (dx, dy), which is not (0,0).
func dirOf(dx, dy int) Dir {
	for d := range Dir(NumDirs) {
		if x, y := d.Delta(); x == dx && y == dy {
			return d
		}
	}
	panic("battlebots: dirOf(0, 0)")
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Sniper is a BattleBots bot that sees only what the arena string shows
// (both bots, their HP, the projectiles in flight; no landmines):
//
//   - It maps the cells the projectiles in flight will cross in the coming
//     round (3 cells per bullet, 2 per missile, and the splash around a
//     missile that will reach the wall), weighted by their damage.
//   - If its cell is safe and the enemy is on its row, column or diagonal,
//     it fires a missile at it (3 damage, 2 cells a round). While paralysed
//     it can only fire or wait.
//   - Otherwise it steps to the neighbouring cell (or stays) that is safest
//     and then best placed: on a line with the enemy at distance 2–4,
//     never adjacent, away from the arena's edge.
//
// It keeps no state, so one value may serve any number of seats; Act does
// not allocate.
type Sniper struct{}

// Reset does nothing: the sniper keeps no state.
func (Sniper) Reset(env.Env, int, uint64) {}

// Act returns the sniper's action for seat.
func (Sniper) Act(e env.Env, seat int) int32 {
	g := battlebotsGame(e)
	if g.Done() {
		return 0
	}
	var danger [Cells]int
	sniperDanger(g, &danger)
	me, en := g.Bot(seat), g.Bot(1-seat)
	here := me.Y*Side + me.X
	if danger[here] == 0 || g.Paralysed() > 0 {
		if d, ok := lineTo(me.X, me.Y, en.X, en.Y); ok {
			return int32(Missile(d))
		}
	}
	if g.Paralysed() > 0 {
		return 0
	}
	best, bestScore := Nothing, sniperScore(g, &danger, me.X, me.Y, en)+1
	for d := range Dir(NumDirs) {
		dx, dy := d.Delta()
		x, y := me.X+dx, me.Y+dy
		if !g.InBounds(x, y) || (x == en.X && y == en.Y) {
			continue
		}
		if s := sniperScore(g, &danger, x, y, en); s > bestScore {
			best, bestScore = Move(d), s
		}
	}
	return int32(best)
}

// sniperScore rates standing on (x, y) after the coming movement phase.
func sniperScore(g *Game, danger *[Cells]int, x, y int, en Bot) int {
	s := -100 * danger[y*Side+x]
	d := max(abs(en.X-x), abs(en.Y-y))
	_, aligned := lineTo(x, y, en.X, en.Y)
	switch {
	case d <= 1:
		s -= 30
	case aligned:
		s += 20
		if d <= 4 {
			s += 5
		}
	default:
		s -= d
	}
	lo := 1
	if g.InBounds(0, 0) {
		lo = 0 // the 10×10 arena
	}
	if x == lo || y == lo || x == Side-1 || y == Side-1 {
		s -= 3
	}
	return s
}

// lineTo returns the direction from (x, y) to (tx, ty) when they share a
// row, column or diagonal and differ.
func lineTo(x, y, tx, ty int) (Dir, bool) {
	dx, dy := tx-x, ty-y
	if (dx == 0 && dy == 0) || (dx != 0 && dy != 0 && abs(dx) != abs(dy)) {
		return 0, false
	}
	return dirOf(sign(dx), sign(dy)), true
}

// sniperDanger adds to each cell the damage the projectiles in flight may
// do there in the coming round.
func sniperDanger(g *Game, danger *[Cells]int) {
	mark := func(p Projectile, steps, damage int, missile bool) {
		dx, dy := p.Dir.Delta()
		x, y := p.X, p.Y
		for k := range steps {
			nx, ny := x+dx, y+dy
			if !g.InBounds(nx, ny) {
				if missile {
					for cy := y - 1; cy <= y+1; cy++ {
						for cx := x - 1; cx <= x+1; cx++ {
							if g.InBounds(cx, cy) {
								danger[cy*Side+cx] += steps - k
							}
						}
					}
				}
				return
			}
			x, y = nx, ny
			danger[y*Side+x] += damage
		}
	}
	for i := range g.NumBullets() {
		mark(g.BulletAt(i), 3, 1, false)
	}
	for i := range g.NumMissiles() {
		mark(g.MissileAt(i), 2, 3, true)
	}
}
