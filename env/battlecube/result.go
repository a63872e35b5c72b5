package battlecube

import "github.com/botarena/botarena/env"

// Score returns seat's highScore: the tick it was lost in, or, for a bot
// in play, currentTick (the ticks played, once the game is over).
func (g *Game) Score(seat int) int {
	p := &g.players[seat]
	if p.Lost {
		return p.HighScore
	}
	return g.tick
}

// Result returns the standings: the bots in play first (the winner, or the
// bots tied at the tick limit, in player order), then the lost bots by
// highScore descending, ties in the order they were lost. Score is the
// highScore, which a batch of games sums as the champion tie-break (spec
// §4). Winner is the WINNER_FOUND bot, else -1; Draw reports a finished
// game that ended in a TIE. It allocates the Standings slice.
func (g *Game) Result() env.Result {
	res := env.Result{Rounds: g.tick, Standings: make([]env.Standing, 0, g.n)}
	res.Winner, res.Draw = g.Outcome()
	var order [MaxPlayers]int
	k := 0
	for s := range g.n {
		if !g.players[s].Lost {
			order[k] = s
			k++
		}
	}
	start := k
	for i := g.nLost - 1; i >= 0; i-- {
		order[k] = int(g.lost[i])
		k++
	}
	// Stable insertion sort of the lost part by highScore descending; the
	// reversed loss order is undone for ties by sorting on lostOrder.
	lost := order[start:k]
	for i := 1; i < len(lost); i++ {
		for j := i; j > 0 && g.lostBefore(lost[j], lost[j-1]); j-- {
			lost[j], lost[j-1] = lost[j-1], lost[j]
		}
	}
	for i, s := range order[:k] {
		p := &g.players[s]
		res.Standings = append(res.Standings, env.Standing{
			Seat: s, Rank: i + 1, Name: p.Name, Score: float64(g.Score(s)), Alive: p.InPlay,
		})
	}
	return res
}

// lostBefore reports whether lost seat a ranks before lost seat b.
func (g *Game) lostBefore(a, b int) bool {
	pa, pb := &g.players[a], &g.players[b]
	if pa.HighScore != pb.HighScore {
		return pa.HighScore > pb.HighScore
	}
	return pa.lostOrder < pb.lostOrder
}

// Outcome returns Result's Winner and Draw without allocating.
func (g *Game) Outcome() (winner int, draw bool) {
	if !g.done {
		return -1, false
	}
	if g.winnerFound {
		for s := range g.n {
			if g.players[s].InPlay {
				return s, false
			}
		}
	}
	return -1, true
}
