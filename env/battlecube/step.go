package battlecube

// Step processes one tick in the original server's order (spec §3) and
// writes each seat's reward and flags. It implements [env.Env.Step]:
//
//   - actions, rewards, terminated and truncated have one element per seat;
//     a wrong length panics.
//   - Each action is the task the seat carries out in this tick: NOOP, a
//     move, or a bomb on a cube cell. Out-of-range actions stand for a
//     rejected reply ([RejectAmount], [RejectSchema], [RejectConnection]):
//     the seat is lost in this tick's ask phase; or for an accepted task
//     outside those ([CrashMove], [BombNowhere], [Idle], [StrayMove]),
//     carried out at the seat's turn. They count in [Game.Invalid].
//     Actions of seats no longer in play are ignored.
//   - Rewards: −1 to a seat in the tick it is lost; when the game ends, +1
//     to the winner (WINNER_FOUND) and 0 to the bots still in play at the
//     tick limit (TIE). terminated is true for lost seats and for every
//     seat once the game ends, except that the bots in play when the tick
//     limit ends it are truncated instead.
//   - Stepping a game that is Done writes zero rewards and the final flags.
//
// Step never allocates. It is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	g.spec.CheckStep(actions, rewards, terminated, truncated)
	if g.done {
		clear(rewards[:g.n])
		g.writeFlags(terminated, truncated)
		return
	}
	g.beginState()
	g.lostFrom = g.nLost
	g.removeExplodedBombs()
	g.nGroups = 0
	g.startTick()
	if g.cycleMarks && g.SubTick() == 1 {
		g.recordCycleStarts()
	}
	g.askPhase(actions)
	g.applyTasks(actions)
	if g.history {
		g.countHistory()
	}
	g.findCollisions()
	g.removeFromPlay()
	g.statusCheck()
	g.endTest()
	g.tick++
	if g.done {
		g.record(event{kind: evGameEnded})
	} else {
		g.clearExplodedCells()
	}
	g.writeRewards(rewards)
	g.writeFlags(terminated, truncated)
}

// removeExplodedBombs deletes every bomb on the cell of a collision with a
// bomb in the previous tick (the original's removeExplodedBombs), keeping
// the order of the rest.
func (g *Game) removeExplodedBombs() {
	if g.nGroups == 0 {
		return
	}
	k := 0
	for _, it := range g.items {
		if g.explodedIn(it) {
			if !g.inCube(int(it.X), int(it.Y), int(it.Z)) {
				g.outside--
			}
			continue
		}
		g.items[k] = it
		k++
	}
	g.items = g.items[:k]
}

// explodedIn reports whether it lies on the cell of one of the recorded
// collision groups with a bomb.
func (g *Game) explodedIn(it Item) bool {
	for i := range g.nGroups {
		gr := &g.groups[i]
		if gr.hasBomb && int(it.X) == gr.x && int(it.Y) == gr.y && int(it.Z) == gr.z {
			return true
		}
	}
	return false
}

// clearExplodedCells takes the bombs of this tick's bomb collisions off the
// cube grid at once, so that observations between ticks show what the next
// tick's NEXT_TICK will; the items list keeps them until then.
func (g *Game) clearExplodedCells() {
	for i := range g.nGroups {
		gr := &g.groups[i]
		if gr.hasBomb && g.inCube(gr.x, gr.y, gr.z) {
			c := g.index(gr.x, gr.y, gr.z)
			g.setBombIn(c, false)
			g.bombSet(c)
		}
	}
}

// startTick records the tick info (NEXT_TICK): the positions in play and
// the items, as they are now.
func (g *Game) startTick() {
	g.nEvents = 0
	g.snapTick = g.tick
	g.snapItems = len(g.items)
	for s := range g.n {
		p := &g.players[s]
		t := &g.seatTick[s]
		t.inPlay, t.stray = p.InPlay, p.nStray
		t.pos = [3]int32{int32(p.X), int32(p.Y), int32(p.Z)}
	}
	g.record(event{kind: evNextTick})
}

// loseNow adds seat to lostPlayers (unless it is there) with highScore =
// currentTick and cause.
func (g *Game) loseNow(s int, cause Cause) {
	p := &g.players[s]
	if p.Lost {
		return
	}
	p.Lost, p.Cause, p.HighScore, p.lostOrder = true, cause, g.tick, uint8(g.nLost)
	g.lost[g.nLost] = uint8(s)
	g.nLost++
}

