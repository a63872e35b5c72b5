package portalbomber

import "github.com/botarena/botarena/env"

// Raider is a hunting portalbomber bot: [Greedy]'s economy, plus the kill.
// "An escape remains" means here: after the move, whatever the opponent
// does with its moves before the raider's next (wait, step, bomb; it may
// move twice across a round end), a walk exists that avoids every deadly
// cell ([Raider.robust]); most of its losses to Greedy came from Greedy
// stepping into the one way out of the raider's own blast. Walks go
// through portals (spec §5.1). On its turn it:
//
//  1. buys as Greedy does;
//  2. bombs when an escape remains and the opponent has none (every walk
//     of the opponent over the next 8 round ends meets a trail or fire,
//     the raider's own body blocking it);
//  3. bombs when it stands next to the opponent, on the opponent's line
//     within its range, or by soft blocks, as Greedy, if an escape remains;
//  4. shoots a portal (turning first where needed) when, its other portal
//     placed, the pair shortens the route to its target by more than the
//     moves it costs;
//  5. walks towards the cell nearest the opponent from which a bomb would
//     reach it, else to Greedy's best bombing cell, else closer;
//  6. when idle with no portal placed, shoots an orange anchor; when no
//     step keeps an escape, tries a portal shot that opens one;
//  7. falls back to Greedy's checks: first against an answering bomb only,
//     then against none.
//
// Not safe for concurrent use; one per seat. Act does not allocate.
type Raider struct {
	Greedy
	// Traps counts the bombs placed that left the opponent no escape.
	Traps int
	// Shots counts the portals shot.
	Shots int
	// ply holds the positions of the reply search, one per depth.
	ply [3]Game
}

// Reset forgets the previous game.
func (a *Raider) Reset(e env.Env, seat int, seed uint64) {
	a.Greedy.Reset(e, seat, seed)
	a.Traps, a.Shots = 0, 0
}

// Act returns the seat's move; 0 when it is not the seat's turn. It panics if
// e is not a portalbomber game.
func (a *Raider) Act(e env.Env, seat int) int32 {
	g := e.(*Game)
	if !moves(g, seat) {
		return 0
	}
	p, o := g.Player(seat), g.Player(1-seat)
	if buy, ok := a.shop(g, seat, p); ok {
		return int32(buy)
	}
	_, _, onBomb := g.Bomb(p.X, p.Y)
	canBomb := !onBomb && p.BombCount > 0
	if canBomb && o.Alive && a.traps(g, seat) && a.robust(g, seat, PlaceBomb) {
		a.Traps++
		return int32(PlaceBomb)
	}
	if canBomb && a.blastValue(g, seat, p.X, p.Y) > 0 && a.robust(g, seat, PlaceBomb) {
		return int32(PlaceBomb)
	}
	n := g.Size()
	here := p.Y*n + p.X
	a.paths(g, seat, here, true)
	// The opponent's line counts most, nearer the opponent more.
	best, bestScore := a.target(g, seat, here, func(i, v int) int {
		if v >= 10 && o.Alive {
			return 400 - 20*(abs(i%n-o.X)+abs(i/n-o.Y))
		}
		return 0
	})
	if best < 0 && o.Alive {
		// Nothing to bomb in reach: close in on the opponent.
		for i := range n * n {
			if a.dist[i] < 0 || i == here {
				continue
			}
			if score := -abs(i%n-o.X) - abs(i/n-o.Y); best < 0 || score > bestScore {
				best, bestScore = i, score
			}
		}
	}
	if best >= 0 {
		first := a.first[best]
		if m := a.portalShot(g, seat, best); m != Wait {
			a.Shots++
			return int32(m)
		}
		a.first[best] = first
		m := MoveLeft + Action(first)
		if a.robust(g, seat, m) {
			return int32(m)
		}
	}
	if a.robust(g, seat, Wait) {
		if !p.Portals[Orange].Set && !p.Portals[Blue].Set && a.robust(g, seat, OrangePortal) {
			// Idle: lay an anchor for a later shortcut.
			a.Shots++
			return int32(OrangePortal)
		}
		return 0
	}
	for m := MoveLeft; m <= MoveDown; m++ {
		if a.robust(g, seat, m) {
			return int32(m)
		}
	}
	// No step escapes every reply: a portal shot may open a way out.
	for m := OrangePortal; m <= BluePortal; m++ {
		if a.robust(g, seat, m) {
			a.Shots++
			return int32(m)
		}
	}
	if m, ok := a.firstOf(best, func(m Action) bool { return a.safe(g, seat, m) }); ok {
		return int32(m)
	}
	// No move survives an answering bomb: any move that escapes the
	// bombs there are.
	m, _ := a.firstOf(best, func(m Action) bool { return a.safeAfter(g, seat, m) })
	return int32(m)
}

