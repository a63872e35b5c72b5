package vecenv

// outcomes counts finished episodes by outcome, and the invalid actions
// in them: those of one learner seat of one env (in a seatAcc), or of one
// env played against one opponent choice (oppChoice.acc). Only the worker
// owning the env writes it; Stats sums on read.
type outcomes struct{ episodes, wins, draws, losses, invalid int64 }

// add adds o's counts to sum.
func (sum *outcomes) add(o *outcomes) {
	sum.episodes += o.episodes
	sum.wins += o.wins
	sum.draws += o.draws
	sum.losses += o.losses
	sum.invalid += o.invalid
}

// seatAcc accumulates the finished episodes of one learner seat of one env:
// their outcomes, lengths and returns.
type seatAcc struct {
	outcomes
	steps int64
	ret   float64
}

// Stats are the episode statistics of a pool since creation or the last
// [Pool.ResetStats]: one entry per learner seat, summed over every env.
// Episodes dropped by [Pool.Reset] before they ended are not counted.
type Stats struct {
	// Seats holds one entry per learner seat, in LearnerSeats order.
	Seats []SeatStats
	// Opponents holds one entry per choice of every opponent seat's
	// mixture (see [Pool.SetOpponents]), by seat and then in the order
	// the choices were first given; a choice removed from its mixture is
	// listed until ResetStats once its opponents are closed, and as long
	// as they play.
	Opponents []OpponentStats
	// Invalid is the number of invalid actions of the learner seats in the
	// completed episodes, summed over seats and episodes: each seat's
	// [env.Env.Invalid] at the step its episode ended (see
	// [Stats.MeanInvalid]).
	Invalid int64
}

// MeanInvalid returns Invalid / Episodes(): the learner seats' invalid
// actions per completed episode, or 0 with no episodes.
func (s Stats) MeanInvalid() float64 {
	if n := s.Episodes(); n > 0 {
		return float64(s.Invalid) / float64(n)
	}
	return 0
}

// OpponentStats are the results of the learner seats, over the completed
// episodes of every env, against one choice of one opponent seat: the
// episodes whose opponent at Seat was drawn from the choice Name. An
// episode is a win when a learner seat is the winner, a draw when the game
// ended in a draw (as for [SeatStats]), and a loss otherwise; with one
// learner seat these are that seat's outcomes. In a pool without learner
// seats only Episodes, Draws and Invalid are counted.
type OpponentStats struct {
	Seat     int     // the opponent seat
	Name     string  // the choice's name
	Weight   float64 // its weight in the seat's mixture now (0 once removed)
	Episodes int64
	Wins     int64
	Draws    int64
	Losses   int64
	// Invalid is the number of invalid actions ([env.Env.Invalid]) of the
	// opponent seat itself, summed over these episodes: how often the
	// choice's agent played what the game treats as invalid or illegal.
	Invalid int64
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
//   - the episode reached Config.MaxEpisodeSteps: as if the game were
//     over, with its standings at that point;
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
		var sum seatAcc
		for i := range p.slots {
			a := &p.acc[i*L+k]
			sum.add(&a.outcomes)
			sum.steps += a.steps
			sum.ret += a.ret
		}
		st.Seats[k] = SeatStats{Seat: seat, Episodes: sum.episodes, Steps: sum.steps, Return: sum.ret, Wins: sum.wins, Draws: sum.draws, Losses: sum.losses}
		st.Invalid += sum.invalid
	}
	for j := range p.mixes {
		m := &p.mixes[j]
		for _, ch := range m.choices {
			var sum outcomes
			for i := range ch.acc {
				sum.add(&ch.acc[i])
			}
			st.Opponents = append(st.Opponents, OpponentStats{Seat: m.seat, Name: ch.name, Weight: ch.weight,
				Episodes: sum.episodes, Wins: sum.wins, Draws: sum.draws, Losses: sum.losses, Invalid: sum.invalid})
		}
	}
	return st
}

// ResetStats sets the statistics back to zero. Episodes in progress count
// in full when they end. Choices removed from their mixture whose
// opponents are closed are dropped from [Stats.Opponents].
func (p *Pool) ResetStats() {
	clear(p.acc)
	for j := range p.mixes {
		for _, ch := range p.mixes[j].choices {
			clear(ch.acc)
		}
	}
	p.compactChoices()
}

// record adds env i's ended episode to its accumulators. done reports that
// the game is over or capped (rather than every learner seat being out).
func (p *Pool) record(s *slot, i int, done bool) {
	winner, draw := s.e.Outcome()
	draw = draw && done
	L := len(p.learners)
	for k, seat := range p.learners {
		a := &p.acc[i*L+k]
		a.episodes++
		a.steps += int64(s.steps)
		a.ret += p.ret[i*L+k]
		a.invalid += int64(s.e.Invalid(seat))
		switch {
		case draw:
			a.draws++
		case winner == seat:
			a.wins++
		default:
			a.losses++
		}
	}
	p.recordChoices(s.e, i, winner, draw)
}
