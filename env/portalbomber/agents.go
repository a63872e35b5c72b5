package portalbomber

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newAgent returns the factory of the built-in agent name that make
// makes ([env.GameAgent]).
func newAgent(name string, make func() env.Agent) env.AgentFactory {
	return env.GameAgent("portalbomber", name, make)
}

// practiceMoves are AI.js's 15 moves, in its order: everything but "b".
var practiceMoves = [15]Action{
	MoveUp, MoveLeft, MoveRight, MoveDown,
	TurnUp, TurnLeft, TurnRight, TurnDown,
	Wait, OrangePortal, BluePortal,
	BuyCount, BuyRange, BuyPierce, BuyBlock,
}

// Practice is the original's practice bot (AI.js, spec §12): on its turn it
// picks uniformly among the 15 moves mu ml mr md tu tl tr td ” op bp
// buy_count buy_range buy_pierce buy_block, ignoring whether they can
// succeed, and never plays "b". Its randomness (Math.random in the original)
// comes from a PCG generator seeded in Reset. Not safe for concurrent use;
// Act does not allocate.
type Practice struct {
	pcg rand.PCG
}

// Reset seeds the generator.
func (a *Practice) Reset(_ env.Env, _ int, seed uint64) { a.pcg.Seed(seed, 0x2545f4914f6cdd1d) }

// Act returns a random practice move on the seat's turn, else 0. It panics
// if e is not a portalbomber game.
func (a *Practice) Act(e env.Env, seat int) int32 {
	g := e.(*Game)
	if t := g.ToMove(); t >= 0 && t != seat {
		return 0
	}
	return int32(practiceMoves[a.pcg.Uint64()%15])
}

// greedyHorizon is how many round ends Greedy looks ahead: a new bomb's
// five plus its trail's two, and one more.
const greedyHorizon = 8

// Greedy is a heuristic portalbomber bot. On its turn it:
//
//  1. buys an upgrade when it has 5 coins (pierce to 1, then bombs to 2,
//     then range, pierce and bombs in turn) and can still escape;
//  2. places a bomb when the blast (as the arms would go now, portals
//     ignored) reaches the opponent or a soft block and an escape remains;
//  3. otherwise walks the shortest path towards the best bombing cell (the
//     opponent's line first, then cells next to valuable soft blocks);
//  4. falls back to any move that keeps an escape, preferring to wait.
//
// "An escape remains" means: after the move (simulated on a copy of the
// game), a walk exists that avoids every cell at the round end it becomes
// deadly ([Game.Forecast]) for the next 8 round ends.
// Not safe for concurrent use; one per seat. Act does not allocate.
type Greedy struct {
	scratch Game
	fc      [MaxCells]uint16
	dist    [MaxCells]int16
	queue   [MaxCells]uint16
	first   [MaxCells]int8
	reach   [2][MaxCells]bool
	acts    [Seats]int32
	rew     [Seats]float32
	term    [Seats]bool
	trunc   [Seats]bool
	bought  int
}

// Reset forgets the previous game.
func (a *Greedy) Reset(env.Env, int, uint64) { a.bought = 0 }

// Act returns the seat's move; 0 when it is not the seat's turn. It panics if
// e is not a portalbomber game.
func (a *Greedy) Act(e env.Env, seat int) int32 {
	g := e.(*Game)
	if !moves(g, seat) {
		return 0
	}
	p := g.Player(seat)
	if buy, ok := a.shop(g, seat, p); ok {
		return int32(buy)
	}
	n := g.Size()
	here := p.Y*n + p.X
	if _, _, onBomb := g.Bomb(p.X, p.Y); !onBomb && p.BombCount > 0 && a.blastValue(g, seat, p.X, p.Y) > 0 &&
		a.safeAfter(g, seat, PlaceBomb) {
		return int32(PlaceBomb)
	}
	// Shortest paths from here over walkable cells; pick the best target.
	a.paths(g, seat, here, false)
	best, _ := a.target(g, seat, here, nil)
	m, _ := a.firstOf(best, func(m Action) bool { return a.safeAfter(g, seat, m) })
	return int32(m)
}

