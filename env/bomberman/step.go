package bomberman

import (
	"math/bits"
	"slices"
)

// bombTimerMultiplier is the original's BombTimerMultiplier setting: a new
// bomb's timer is min(9, multiplier × bag capacity) + 1 (spec §5.3).
const bombTimerMultiplier = 3

// noCommand marks a seat that sends no command this round (it was dead when
// the round started).
const noCommand Action = -1

// Step processes one round: the harness rules (spec §7.3) turn each seat's
// action into the command the original would have sent, then the round runs
// exactly as the original's round processor does (spec §4.2), and each
// seat's reward and flags are written. It implements [env.Env.Step]:
//
//   - actions, rewards, terminated and truncated have one element per seat;
//     a wrong length panics.
//   - Actions outside 0..6 are Do Nothing and count in [Game.Invalid];
//     commands the original rejects (a move into a wall, a bomb or off the
//     map, a plant with the bag used up or on a bomb, a trigger with no
//     bomb to trigger) do nothing and count too. Actions of dead seats are
//     ignored and not counted.
//   - Seats not in Config.ConsoleSeats follow the 20-do-nothing rule: at
//     the 20th consecutive do-nothing a bomb is planted instead, and after
//     the 21st the seat sends Trigger every round whatever its action.
//   - Rewards follow [RewardDefinition]; terminated is true for seats that
//     are dead and for every seat once the game ends by elimination;
//     truncated is true for the seats alive when the round cap ends it.
//   - Stepping a game that is Done writes zero rewards and the final flags.
//
// Step never allocates. It is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	n := g.nPlayers
	if len(actions) != n || len(rewards) != n || len(terminated) != n || len(truncated) != n {
		g.spec.CheckStep(actions, rewards, terminated, truncated) // panics
	}
	if g.done {
		clear(rewards[:n])
		g.writeFlags(terminated, truncated)
		return
	}
	g.beginDelta(false)
	if g.cfg.PointsReward != 0 {
		for s := range n {
			g.scratch.lastPoints[s] = g.players[s].Counter + g.players[s].Coverage // Points(), without copying the player
		}
	}
	var cmds [MaxPlayers]Action
	received := g.harness(actions, &cmds)
	g.processRound(&cmds, received)
	g.stepped()
	g.writeRewards(rewards)
	g.writeFlags(terminated, truncated)
}

// harness turns seats' actions into the commands the original's harness
// would send this round (spec §7.3) and returns how many commands the
// engine receives: one per seat alive at the start of the round. Dead seats
// get noCommand.
func (g *Game) harness(actions []int32, cmds *[MaxPlayers]Action) (received int) {
	for s := range g.nPlayers {
		p := &g.players[s]
		if p.Killed {
			cmds[s] = noCommand
			continue
		}
		received++
		console := g.cfg.isConsole(s)
		if !console && p.Idle > doNothingLimit {
			// The harness no longer runs the bot: Trigger every round.
			cmds[s] = TriggerBomb
			continue
		}
		a := Action(actions[s])
		if a < 0 || a >= NumActions {
			g.invalid[s]++
			a = DoNothing
		}
		if !console {
			if a == DoNothing {
				p.Idle++
			} else {
				p.Idle = 0
			}
			if p.Idle == doNothingLimit {
				a = PlaceBomb
			}
		}
		cmds[s] = a
	}
	return received
}

// processRound runs one round of the original's GameRoundProcessor with the
// given commands (noCommand for seats that send none), in its order (spec
// §4.2), then advances the round and checks for the end of the game.
// received is the number of commands the engine received; the second
// kill pass runs only when it is positive, as in the original.
func (g *Game) processRound(cmds *[MaxPlayers]Action, received int) {
	g.scratch.nKilled = 0
	g.scratch.nMoves = 0
	g.clearExplosions()
	g.tickTimers()
	exploded := g.detonateDue()
	if exploded {
		g.blasts = true
		g.markDestroy()
	}
	g.runCommands(cmds)
	g.resolveCollisions()
	g.executeMoves()
	if exploded && received > 0 {
		// A second pass for players who moved into a blast.
		g.markDestroy()
	}
	g.applyPowerUps()
	if exploded {
		g.destroyMarked()
		g.chainPoints()
		g.removeExploded()
	}
	g.updateCoverage()
	g.round++
	g.checkEnd()
}