// askPhase handles the replies: a seat in play whose action stands for a
// reply the server rejects is lost at once (its position stays in the
// list for this tick's collisions). Every out-of-range action counts in
// Invalid.
func (g *Game) askPhase(actions []int32) {
	na := int32(NumFixedActions) + int32(g.cells) // Spec().Actions
	for s, a := range actions[:g.n] {
		if a >= 0 && a < na || !g.players[s].InPlay {
			continue
		}
		g.invalid[s]++
		cause := CauseAmount
		switch Action(a) {
		case RejectSchema:
			cause = CauseSchema
		case RejectConnection:
			cause = CauseConnection
		case CrashMove, BombNowhere, Idle:
			continue // accepted; carried out at the bot's turn
		}
		if _, ok := StrayUnit(Action(a)); ok {
			continue
		}
		g.record(event{kind: evLost, seat: uint8(s), cause: cause})
		g.loseNow(s, cause)
	}
}

// applyTasks carries out each task in player order, skipping lost bots.
func (g *Game) applyTasks(actions []int32) {
	for s := range g.n {
		p := &g.players[s]
		if !p.InPlay || p.Lost {
			continue
		}
		a := Action(actions[s])
		switch {
		case a == Noop:
			g.record(event{kind: evDidNothing, seat: uint8(s), x: int32(p.X), y: int32(p.Y), z: int32(p.Z)})
		case a > Noop && a < NumFixedActions:
			d := moveDelta[a]
			p.X, p.Y, p.Z = p.X+d[0], p.Y+d[1], p.Z+d[2]
			g.record(event{kind: evMoveAttempt, seat: uint8(s), x: int32(p.X), y: int32(p.Y), z: int32(p.Z)})
			if !g.inCube(p.X, p.Y, p.Z) {
				g.loseNow(s, CauseOutOfBounds)
				g.record(event{kind: evLost, seat: uint8(s), cause: CauseOutOfBounds})
			}
		case a >= NumFixedActions:
			x, y, z, _ := BombCell(g.edge, a)
			g.placeBomb(x, y, z)
			g.record(event{kind: evPlacedBomb, seat: uint8(s), x: int32(x), y: int32(y), z: int32(z)})
		case a == CrashMove:
			// moveBot throws before PLAYER_MOVE_ATTEMPT; the catch loses
			// the bot now, with the TypeError as cause.
			g.record(event{kind: evLost, seat: uint8(s), cause: CauseTypeError})
			g.loseNow(s, CauseTypeError)
		case a == BombNowhere:
			g.placeBomb(int(nowhere.X), int(nowhere.Y), int(nowhere.Z))
			g.record(event{kind: evPlacedBomb, seat: uint8(s), x: nowhere.X, y: nowhere.Y, z: nowhere.Z})
		default:
			if unit, ok := StrayUnit(a); ok {
				if !g.hasStray(s, unit) && int(p.nStray) < MaxStrayKeys {
					g.strays[s][p.nStray] = uint32(unit)
					p.nStray++
				}
				g.record(event{kind: evMoveAttempt, seat: uint8(s), x: int32(p.X), y: int32(p.Y), z: int32(p.Z)})
			}
			// Idle: nothing, no event.
		}
	}
}

// placeBomb adds a bomb on (x, y, z) unless one is already there.
func (g *Game) placeBomb(x, y, z int) {
	if g.inCube(x, y, z) {
		i := g.index(x, y, z)
		if g.bombIn(i) {
			return
		}
		g.setBombIn(i, true)
		g.bombSet(i)
		g.items = append(g.items, Item{int32(x), int32(y), int32(z)})
		return
	}
	if g.bombOutside(x, y, z) || g.outside >= MaxOutsideBombs {
		return
	}
	g.outside++
	g.items = append(g.items, Item{int32(x), int32(y), int32(z)})
}

// bombOutside reports whether a bomb lies on (x, y, z) outside the cube.
func (g *Game) bombOutside(x, y, z int) bool {
	if g.outside == 0 {
		return false
	}
	for _, it := range g.items {
		if int(it.X) == x && int(it.Y) == y && int(it.Z) == z {
			return true
		}
	}
	return false
}