// target returns the cell, other than here and reached by the last
// [Greedy.paths], where seat's bomb scores best, and its score: 100 for
// each point of [Greedy.blastValue], less 10 a step of the way, plus
// bonus(cell, value) when bonus is not nil. It returns -1 when no bomb in
// reach scores.
func (a *Greedy) target(g *Game, seat, here int, bonus func(i, v int) int) (best, bestScore int) {
	n := g.Size()
	best = -1
	for i := range n * n {
		if a.dist[i] < 0 || i == here {
			continue
		}
		v := a.blastValue(g, seat, i%n, i/n)
		if v == 0 {
			continue
		}
		score := 100*v - 10*int(a.dist[i])
		if bonus != nil {
			score += bonus(i, v)
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, bestScore
}

// firstOf returns the first move that ok accepts among: the first step
// towards cell target (from a.first; none when target < 0), waiting, and
// the four moves in direction order; Wait and false when ok accepts none.
func (a *Greedy) firstOf(target int, ok func(Action) bool) (Action, bool) {
	if target >= 0 {
		if m := MoveLeft + Action(a.first[target]); ok(m) {
			return m, true
		}
	}
	if ok(Wait) {
		return Wait, true
	}
	for m := MoveLeft; m <= MoveDown; m++ {
		if ok(m) {
			return m, true
		}
	}
	return Wait, false
}

// moves reports whether seat plays now: the game goes on, its player is
// alive, and the move is the seat's (or every seat's).
func moves(g *Game, seat int) bool {
	t := g.ToMove()
	return (t < 0 || t == seat) && !g.Done() && g.Player(seat).Alive
}

// shop returns the upgrade to buy now ([Greedy.nextBuy]) and counts it,
// when p, seat's player, has the coins and keeps an escape after buying it
// ([Greedy.safeAfter]); false when it buys nothing.
func (a *Greedy) shop(g *Game, seat int, p Player) (Action, bool) {
	if p.Coins < UpgradePrice {
		return Wait, false
	}
	buy := a.nextBuy(p)
	if !a.safeAfter(g, seat, buy) {
		return Wait, false
	}
	a.bought++
	return buy, true
}

func (a *Greedy) nextBuy(p Player) Action {
	switch {
	case p.BombPierce < 1:
		return BuyPierce
	case p.BombCount < 2 && a.bought < 3:
		return BuyCount
	}
	return [3]Action{BuyRange, BuyPierce, BuyCount}[a.bought%3]
}

// walkable reports whether a player could step onto (x, y) in g now.
func walkable(g *Game, seat, x, y int) bool {
	n := g.Size()
	if x < 0 || y < 0 || x >= n || y >= n || g.Hard(x, y) || g.Soft(x, y) {
		return false
	}
	if _, _, ok := g.Bomb(x, y); ok {
		return false
	}
	o := g.Player(1 - seat)
	return !(o.X == x && o.Y == y)
}

// paths fills dist and first (the first step's direction) by breadth-first
// search from cell from, through cells the forecast does not mark deadly at
// the next round end; with portals, a step into a portal lands where the
// partner portal lets out ([step]).
func (a *Greedy) paths(g *Game, seat, from int, portals bool) {
	n := g.Size()
	for i := range n * n {
		a.dist[i] = -1
	}
	g.Forecast(a.fc[:], 2)
	a.dist[from] = 0
	a.queue[0] = uint16(from)
	head, tail := 0, 1
	for head < tail {
		c := int(a.queue[head])
		head++
		for d := range 4 {
			i := step(g, seat, c, d, portals)
			if i < 0 || a.dist[i] >= 0 || a.fc[i]&1 != 0 {
				continue
			}
			a.dist[i] = a.dist[c] + 1
			if c == from {
				a.first[i] = int8(d)
			} else {
				a.first[i] = a.first[c]
			}
			a.queue[tail] = uint16(i)
			tail++
		}
	}
}

// blastValue scores a bomb of seat at (x, y) with the arms as they would go
// now, portals ignored: 10 for reaching the opponent, plus the value of
// each soft block reached.
func (a *Greedy) blastValue(g *Game, seat, x, y int) int {
	n := g.Size()
	p, o := g.Player(seat), g.Player(1-seat)
	v := 0
	for d := range 4 {
		cx, cy := x, y
		r, pierce, piercing := p.BombRange, p.BombPierce, false
		for r > 0 && !(piercing && pierce < 0) {
			cx, cy = cx+dirDX[d], cy+dirDY[d]
			if cx < 0 || cy < 0 || cx >= n || cy >= n {
				break
			}
			_, _, bomb := g.Bomb(cx, cy)
			switch {
			case o.Alive && o.X == cx && o.Y == cy:
				v += 10
				piercing = true
			case g.Soft(cx, cy):
				if !g.HasTrail(cx, cy) {
					v += BlockValue(n, cx, cy)
				}
				piercing = true
			case g.Hard(cx, cy), bomb:
				piercing = true
			}
			if piercing {
				pierce--
			}
			r--
		}
	}
	return v
}

// safeAfter reports whether seat keeps an escape after playing m now,
// walking on walkable cells only ([Greedy.escapesAfter]).
func (a *Greedy) safeAfter(g *Game, seat int, m Action) bool {
	return a.escapesAfter(g, seat, m, false)
}

// escapesAfter reports whether seat, playing m now in g, stays alive and
// then either the game is over or a walk (through portals with
// throughPortals) escapes every blast and fire the forecast shows for the
// next greedyHorizon round ends, the other player standing still
// ([Greedy.canEscape]). It plays m on a's scratch copy of g.
func (a *Greedy) escapesAfter(g *Game, seat int, m Action, throughPortals bool) bool {
	a.scratch = *g
	s := &a.scratch
	a.play(s, seat, m)
	if !s.Player(seat).Alive {
		return false
	}
	return s.Done() || a.canEscape(s, seat, throughPortals)
}

// play makes seat's move m in s, the other seat waiting.
func (a *Greedy) play(s *Game, seat int, m Action) {
	clear(a.acts[:])
	a.acts[seat] = int32(m)
	s.Step(a.acts[:], a.rew[:], a.term[:], a.trunc[:])
}

// canEscape reports whether seat, alive in s, has a walk that avoids every
// cell at the round end it becomes deadly, for the next greedyHorizon round
// ends, the other player standing still; throughPortals lets the walk step
// through portals (Raider), else it keeps to walkable cells (Greedy). It
// uses a's forecast and reach scratch.
func (a *Greedy) canEscape(s *Game, seat int, throughPortals bool) bool {
	me := s.Player(seat)
	n := s.Size()
	s.Forecast(a.fc[:], greedyHorizon)
	// Moves of seat before the first forecast round end: one if it is its
	// turn again (or moves are simultaneous), else none.
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
					if j := step(s, seat, i, d, throughPortals); j >= 0 {
						next[j] = true
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