// clearExplosions empties every cell's blast set and resets the round's
// destroy marks and chain graph.
func (g *Game) clearExplosions() {
	if g.blasts {
		if g.blastsListed {
			// Only reached cells are marked.
			for _, i := range g.scratch.blast[:g.scratch.nBlast] {
				c := &g.cells[i]
				c.reached, c.destroy = 0, false
			}
		} else {
			for i := range g.width * g.height {
				c := &g.cells[i]
				c.reached, c.destroy = 0, false
			}
		}
		g.blasts = false
	}
	// No cell is reached or marked now (without blasts, none was).
	g.scratch.nBlast, g.scratch.nMarked = 0, 0
	g.scratch.markedOver = false
	g.blastsListed = true
	// Only slots below bombHigh can be in this round's chain graph: bombs
	// planted later in the round do not explode in it.
	for b := range g.scratch.chain[:g.bombHigh] {
		g.scratch.chain[b] = uint8(b)
	}
}

// tickTimers takes 1 from the timer of every bomb on the map, dead owners'
// included.
func (g *Game) tickTimers() {
	for b := range g.bombHigh {
		if g.bombs[b].live {
			g.bombs[b].Timer--
		}
	}
}

// detonateDue detonates every bomb whose timer fell below 1, with its
// chain, and reports whether any bomb is exploding. The original scans the
// map row-major; the blast sets and the chain graph do not depend on the
// order (spec §4.3), so slots are scanned instead. A bomb already marked
// exploding (only possible in a loaded state) does not detonate again but
// is removed at the end of the round, as in the original.
func (g *Game) detonateDue() bool {
	exploded := false
	for b := range g.bombHigh {
		bb := &g.bombs[b]
		if !bb.live {
			continue
		}
		if bb.Exploding {
			exploded = true
		} else if bb.Timer < 1 {
			g.detonate(b)
			exploded = true
		}
	}
	return exploded
}

// rayDirs are the blast directions in the original's order: +x, −x, +y, −y.
var rayDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// detonate explodes bomb slot b (spec §4.3): it marks the cells its blast
// reaches, detonates at once every other bomb the blast reaches, and joins
// them in the chain graph. A bomb already exploding is left as it is.
func (g *Game) detonate(b int) {
	bomb := &g.bombs[b]
	if bomb.Exploding {
		return
	}
	bomb.Exploding = true
	bomb.points = 0
	bit := uint64(1) << b
	for _, d := range rayDirs {
		for k := 0; k <= bomb.Radius; k++ {
			x, y := bomb.X+d[0]*k, bomb.Y+d[1]*k
			if !g.InBounds(x, y) {
				break
			}
			i := g.index(x, y)
			c := &g.cells[i]
			if c.Entity == NoEntity {
				g.reach(c, i, bit)
			}
			if c.bomb != 0 && int(c.bomb-1) != b {
				other := int(c.bomb - 1)
				g.detonate(other)
				g.union(b, other)
				break
			}
			if c.Entity != NoEntity {
				if c.Entity == DestructibleWall || c.Entity == PlayerEntity {
					g.reach(c, i, bit)
				}
				if c.Entity != PlayerEntity {
					break // walls stop the blast; players do not
				}
			}
		}
	}
}

// reach adds bomb bit to cell i's reached set, listing the cell when it is
// its first blast of the round (or ending the list when it is full: see
// blastListLen).
func (g *Game) reach(c *Cell, i int, bit uint64) {
	if c.reached == 0 && g.blastsListed {
		if g.scratch.nBlast == len(g.scratch.blast) {
			g.blastsListed = false
		} else {
			g.scratch.blast[g.scratch.nBlast] = uint16(i)
			g.scratch.nBlast++
		}
	}
	c.reached |= bit
}

// find returns the root of bomb slot b in the chain graph.
func (g *Game) find(b int) int {
	ch := &g.scratch.chain
	for int(ch[b]) != b {
		ch[b] = ch[ch[b]]
		b = int(ch[b])
	}
	return b
}

// union joins the chain groups of bomb slots a and b.
func (g *Game) union(a, b int) {
	ra, rb := g.find(a), g.find(b)
	if ra != rb {
		g.scratch.chain[rb] = uint8(ra)
	}
}

// markDestroy is a kill/destroy pass: every exploding cell holding a
// destructible wall or a player is marked for destruction, and the player
// is marked killed in this round.
func (g *Game) markDestroy() {
	if !g.blastsListed {
		for i := range g.width * g.height {
			if g.cells[i].reached != 0 {
				g.markCell(i)
			}
		}
		return
	}
	// The order does not matter: marks and kills only accumulate.
	for _, i := range g.scratch.blast[:g.scratch.nBlast] {
		g.markCell(int(i))
	}
}

