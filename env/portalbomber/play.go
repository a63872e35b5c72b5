package portalbomber

// Step applies one env step and writes each seat's reward and flags.
//
// With alternating moves (the default) a step is one move of the seat whose
// turn it is ([Game.ToMove]); the other seat's action is ignored, and
// counted as refused ([Game.Invalid]) unless it is 0, as the original
// refuses an out-of-turn submit without side effects. After the second move
// of a round the round end runs. With [Config.Simultaneous] a step is a
// round: both moves, then the round end (see the package doc).
//
// A non-zero action outside 0..NumActions-1 or marked 0 by [Game.WriteMask]
// (the invalid move, a move the engine carries out as a no-op for want of
// coins, bombs or an empty cell) counts in [Game.Invalid] as well.
//
// Rewards are terminal: +1 to the winner and −1 to the loser when the game
// ends, 0 to both on a tie or truncation. A wrong slice length panics. It
// never allocates; it is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	g.spec.CheckStep(actions, rewards, terminated, truncated)
	for s := range Seats {
		rewards[s] = 0
	}
	if g.Done() {
		g.writeFlags(terminated, truncated)
		return
	}
	if g.cfg.Simultaneous {
		g.round(actions)
	} else {
		seat := g.moveOrder[g.moveIterator]
		if actions[1-seat] != 0 {
			g.invalid[1-seat]++
		}
		g.apply(seat, Action(actions[seat]))
		g.moveNumber++
		g.moveIterator++
		if g.moveIterator >= Seats {
			g.roundEnd(nil)
		}
	}
	g.steps++
	if g.state == stateComplete {
		for s := range Seats {
			switch g.winner {
			case -1:
			case s:
				rewards[s] = 1
			default:
				rewards[s] = -1
			}
		}
	}
	g.writeFlags(terminated, truncated)
}

func (g *Game) writeFlags(terminated, truncated []bool) {
	for s := range Seats {
		terminated[s] = g.state != stateInProgress
		truncated[s] = g.state == stateInProgress && g.truncated()
	}
}

// round plays one simultaneous round, in the design document's order:
// purchases (seat order), portal shots (seat order), turns and moves (at
// once: two players aiming at one cell, or swapping cells, both stay; a
// player moving into a player who stays, stays), then the round end, with
// bombs placed after the bomb step and before the trail step.
func (g *Game) round(actions []int32) {
	var act [Seats]Action
	for s := range Seats {
		act[s] = Action(actions[s])
		if act[s] < 0 || act[s] >= NumActions || !g.legal(s, act[s]) {
			if act[s] != Wait {
				g.invalid[s]++
			}
			act[s] = Wait
		}
	}
	for s := range Seats {
		if act[s] >= BuyCount && act[s] <= BuyBlock {
			g.apply(s, act[s])
		}
	}
	for s := range Seats {
		if act[s] == OrangePortal || act[s] == BluePortal {
			g.apply(s, act[s])
		}
	}
	var moving [Seats]bool
	var tx, ty, td [Seats]int
	for s := range Seats {
		p := &g.players[s]
		switch a := act[s]; {
		case a >= TurnLeft && a <= TurnDown:
			p.Orientation = int(a - TurnLeft)
		case a >= MoveLeft && a <= MoveDown:
			moving[s] = true
		}
	}
	for s := range Seats {
		if !moving[s] {
			continue
		}
		// A player who also moves does not block the target.
		o := &g.players[1-s]
		ox, oy := o.X, o.Y
		if moving[1-s] {
			o.X, o.Y = -1, -1
		}
		d := int(act[s] - MoveLeft)
		p := &g.players[s]
		tx[s], ty[s], td[s] = g.simulateMovement(p.X, p.Y, d, 0)
		o.X, o.Y = ox, oy
		if tx[s] == p.X && ty[s] == p.Y {
			moving[s] = false
			p.Orientation = d
		}
	}
	bump := func(s int) {
		moving[s] = false
		g.players[s].Orientation = int(act[s] - MoveLeft)
	}
	if moving[0] && moving[1] {
		p0, p1 := &g.players[0], &g.players[1]
		same := tx[0] == tx[1] && ty[0] == ty[1]
		swap := tx[0] == p1.X && ty[0] == p1.Y && tx[1] == p0.X && ty[1] == p0.Y
		if same || swap {
			bump(0)
			bump(1)
		}
	}
	for range Seats {
		for s := range Seats {
			o := &g.players[1-s]
			if moving[s] && !moving[1-s] && tx[s] == o.X && ty[s] == o.Y {
				bump(s)
			}
		}
	}
	for s := range Seats {
		if moving[s] {
			p := &g.players[s]
			p.X, p.Y, p.Orientation = tx[s], ty[s], td[s]
		}
	}
	var place [Seats]bool
	for s := range Seats {
		place[s] = act[s] == PlaceBomb
	}
	g.moveNumber += Seats
	g.roundEnd(&place)
}
