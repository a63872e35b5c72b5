package battlebots

import "github.com/botarena/botarena/env"

// gambitRounds bounds the opening: from this round on the gambit plays as
// the duelist.
const gambitRounds = 8

// Gambit is a BattleBots bot that plays an opening against bots that look
// one round ahead (the duelist), then plays as the [Duelist]. It sees what
// the duelist sees.
//
// The opening, for the first gambitRounds rounds, a function of the bout
// as it stands (no memory of its own, so that a network without memory
// can learn it): when the enemy stands on its row, column or diagonal at
// distance 2 or 3 and its own cell is safe from the projectiles in flight,
// it fires a bullet at it (3 cells a round: it hits in the same round
// unless the enemy moves off the line, where a missile fired back, 2 cells
// a round, stops short); in line with the enemy and in danger, it steps to
// the safest neighbouring cell off every line through the enemy; while
// the enemy is more than 3 cells away (Chebyshev) and its own cell is
// safe, it walks along the diagonal toward it when that cell is safe too.
// In every other case the duelist decides. A one-round look-ahead that
// expects its enemy to keep walking or to fire a missile stands still on
// the line to fire, so the bullet often lands first; one hit ahead, the
// duelist's stand-off off the lines keeps the lead. Moves are never taken
// while paralysed.
//
// The duelist inside it is stepped every round, so its opponent models
// see the whole bout; its record of its own last action is the action the
// gambit played. Not safe for concurrent use; Act does not allocate.
type Gambit struct {
	d Duelist
}

// Reset seeds the gambit's duelist.
func (a *Gambit) Reset(e env.Env, seat int, seed uint64) { a.d.Reset(e, seat, seed) }

// Act returns the gambit's action for seat.
func (a *Gambit) Act(e env.Env, seat int) int32 {
	g := battlebotsGame(e)
	act := a.d.Act(e, seat) // the duelist's choice; it keeps its models current
	if g.Done() || g.Round() >= gambitRounds {
		return act
	}
	if own := gambitOpening(g, seat); own >= 0 {
		a.d.myLast = Action(own)
		return own
	}
	return act
}

// gambitOpening returns the opening's action for seat, or -1 to leave the
// round to the duelist.
func gambitOpening(g *Game, seat int) int32 {
	var danger [Cells]int
	sniperDanger(g, &danger)
	me, en := g.Bot(seat), g.Bot(1-seat)
	free := g.Paralysed() == 0
	here := danger[me.Y*Side+me.X]
	n := dist(me.X, me.Y, en.X, en.Y)
	if d, aligned := lineTo(me.X, me.Y, en.X, en.Y); aligned && n >= 2 && n <= 3 {
		if here == 0 {
			return int32(Bullet(d))
		}
		if !free {
			return -1
		}
		best, bestDanger := int32(-1), here
		for d := range Dir(NumDirs) {
			x, y := me.X+dirDX[d], me.Y+dirDY[d]
			if !g.InBounds(x, y) || (x == en.X && y == en.Y) {
				continue
			}
			if _, on := lineTo(x, y, en.X, en.Y); on {
				continue
			}
			if v := danger[y*Side+x]; v < bestDanger {
				best, bestDanger = int32(Move(d)), v
			}
		}
		return best
	}
	if n <= 3 || !free || here > 0 {
		return -1
	}
	d := dirOf(sign(en.X-me.X), sign(en.Y-me.Y))
	x, y := me.X+dirDX[d], me.Y+dirDY[d]
	if !g.InBounds(x, y) || danger[y*Side+x] > 0 {
		return -1
	}
	return int32(Move(d))
}
