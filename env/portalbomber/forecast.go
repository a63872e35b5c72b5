package portalbomber

// Forecast writes into dst (len ≥ n², index y*n + x) a bit mask per cell of
// the next round ends at which the cell will be deadly if nobody acts: bit
// k-1 is set when a trail or fire resolves there at the k-th round end from
// now, for k = 1..rounds (at most 16). Players are taken off the board for
// the forecast, so they shield nothing: the mask is conservative. Bots use
// it; it runs on a copy and does not change g. It does not allocate.
func (g *Game) Forecast(dst []uint16, rounds int) {
	n := g.n
	s := *g
	for p := range Seats {
		s.players[p].X, s.players[p].Y, s.players[p].Alive = -1, -1, true
	}
	s.state = stateInProgress
	clear(dst[:n*n])
	mark := func(bit uint16) {
		for i := range n * n {
			if s.cells[i].trailSeq != 0 {
				dst[i] |= bit
			}
		}
	}
	for k := range min(rounds, 16) {
		bit := uint16(1) << k
		mark(bit)
		if !s.cfg.Simultaneous && s.moveIterator == 1 {
			s.moveNumber++
		} else {
			s.moveNumber += Seats
		}
		s.roundEnd(nil)
		mark(bit)
	}
}