// markCell is markDestroy's work on exploding cell i.
func (g *Game) markCell(i int) {
	c := &g.cells[i]
	switch c.Entity {
	case DestructibleWall:
		g.mark(i)
	case PlayerEntity:
		g.mark(i)
		p := &g.players[c.Player]
		p.Killed = true
		p.KilledRound = g.round
	}
}

// mark marks cell i for destruction and lists it (or notes that the list
// is full: see blastListLen).
func (g *Game) mark(i int) {
	c := &g.cells[i]
	if c.destroy {
		return
	}
	c.destroy = true
	if g.scratch.nMarked == len(g.scratch.marked) {
		g.scratch.markedOver = true
		return
	}
	g.scratch.marked[g.scratch.nMarked] = uint16(i)
	g.scratch.nMarked++
}

// runCommands performs the commands in registration (seat) order. Plant and
// trigger act at once; moves are queued. Commands of players killed in this
// round's first kill pass are ignored.
func (g *Game) runCommands(cmds *[MaxPlayers]Action) {
	for s := range g.nPlayers {
		a := cmds[s]
		if a == noCommand || a == DoNothing || g.players[s].Killed {
			continue
		}
		var ok bool
		switch a {
		case MoveUp, MoveLeft, MoveRight, MoveDown:
			ok = g.requestMove(s, a)
		case PlaceBomb:
			ok = g.placeBomb(s)
		case TriggerBomb:
			ok = g.triggerBomb(s)
		}
		if !ok {
			g.invalid[s]++
		}
	}
}

// requestMove validates a move of seat in direction a and queues it. It
// rejects a target off the map, holding a wall, or holding a bomb (even one
// exploding this round), and a second move of the same seat in one round.
// A target holding a player is accepted here.
func (g *Game) requestMove(seat int, a Action) bool {
	p := &g.players[seat]
	x, y := p.X+moveDelta[a][0], p.Y+moveDelta[a][1]
	if !g.InBounds(x, y) {
		return false
	}
	c := &g.cells[g.index(x, y)]
	if (c.Entity != NoEntity && c.Entity != PlayerEntity) || c.bomb != 0 {
		return false
	}
	for i := range g.scratch.nMoves {
		if g.scratch.moves[i].seat == seat {
			return false
		}
	}
	g.scratch.moves[g.scratch.nMoves] = move{seat: seat, x: x, y: y}
	g.scratch.nMoves++
	return true
}

// placeBomb plants a bomb of seat on its cell (spec §5.3). It fails when
// the bag is used up (bombs exploding this round still count), when the
// cell already holds a bomb, or when every bomb slot is taken.
func (g *Game) placeBomb(seat int) bool {
	p := &g.players[seat]
	if g.countBombs(seat) >= p.BombBag {
		return false
	}
	i := g.index(p.X, p.Y)
	if g.cells[i].bomb != 0 {
		return false
	}
	b := g.freeBombSlot()
	if b < 0 {
		return false
	}
	g.putBomb(b, Bomb{
		Owner:  seat,
		X:      p.X,
		Y:      p.Y,
		Radius: p.BombRadius,
		Timer:  min(9, bombTimerMultiplier*p.BombBag) + 1,
	})
	return true
}

// triggerBomb sets the timer of seat's non-exploding bomb with the lowest
// timer to 1 (ties go to the first in row-major order). It fails when seat
// has no such bomb.
func (g *Game) triggerBomb(seat int) bool {
	best, bestIdx := -1, 0
	for b := range g.bombHigh {
		bb := &g.bombs[b]
		if !bb.live || bb.Owner != seat || bb.Exploding || bb.Timer < 1 {
			continue
		}
		idx := g.index(bb.X, bb.Y)
		if best < 0 || bb.Timer < g.bombs[best].Timer || (bb.Timer == g.bombs[best].Timer && idx < bestIdx) {
			best, bestIdx = b, idx
		}
	}
	if best < 0 {
		return false
	}
	g.bombs[best].Timer = 1
	return true
}

