package battlebots

import "github.com/botarena/botarena/env"

// Result returns the bout's standings by the original's rule (spec §2): the
// bot with the higher HP wins; equal HP, both below 1 included, is a draw
// (Winner -1, Draw true), and the standings then keep seat order. Score is
// the HP (which may be below 0), Alive reports HP ≥ 1. Rounds is the number
// of rounds played. It allocates the Standings slice.
func (g *Game) Result() env.Result {
	winner, draw := g.Outcome()
	first := 0
	if winner == 1 {
		first = 1
	}
	res := env.Result{Rounds: g.round, Winner: winner, Draw: draw, Standings: make([]env.Standing, 2)}
	for rank, seat := range [2]int{first, 1 - first} {
		res.Standings[rank] = env.Standing{
			Seat:  seat,
			Rank:  rank + 1,
			Name:  g.names[seat],
			Score: float64(g.bots[seat].HP),
			Alive: g.bots[seat].HP >= 1,
		}
	}
	return res
}

// Outcome returns Result's Winner and Draw without allocating: the seat
// with the higher HP, or -1 and true on equal HP.
func (g *Game) Outcome() (winner int, draw bool) {
	switch h1, h2 := g.bots[0].HP, g.bots[1].HP; {
	case h1 > h2:
		return 0, false
	case h2 > h1:
		return 1, false
	}
	return -1, true
}
