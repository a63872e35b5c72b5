package vecenv

// seatAcc accumulates the finished episodes of one learner seat of one env.
// Only the worker owning the env writes it; Stats merges on read.
type seatAcc struct {
	episodes int64
	steps    int64
	ret      float64
	wins     int64
	draws    int64
	losses   int64
}

// Stats are the episode statistics of a pool since creation or the last
// [Pool.ResetStats]: one entry per learner seat, summed over every env.
// Episodes dropped by [Pool.Reset] before they ended are not counted.
type Stats struct {
	// Seats holds one entry per learner seat, in LearnerSeats order.
	Seats []SeatStats
}

// Episodes returns the number of episodes completed (by any env; each
// counts once, not once per learner seat).
func (s Stats) Episodes() int64 {
	if len(s.Seats) == 0 {
		return 0
	}
	return s.Seats[0].Episodes
}

// SeatStats are the statistics of one learner seat over the completed
// episodes of every env.
//
// The outcome of an episode for the seat comes from the env's
// [env.Env.Outcome] (Result's Winner and Draw, without allocating) at the
// step the episode ends:
//   - the episode ended because the game is over (Done): a draw when Draw
//     is true (whatever the seat's rank), otherwise a win when Winner is
//     the seat, otherwise a loss;
//   - the episode ended because every learner seat of the env was out
//     while the game played on: a win when Winner is the seat,
//     otherwise a loss (the game's Draw flag is provisional then and is
//     ignored).
//
// Wins + Draws + Losses == Episodes.
type SeatStats struct {
	Seat     int     // the seat
	Episodes int64   // episodes completed
	Steps    int64   // sum of the episode lengths, in env steps
	Return   float64 // sum of the episode returns (the seat's summed rewards)
	Wins     int64
	Draws    int64
	Losses   int64
}

// MeanReturn returns Return / Episodes, or 0 with no episodes.
func (s SeatStats) MeanReturn() float64 {
	if s.Episodes == 0 {
		return 0
	}
	return s.Return / float64(s.Episodes)
}

// MeanLength returns Steps / Episodes, or 0 with no episodes.
func (s SeatStats) MeanLength() float64 {
	if s.Episodes == 0 {
		return 0
	}
	return float64(s.Steps) / float64(s.Episodes)
}

// Stats returns the episode statistics so far. It merges per-env
// accumulators in env order, so the figures are identical for any worker
// count. It allocates the result; it is meant to be read now and then, not
// every step. Like every method, it must not run concurrently with Step.
func (p *Pool) Stats() Stats {
	L := len(p.learners)
	st := Stats{Seats: make([]SeatStats, L)}
	for k, seat := range p.learners {
		st.Seats[k].Seat = seat
	}
	for i := range p.slots {
		for k := range L {
			a := &p.acc[i*L+k]
			s := &st.Seats[k]
			s.Episodes += a.episodes
			s.Steps += a.steps
			s.Return += a.ret
			s.Wins += a.wins
			s.Draws += a.draws
			s.Losses += a.losses
		}
	}
	return st
}

// ResetStats sets the statistics back to zero. Episodes in progress count
// in full when they end.
func (p *Pool) ResetStats() { clear(p.acc) }

// record adds env i's ended episode to its accumulators. done reports that
// the game is over (rather than every learner seat being out).
func (p *Pool) record(s *slot, i int, done bool) {
	winner, draw := s.e.Outcome()
	draw = draw && done
	L := len(p.learners)
	for k, seat := range p.learners {
		a := &p.acc[i*L+k]
		a.episodes++
		a.steps += int64(s.steps)
		a.ret += p.ret[i*L+k]
		switch {
		case draw:
			a.draws++
		case winner == seat:
			a.wins++
		default:
			a.losses++
		}
	}
}