// bombOn reports whether the current items hold a bomb on (x, y, z).
func (g *Game) bombOn(x, y, z int) bool {
	if g.inCube(x, y, z) {
		return g.bombIn(g.index(x, y, z))
	}
	return g.bombOutside(x, y, z)
}

// findCollisions groups, by cell, every position in the list (bots lost in
// this tick included) that shares its cell with another position or with a
// bomb.
func (g *Game) findCollisions() {
	shared := g.sharedCells()
	for s := range g.n {
		p := &g.players[s]
		if !p.InPlay {
			continue
		}
		hasBomb := g.bombOn(p.X, p.Y, p.Z)
		if !hasBomb && shared>>s&1 == 0 {
			continue
		}
		gi := -1
		for i := range g.nGroups {
			gr := &g.groups[i]
			if gr.x == p.X && gr.y == p.Y && gr.z == p.Z {
				gi = i
				break
			}
		}
		if gi < 0 {
			gi = g.nGroups
			g.nGroups++
			g.groups[gi] = group{x: p.X, y: p.Y, z: p.Z, hasBomb: hasBomb}
		}
		gr := &g.groups[gi]
		gr.members[gr.n] = uint8(s)
		gr.n++
	}
}

// sharedCells returns the seats whose position in the list another
// position in the list has: bit s for seat s. A position is compared with
// those before it only when one of them fell in its bucket of 64.
func (g *Game) sharedCells() uint64 {
	var m, seen uint64 // seen: bit b for every bucket b of the positions so far
	ps := g.players[:g.n]
	for s := range ps {
		p := &ps[s]
		if !p.InPlay {
			continue
		}
		bit := uint64(1) << (uint(p.X^p.Y<<2^p.Z<<4) % 64)
		if seen&bit != 0 {
			for o := range ps[:s] {
				if q := &ps[o]; q.InPlay && q.X == p.X && q.Y == p.Y && q.Z == p.Z {
					m |= 1<<s | 1<<o
				}
			}
		}
		seen |= bit
	}
	return m
}

// removeFromPlay takes collision members and the bots lost in this tick
// out of the list (those lost before are out already).
func (g *Game) removeFromPlay() {
	for i := range g.nGroups {
		gr := &g.groups[i]
		for _, s := range gr.members[:gr.n] {
			g.players[s].InPlay = false
		}
	}
	for _, s := range g.lost[g.lostFrom:g.nLost] {
		g.players[s].InPlay = false
	}
}

// statusCheck emits PLAYER_LOST for every collision member, group by
// group, and adds it to lostPlayers unless it is there.
func (g *Game) statusCheck() {
	for i := range g.nGroups {
		gr := &g.groups[i]
		cause := CauseCrash
		if gr.hasBomb {
			cause = CauseBomb
		}
		for _, s := range gr.members[:gr.n] {
			g.record(event{kind: evLost, seat: s, cause: cause})
			g.loseNow(int(s), cause)
		}
	}
}

// endTest ends the game when every player is lost, exactly one is in play,
// or this is tick maxNumOfTicks-1.
func (g *Game) endTest() {
	inPlay := g.InPlay()
	switch {
	case g.nLost == g.n || inPlay == 1:
		g.done = true
	case g.tick == g.maxTicks-1:
		g.done = true
		g.truncatedEnd = inPlay > 1
	}
	g.winnerFound = g.done && inPlay == 1
}

// writeRewards writes this tick's rewards (see [RewardDefinition]): −1
// to the seats lost in it, +1 to the winner.
func (g *Game) writeRewards(rewards []float32) {
	rewards = rewards[:g.n]
	clear(rewards)
	for _, s := range g.lost[g.lostFrom:g.nLost] {
		rewards[s] = -1
	}
	if g.winnerFound { // the one bot in play
		for s := range rewards {
			if g.players[s].InPlay {
				rewards[s] = 1
			}
		}
	}
}

// writeFlags writes each seat's terminated and truncated flags: the lost
// seats are terminated; once the game is done the others are truncated
// when the tick limit ended it with more than one bot in play, terminated
// otherwise.
func (g *Game) writeFlags(terminated, truncated []bool) {
	terminated, truncated = terminated[:g.n], truncated[:g.n]
	endTerm, endTrunc := g.done && !g.truncatedEnd, g.done && g.truncatedEnd
	players := g.players[:len(terminated)]
	for s := range players {
		lost := players[s].Lost
		terminated[s], truncated[s] = endTerm || lost, endTrunc && !lost
	}
}