// safe reports whether seat keeps an escape after playing m now (as
// Greedy checks) and also if the opponent answers with a bomb on its cell
// when it moves next.
func (a *Raider) safe(g *Game, seat int, m Action) bool {
	if !a.safeAfter(g, seat, m) {
		return false
	}
	a.scratch = *g
	s := &a.scratch
	a.play(s, seat, m)
	for s.ToMove() == seat && !s.Done() {
		return true // the raider moves again first
	}
	o := s.Player(1 - seat)
	if s.Done() || !o.Alive || o.BombCount == 0 {
		return true
	}
	if _, _, on := s.Bomb(o.X, o.Y); on {
		return true
	}
	a.play(s, 1-seat, PlaceBomb)
	return s.Done() || a.escapes(s, seat)
}

// portalShot returns the move that starts a portal shortcut to cell
// target, or Wait for none: a shot of one colour, the other being placed,
// that shortens the route (through portals, as [Greedy.paths] with portals) by more
// than the moves it costs (the shot, and a turn first where the raider
// faces elsewhere: then the turn is returned). It uses a.dist, which must
// hold the routes from the raider's cell, and leaves it changed.
func (a *Raider) portalShot(g *Game, seat, target int) Action {
	p := g.Player(seat)
	now := int(a.dist[target])
	if now <= 3 || (!p.Portals[Orange].Set && !p.Portals[Blue].Set) {
		return Wait
	}
	n := g.Size()
	here := p.Y*n + p.X
	best, gain := Wait, 1
	for d := range 4 {
		for c := range 2 {
			if !p.Portals[1-c].Set {
				continue
			}
			t := &a.ply[0]
			*t = *g
			t.players[seat].Orientation = int32(d)
			t.shootPortal(seat, c)
			a.paths(t, seat, here, true)
			cost := 1
			if d != p.Orientation {
				cost++
			}
			if a.dist[target] < 0 {
				continue
			}
			if got := now - int(a.dist[target]) - cost; got > gain {
				best, gain = OrangePortal+Action(c), got
				if d != p.Orientation {
					best = TurnLeft + Action(d)
				}
			}
		}
	}
	if best != Wait && !a.robust(g, seat, best) {
		return Wait
	}
	return best
}

// replyDepth is how many opponent moves the reply search looks at: the
// opponent moves at most twice before the raider moves again.
const replyDepth = 2

// robust reports whether seat, after playing m now, keeps an escape
// whatever the opponent does with its moves before seat's next: wait,
// step in any direction (into the raider's way) or bomb. Opponents too far
// away to matter are taken as standing still, as in [Raider.escapes].
func (a *Raider) robust(g *Game, seat int, m Action) bool {
	s := &a.ply[0]
	*s = *g
	a.play(s, seat, m)
	return a.replies(s, seat, 1)
}

// replies reports whether seat keeps an escape in s against every reply
// of the opponent at depth and below.
func (a *Raider) replies(s *Game, seat, depth int) bool {
	if !s.Player(seat).Alive {
		return false
	}
	if s.Done() {
		return true
	}
	me, o := s.Player(seat), s.Player(1-seat)
	if s.ToMove() != 1-seat || depth > replyDepth || !o.Alive ||
		abs(o.X-me.X)+abs(o.Y-me.Y) > o.BombRange+replyDepth {
		return a.escapes(s, seat)
	}
	_, _, onBomb := s.Bomb(o.X, o.Y)
	for r := Wait; r <= PlaceBomb; r++ {
		if r > MoveDown && r < PlaceBomb || r == PlaceBomb && (onBomb || o.BombCount == 0) {
			continue
		}
		t := &a.ply[depth]
		*t = *s
		a.play(t, 1-seat, r)
		if r >= MoveLeft && r <= MoveDown {
			if q := t.Player(1 - seat); q.X == o.X && q.Y == o.Y {
				continue // a failed step: as waiting
			}
		}
		if !a.replies(t, seat, depth+1) {
			return false
		}
	}
	return true
}

// traps reports whether a bomb now leaves seat an escape and the
// opponent none.
func (a *Raider) traps(g *Game, seat int) bool {
	a.scratch = *g
	s := &a.scratch
	a.play(s, seat, PlaceBomb)
	if !s.Player(seat).Alive || s.Done() {
		return false
	}
	return a.escapes(s, seat) && !a.escapes(s, 1-seat)
}

// escapes reports whether seat has a walk in s that avoids every cell at
// the round end it becomes deadly, for the next greedyHorizon round ends,
// the other player standing still.
func (a *Raider) escapes(s *Game, seat int) bool {
	if !s.Player(seat).Alive {
		return false
	}
	return a.canEscape(s, seat, true)
}

// step returns the cell seat reaches by stepping from cell i in direction
// d in g, with portals walking through them (spec §5.1), or -1 when it
// cannot step.
func step(g *Game, seat, i, d int, portals bool) int {
	n := g.Size()
	x, y := i%n+dirDX[d], i/n+dirDY[d]
	if walkable(g, seat, x, y) {
		return y*n + x
	}
	if !portals || !g.Hard(x, y) && !g.Soft(x, y) {
		return -1
	}
	if px, py, _ := g.simulateMovement(i%n, i/n, d, 0); px != i%n || py != i/n {
		return py*n + px
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