// resolveCollisions settles queued moves that want the same cell (spec
// §5.2): while any target is contested, every player in a contest rolls
// 0–99 (contested cells in order of first request, players in queue
// order), and the first lowest roll loses its move.
func (g *Game) resolveCollisions() {
	for {
		moves := g.scratch.moves[:g.scratch.nMoves]
		loser, lowest := -1, 101
		for i := range moves {
			if !g.firstContested(moves, i) {
				continue
			}
			for j := i; j < len(moves); j++ {
				if moves[j].x != moves[i].x || moves[j].y != moves[i].y {
					continue
				}
				if r := g.roll100(); r < lowest {
					loser, lowest = j, r
				}
			}
		}
		if loser < 0 {
			return
		}
		g.dropMove(loser)
	}
}

// firstContested reports whether moves[i] is the first request for its
// target and some later move wants the same cell.
func (g *Game) firstContested(moves []move, i int) bool {
	for j := range i {
		if moves[j].x == moves[i].x && moves[j].y == moves[i].y {
			return false
		}
	}
	for j := i + 1; j < len(moves); j++ {
		if moves[j].x == moves[i].x && moves[j].y == moves[i].y {
			return true
		}
	}
	return false
}

// roll100 draws a uniform integer in 0..99 from the game's generator
// (Lemire's unbiased multiply-shift).
func (g *Game) roll100() int {
	const n = 100
	const thresh = (1<<64 - n) % n // 2^64 mod n
	hi, lo := bits.Mul64(g.rng.Uint64(), n)
	if lo < n {
		for lo < thresh {
			hi, lo = bits.Mul64(g.rng.Uint64(), n)
		}
	}
	return int(hi)
}

// dropMove removes queued move i, keeping the order of the rest.
func (g *Game) dropMove(i int) {
	n := g.scratch.nMoves
	copy(g.scratch.moves[i:n-1], g.scratch.moves[i+1:n])
	g.scratch.nMoves = n - 1
}

// executeMoves carries out the queued moves (spec §5.2): repeatedly the
// first move whose target is empty (or else the first move) is taken; it
// fails if its target is occupied, otherwise the player moves and the new
// cell counts as touched.
func (g *Game) executeMoves() {
	for g.scratch.nMoves > 0 {
		pick := 0
		for i := range g.scratch.nMoves {
			m := g.scratch.moves[i]
			if g.cells[g.index(m.x, m.y)].Entity == NoEntity {
				pick = i
				break
			}
		}
		m := g.scratch.moves[pick]
		g.dropMove(pick)
		if g.cells[g.index(m.x, m.y)].Entity != NoEntity {
			continue
		}
		p := &g.players[m.seat]
		if fi := g.index(p.X, p.Y); g.cells[fi].Entity == PlayerEntity && int(g.cells[fi].Player) == m.seat {
			g.cells[fi].Entity = NoEntity
			g.cells[fi].Player = 0
			g.refreshStatic(fi)
		}
		g.placePlayer(m.seat, m.x, m.y)
		g.refreshStatic(g.index(m.x, m.y))
	}
}

// applyPowerUps gives every player standing on a power-up its effect and
// removes it, players marked dead this round included (spec §12.2).
func (g *Game) applyPowerUps() {
	for s := range g.nPlayers {
		p := &g.players[s]
		if !g.InBounds(p.X, p.Y) {
			continue
		}
		c := &g.cells[g.index(p.X, p.Y)]
		if c.Entity != PlayerEntity || int(c.Player) != s || c.PowerUp == NoPowerUp {
			continue
		}
		switch c.PowerUp {
		case BombBagPowerUp:
			p.BombBag++
		case BombRadiusPowerUp:
			p.BombRadius *= 2
		case SuperPowerUp:
			p.BombBag++
			p.BombRadius *= 2
			p.Counter += superPowerUpPoints
		}
		c.PowerUp = NoPowerUp
		g.refreshStatic(g.index(p.X, p.Y))
	}
}

// destroyMarked removes the marked entities row-major (spec §4.2 step 8): a
// player is killed and loses the bounty, and the owners of the bombs whose
// blasts reached it are its cause of death ([Game.DeathCause]); every bomb
// whose blast reached the cell earns the bounty for a player or 10 for a
// destructible wall.
func (g *Game) destroyMarked() {
	if g.scratch.markedOver {
		for i := range g.width * g.height {
			if g.cells[i].destroy {
				g.destroyCell(i)
			}
		}
		return
	}
	marked := g.scratch.marked[:g.scratch.nMarked]
	slices.Sort(marked) // row-major: a handful of cells
	for _, m := range marked {
		g.destroyCell(int(m))
	}
}

