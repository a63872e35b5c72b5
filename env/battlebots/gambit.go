package battlebots

import "github.com/botarena/botarena/env"

// gambitRounds bounds the opening: after this many rounds, or once its shot
// is fired and it has stepped off the line, the gambit plays as the duelist.
const gambitRounds = 8

// Gambit is a BattleBots bot that plays an opening against bots that look
// one round ahead (the duelist), then plays as the [Duelist]. It sees what
// the duelist sees.
//
// The opening: while the enemy is more than 3 cells away (Chebyshev) it
// walks along the diagonal toward it, one step a round, when the cell is
// safe from the projectiles in flight; once the enemy stands on its row,
// column or diagonal at distance 2 or 3 and its own cell is safe, it fires
// a bullet at it (3 cells a round: it hits in the same round unless the
// enemy moves off the line, where a missile fired back, 2 cells a round,
// stops short); the next round it steps to the safest neighbouring cell
// off every line through the enemy. A one-round look-ahead that expects
// its enemy to keep walking or to fire a missile stands still on the line
// to fire, so the bullet often lands first; one hit ahead, the duelist's
// stand-off off the lines keeps the lead. The opening ends after
// gambitRounds rounds whatever happened. Moves are never taken while
// paralysed.
//
// The duelist inside it is stepped every round, so its opponent models
// see the whole bout; its record of its own last action is the action the
// gambit played. Not safe for concurrent use; Act does not allocate.
type Gambit struct {
	d Duelist
	// fired: the opening's shot is out; stepped: it has stepped off the
	// line after it (the opening is over).
	fired, stepped bool
}

// Reset seeds the gambit's duelist and starts a new opening.
func (a *Gambit) Reset(e env.Env, seat int, seed uint64) {
	a.d.Reset(e, seat, seed)
	a.fired, a.stepped = false, false
}

// Act returns the gambit's action for seat.
func (a *Gambit) Act(e env.Env, seat int) int32 {
	g := battlebotsGame(e)
	act := a.d.Act(e, seat) // the duelist's choice; it keeps its models current
	if g.Done() || a.stepped || g.Round() >= gambitRounds {
		return act
	}
	if own := a.opening(g, seat); own >= 0 {
		a.d.myLast = Action(own)
		return own
	}
	return act
}

// opening returns the opening's action for seat, or -1 to leave the round
// to the duelist.
func (a *Gambit) opening(g *Game, seat int) int32 {
	var danger [Cells]int
	sniperDanger(g, &danger)
	me, en := g.Bot(seat), g.Bot(1-seat)
	free := g.Paralysed() == 0
	if a.fired {
		a.stepped = true
		if !free {
			return -1
		}
		best, bestDanger := int32(-1), danger[me.Y*Side+me.X]
		for d := range Dir(NumDirs) {
			x, y := me.X+dirDX[d], me.Y+dirDY[d]
			if !g.InBounds(x, y) || (x == en.X && y == en.Y) {
				continue
			}
			if _, aligned := lineTo(x, y, en.X, en.Y); aligned {
				continue
			}
			if v := danger[y*Side+x]; best < 0 || v < bestDanger {
				best, bestDanger = int32(Move(d)), v
			}
		}
		return best
	}
	n := dist(me.X, me.Y, en.X, en.Y)
	if danger[me.Y*Side+me.X] == 0 {
		if d, ok := lineTo(me.X, me.Y, en.X, en.Y); ok && n >= 2 && n <= 3 {
			a.fired = true
			return int32(Bullet(d))
		}
	}
	if n <= 3 || !free {
		return -1
	}
	d := dirOf(sign(en.X-me.X), sign(en.Y-me.Y))
	x, y := me.X+dirDX[d], me.Y+dirDY[d]
	if !g.InBounds(x, y) || danger[y*Side+x] > 0 {
		return -1
	}
	return int32(Move(d))
}
