package portalbomber

import "github.com/botarena/botarena/env"

// Result returns the standings by the original's victory check: the player
// alive when the other died wins; both dead is a tie (Winner -1, Draw). A
// game still in progress (or truncated) has no winner: Winner -1, Draw true,
// seats in seat order. Score is the seat's coins. Rounds counts the
// original's rounds, two moves each (moveNumber / 2).
//
// It allocates the Standings slice; it is not safe for concurrent use with
// Step.
func (g *Game) Result() env.Result {
	winner, draw := g.Outcome()
	res := env.Result{Rounds: g.Rounds(), Winner: winner, Draw: draw, Standings: make([]env.Standing, Seats)}
	order := [Seats]int{0, 1}
	if winner == 1 {
		order = [Seats]int{1, 0}
	}
	for i, s := range order {
		p := g.Player(s)
		res.Standings[i] = env.Standing{Seat: s, Rank: i + 1, Name: seatName[s], Score: float64(p.Coins), Alive: p.Alive}
	}
	return res
}

var seatName = [Seats]string{"Player 0", "Player 1"}

// Outcome returns Result's Winner and Draw without allocating.
func (g *Game) Outcome() (winner int, draw bool) {
	if g.state == stateComplete && g.winner >= 0 {
		return int(g.winner), false
	}
	return -1, true
}
