package bomberman

import "github.com/botarena/botarena/env"

// Result returns the standings by the original's leaderboard (spec §6): a
// stable sort of the seats in registration order by alive first, points
// descending, then KilledRound ascending (so among dead players with equal
// points the one who died earlier ranks higher, the original's quirk, spec
// §12.3). Winner is the first entry's seat, as in the original, even when
// every player is dead; Draw reports that the first two entries tie on all
// three keys. Rounds is the number of rounds processed.
//
// It is meaningful at any time and final once [Game.Done]. It allocates the
// Standings slice; it is not safe for concurrent use with Step.
func (g *Game) Result() env.Result {
	var buf [MaxPlayers]int
	order := g.Leaderboard(buf[:0])
	winner, draw := g.Outcome()
	res := env.Result{
		Rounds:    g.round,
		Winner:    winner,
		Draw:      draw,
		Standings: make([]env.Standing, len(order)),
	}
	for i, s := range order {
		p := &g.players[s]
		res.Standings[i] = env.Standing{
			Seat:  s,
			Rank:  i + 1,
			Name:  p.Name,
			Score: float64(p.Points()),
			Alive: !p.Killed,
		}
	}
	return res
}

// Outcome returns Result's Winner and Draw without allocating: the first
// leaderboard entry's seat, and whether the first two entries tie on every
// ranking key.
func (g *Game) Outcome() (winner int, draw bool) {
	var buf [MaxPlayers]int
	order := g.Leaderboard(buf[:0])
	return order[0], len(order) > 1 && g.sameRank(order[0], order[1])
}

// Leaderboard appends the seats in leaderboard order (see [Game.Result]) to
// dst and returns the extended slice. It does not allocate when dst has
// room for [Game.Players] more seats.
func (g *Game) Leaderboard(dst []int) []int {
	start := len(dst)
	for s := range g.nPlayers {
		dst = append(dst, s)
	}
	// Stable insertion sort: at most 12 seats.
	seats := dst[start:]
	for i := 1; i < len(seats); i++ {
		for j := i; j > 0 && g.ranksBefore(seats[j], seats[j-1]); j-- {
			seats[j], seats[j-1] = seats[j-1], seats[j]
		}
	}
	return dst
}

// ranksBefore reports whether seat a ranks strictly before seat b.
func (g *Game) ranksBefore(a, b int) bool {
	pa, pb := &g.players[a], &g.players[b]
	if pa.Killed != pb.Killed {
		return !pa.Killed
	}
	if ra, rb := pa.Points(), pb.Points(); ra != rb {
		return ra > rb
	}
	return pa.KilledRound < pb.KilledRound
}

// sameRank reports whether seats a and b tie on every ranking key.
func (g *Game) sameRank(a, b int) bool {
	return !g.ranksBefore(a, b) && !g.ranksBefore(b, a)
}

// top returns the leaderboard's first seat: the earliest seat that no other
// seat ranks before.
func (g *Game) top() int {
	best := 0
	for s := 1; s < g.nPlayers; s++ {
		if g.ranksBefore(s, best) {
			best = s
		}
	}
	return best
}