// destroyCell is destroyMarked's work on marked cell i.
func (g *Game) destroyCell(i int) {
	c := &g.cells[i]
	pts := 0
	switch c.Entity {
	case PlayerEntity:
		s := int(c.Player)
		p := &g.players[s]
		p.Killed = true
		p.Counter -= g.bounty
		g.killedBy[s] = g.killCause(s, c.reached)
		g.scratch.killed[g.scratch.nKilled] = uint8(s)
		g.scratch.nKilled++
		pts = g.bounty
		c.Player = 0
	case DestructibleWall:
		pts = wallPoints
	default:
		return
	}
	for m := c.reached; m != 0; m &= m - 1 {
		g.bombs[bits.TrailingZeros64(m)].points += pts
	}
	c.Entity = NoEntity
	g.refreshStatic(i)
}

// chainPoints gives each connected group of this round's chain graph its
// total points, in full, once to every distinct owner in the group who is
// not killed (spec §6).
func (g *Game) chainPoints() {
	var total [MaxBombs]int
	var owners [MaxBombs]uint16
	for b := range g.bombHigh {
		if bb := &g.bombs[b]; bb.live && bb.Exploding {
			r := g.find(b)
			total[r] += bb.points
			owners[r] |= 1 << bb.Owner
		}
	}
	for r := range owners[:g.bombHigh] { // roots are slots below bombHigh
		if owners[r] == 0 || total[r] == 0 {
			continue
		}
		for m := owners[r]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros16(m)
			if !g.players[s].Killed {
				g.players[s].Counter += total[r]
			}
		}
	}
}

// removeExploded takes every exploding bomb off the map; its owner's bag
// slot returns.
func (g *Game) removeExploded() {
	for b := range g.bombHigh {
		if bb := &g.bombs[b]; bb.live && bb.Exploding {
			g.cells[g.index(bb.X, bb.Y)].bomb = 0
			*bb = Bomb{}
		}
	}
	for g.bombHigh > 0 && !g.bombs[g.bombHigh-1].live {
		g.bombHigh--
	}
}

// updateCoverage recomputes the coverage points of every alive player:
// truncate(100 × touched / usable). Dead players keep their last value.
func (g *Game) updateCoverage() {
	if g.usable <= 0 {
		return
	}
	for s := range g.nPlayers {
		if p := &g.players[s]; !p.Killed {
			p.Coverage = int(float64(p.Touched) / float64(g.usable) * coverageMultiplier)
		}
	}
}

// alive returns the number of players not killed.
func (g *Game) alive() int {
	n := 0
	for s := range g.nPlayers {
		if !g.players[s].Killed {
			n++
		}
	}
	return n
}

// checkEnd ends the game when fewer than two players are alive, or, with
// two or more alive, once the round cap is passed (truncated).
func (g *Game) checkEnd() {
	switch {
	case g.alive() < 2:
		g.done, g.truncatedEnd = true, false
	case g.round > g.maxRound:
		g.done, g.truncatedEnd = true, true
	}
}

// killedThisStep reports whether seat was killed in the round just
// processed.
func (g *Game) killedThisStep(seat int) bool {
	for _, k := range g.scratch.killed[:g.scratch.nKilled] {
		if int(k) == seat {
			return true
		}
	}
	return false
}

// writeRewards writes this step's rewards (see [RewardDefinition]).
func (g *Game) writeRewards(rewards []float32) {
	if !g.done && g.scratch.nKilled == 0 && g.cfg.PointsReward == 0 {
		// The common round: nobody killed, no end, no shaping.
		clear(rewards[:g.nPlayers])
		return
	}
	top, tied := -1, 0
	if g.done {
		top = g.top()
		for s := range g.nPlayers {
			if g.sameRank(s, top) {
				tied++
			}
		}
	}
	for s := range g.nPlayers {
		p := &g.players[s]
		var r float32
		killedNow := g.killedThisStep(s)
		switch {
		case g.done && (!p.Killed || killedNow):
			switch {
			case tied > 1 && g.sameRank(s, top):
				r = 0
			case s == top:
				r = 1
			default:
				r = -1
			}
		case killedNow:
			r = -1
		}
		if g.cfg.PointsReward != 0 {
			r += g.cfg.PointsReward * float32(p.Points()-g.scratch.lastPoints[s])
		}
		rewards[s] = r
	}
}

// writeFlags writes each seat's terminated and truncated flags.
func (g *Game) writeFlags(terminated, truncated []bool) {
	for s := range g.nPlayers {
		dead := g.players[s].Killed
		terminated[s] = dead || (g.done && !g.truncatedEnd)
		truncated[s] = g.done && g.truncatedEnd && !dead
	}
}
