package battleships

import "github.com/botarena/botarena/env"

// Result returns the standings by the original's leaderboard (spec §7): a
// stable sort of A, B by alive first, points descending, first landed hit
// ascending (never last), failed placements ascending. Winner is the first
// entry, as in the original, which never declares a draw; Draw reports a
// tie on every key (the original names A). It allocates the Standings.
func (g *Game) Result() env.Result {
	w, draw := g.Outcome()
	res := env.Result{Rounds: g.round, Winner: w, Draw: draw, Standings: make([]env.Standing, Seats)}
	for i, s := range [Seats]int{w, 1 - w} {
		p := &g.players[s]
		res.Standings[i] = env.Standing{Seat: s, Rank: i + 1, Name: p.Name, Score: float64(p.Points), Alive: !p.Killed}
	}
	return res
}

// Outcome returns Result's Winner and Draw without allocating.
func (g *Game) Outcome() (winner int, draw bool) {
	if g.ranksBefore(1, 0) {
		return 1, false
	}
	return 0, !g.ranksBefore(0, 1)
}

func (g *Game) ranksBefore(a, b int) bool {
	pa, pb := &g.players[a], &g.players[b]
	if pa.Killed != pb.Killed {
		return !pa.Killed
	}
	if pa.Points != pb.Points {
		return pa.Points > pb.Points
	}
	fa, fb := uint(pa.FirstShotLanded), uint(pb.FirstShotLanded) // -1 (never) sorts last
	if fa != fb {
		return fa < fb
	}
	return pa.Failed < pb.Failed
}
