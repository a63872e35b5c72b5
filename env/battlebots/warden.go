package battlebots

import "github.com/botarena/botarena/env"

// Warden's settings: what each HP it loses costs it on top of the HP
// difference while it is not behind, and the weight of the worst case
// then.
const (
	wardenCaution   = 50
	wardenWorstEven = 0.8
)

// Warden is a BattleBots bot that keeps what it has: the [Duelist] (it sees
// what the duelist sees) made cautious and given a model of its enemy,
// with an opening for seat 0.
//
//   - While its HP is at least the enemy's, each HP it would lose in the
//     coming round costs it 50 points on top of the duelist's 10 for the
//     HP difference (a trade is no longer even), and the worst case over
//     every enemy action weighs 0.8 of an action's value instead of 0.25.
//     Behind, it plays as the duelist. So it waits for the enemy's
//     mistakes (an EMP costs its user 1 HP) and does not trade them away.
//   - Two more opponent models: a shadow duelist in the enemy's seat
//     (quiet: no tie-breaking noise), whose choice the enemy is expected
//     to play, and the same with [Gambit]'s opening in the first rounds.
//     Like the others, each is weighted by how often it guessed the
//     enemy's past actions.
//   - From seat 0, the opening that gambit walks into: SE to (2,2) in
//     round 0; in round 1, if the enemy stands at (7,7) and nothing is in
//     flight, it waits; in round 2, if it stands at (2,2), the enemy at
//     (6,6) and nothing is in flight, a bullet SE, which hits an enemy
//     that walks the diagonal to (5,5) (3 cells a round). Any other board
//     leaves the round to the cautious duelist. From seat 1 it has no
//     opening.
//
// Deterministic for a seed (the shadow is quiet; the tie-breaks are the
// duelist's). Not safe for concurrent use; Act does not allocate.
type Warden struct {
	d, shadow Duelist
}

// Reset seeds the warden's duelist and resets its shadow.
func (a *Warden) Reset(e env.Env, seat int, seed uint64) {
	a.d.Reset(e, seat, seed)
	a.shadow.Reset(e, 1-seat, seed)
	a.shadow.quiet = true
	a.d.shadow = &a.shadow
	a.d.caution, a.d.worstEven = wardenCaution, wardenWorstEven
}

// Act returns the warden's action for seat.
func (a *Warden) Act(e env.Env, seat int) int32 {
	g := battlebotsGame(e)
	act := a.d.Act(e, seat) // the duelist's choice; it keeps its models current
	if g.Done() || seat != 0 {
		return act
	}
	if own := wardenOpening(g); own >= 0 {
		a.d.myLast = Action(own)
		return own
	}
	return act
}

// wardenOpening returns seat 0's opening action, or -1 to leave the round
// to the duelist.
func wardenOpening(g *Game) int32 {
	me, en := g.Bot(0), g.Bot(1)
	quiet := g.NumBullets() == 0 && g.NumMissiles() == 0 && g.Paralysed() == 0
	switch g.Round() {
	case 0:
		return int32(Move(SE))
	case 1:
		if quiet && me.X == 2 && me.Y == 2 && en.X == 7 && en.Y == 7 {
			return int32(Nothing)
		}
	case 2:
		if quiet && me.X == 2 && me.Y == 2 && en.X == 6 && en.Y == 6 {
			return int32(Bullet(SE))
		}
	}
	return -1
}
