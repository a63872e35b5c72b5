package portalbomber

import "github.com/botarena/botarena/env"

// Raider is a hunting portalbomber bot: [Greedy]'s economy and escapes,
// plus the kill. On its turn it:
//
//  1. buys as Greedy does;
//  2. bombs when, after the bomb, it keeps an escape and the opponent has
//     none (every walk of the opponent over the next 8 round ends meets a
//     trail or fire, the raider's own body blocking it);
//  3. bombs when it stands next to the opponent, on the opponent's line
//     within its range, or by soft blocks, as Greedy, if an escape remains;
//  4. walks towards the cell nearest the opponent from which a bomb would
//     reach it, else to Greedy's best bombing cell;
//  5. falls back to Greedy's safe moves.
//
// Not safe for concurrent use; one per seat. Act does not allocate.
type Raider struct {
	Greedy
	// Traps counts the bombs placed that left the opponent no escape.
	Traps int
}

// Reset forgets the previous game.
func (a *Raider) Reset(e env.Env, seat int, seed uint64) {
	a.Greedy.Reset(e, seat, seed)
	a.Traps = 0
}

// Act returns the seat's move; 0 when it is not the seat's turn. It panics if
// e is not a portalbomber game.
func (a *Raider) Act(e env.Env, seat int) int32 {
	g := e.(*Game)
	if t := g.ToMove(); (t >= 0 && t != seat) || g.Done() || !g.Player(seat).Alive {
		return 0
	}
	p, o := g.Player(seat), g.Player(1-seat)
	if p.Coins >= UpgradePrice {
		buy := a.nextBuy(p)
		if a.safeAfter(g, seat, buy) {
			a.bought++
			return int32(buy)
		}
	}
	_, _, onBomb := g.Bomb(p.X, p.Y)
	canBomb := !onBomb && p.BombCount > 0
	if canBomb && o.Alive && a.traps(g, seat) {
		a.Traps++
		return int32(PlaceBomb)
	}
	if canBomb && a.blastValue(g, seat, p.X, p.Y) > 0 && a.safeAfter(g, seat, PlaceBomb) {
		return int32(PlaceBomb)
	}
	n := g.Size()
	here := p.Y*n + p.X
	a.paths(g, seat, here)
	best, bestScore := -1, 0
	for i := range n * n {
		if a.dist[i] < 0 || i == here {
			continue
		}
		v := a.blastValue(g, seat, i%n, i/n)
		if v == 0 {
			continue
		}
		// The opponent's line counts most, nearer the opponent more.
		score := 100*v - 10*int(a.dist[i])
		if v >= 10 && o.Alive {
			score += 400 - 20*(abs(i%n-o.X)+abs(i/n-o.Y))
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
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
		m := MoveLeft + Action(a.first[best])
		if a.safe(g, seat, m) {
			return int32(m)
		}
	}
	if a.safe(g, seat, Wait) {
		return 0
	}
	for m := MoveLeft; m <= MoveDown; m++ {
		if a.safe(g, seat, m) {
			return int32(m)
		}
	}
	// No move survives an answering bomb: any move that escapes the
	// bombs there are.
	if best >= 0 {
		if m := MoveLeft + Action(a.first[best]); a.safeAfter(g, seat, m) {
			return int32(m)
		}
	}
	if a.safeAfter(g, seat, Wait) {
		return 0
	}
	for m := MoveLeft; m <= MoveDown; m++ {
		if a.safeAfter(g, seat, m) {
			return int32(m)
		}
	}
	return 0
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
	clear(a.acts[:])
	a.acts[seat] = int32(m)
	s.Step(a.acts[:], a.rew[:], a.term[:], a.trunc[:])
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
	clear(a.acts[:])
	a.acts[1-seat] = int32(PlaceBomb)
	s.Step(a.acts[:], a.rew[:], a.term[:], a.trunc[:])
	return s.Done() || a.escapes(s, seat)
}

// traps reports whether a bomb now leaves seat an escape and the
// opponent none.
func (a *Raider) traps(g *Game, seat int) bool {
	a.scratch = *g
	s := &a.scratch
	clear(a.acts[:])
	a.acts[seat] = int32(PlaceBomb)
	s.Step(a.acts[:], a.rew[:], a.term[:], a.trunc[:])
	if !s.Player(seat).Alive || s.Done() {
		return false
	}
	return a.escapes(s, seat) && !a.escapes(s, 1-seat)
}

// escapes reports whether seat has a walk in s that avoids every cell at
// the round end it becomes deadly, for the next greedyHorizon round ends,
// the other player standing still.
func (a *Raider) escapes(s *Game, seat int) bool {
	me := s.Player(seat)
	if !me.Alive {
		return false
	}
	n := s.Size()
	s.Forecast(a.fc[:], greedyHorizon)
	free := s.ToMove() == seat || s.ToMove() < 0
	cur, next := &a.reach[0], &a.reach[1]
	clear(cur[:n*n])
	cur[me.Y*n+me.X] = true
	for k := range greedyHorizon {
		clear(next[:n*n])
		any := false
		for i := range n * n {
			if !cur[i] {
				continue
			}
			next[i] = true
			if k > 0 || free {
				for d := range 4 {
					x, y := i%n+dirDX[d], i/n+dirDY[d]
					if walkable(s, seat, x, y) {
						next[y*n+x] = true
					}
				}
			}
		}
		for i := range n * n {
			if next[i] && a.fc[i]&(1<<k) != 0 {
				next[i] = false
			}
			any = any || next[i]
		}
		if !any {
			return false
		}
		cur, next = next, cur
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
