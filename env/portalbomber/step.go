package portalbomber

// This file holds the rules: Step and its stages (an alternating move as
// the original's submit, or a simultaneous round), one move (apply), and the
// round end in the original's order (apocalypse, move order, bombs, trails,
// victory).

// Step applies one env step and writes each seat's reward and flags. It
// implements [env.Env.Step]:
//
//   - actions, rewards, terminated and truncated have one element per seat;
//     a wrong length panics.
//   - With alternating moves (the default) a step is one move of the seat
//     whose turn it is ([Game.ToMove]), as the original's submit (spec §4);
//     after the second move of a round the round end runs. The other seat's
//     action is ignored, and counted as refused ([Game.Invalid]) unless it
//     is 0, as the original refuses an out-of-turn submit without side
//     effects.
//   - With [Config.Simultaneous] a step is a round: purchases, portal
//     shots, turns and moves at once, then the round end (see the package
//     doc).
//   - Actions outside the action space, and actions the engine would not
//     carry out (mask 0: anything but Wait from a dead player, a bomb or a
//     purchase it cannot make, InvalidMove), do nothing and count in
//     [Game.Invalid]; Wait never counts.
//   - Rewards are terminal: +1 to the winner and −1 to the loser when the
//     game ends, 0 to both on a tie or truncation; with
//     [Config.CoinsReward], plus that times the coins each seat earned in
//     the step; with [Config.DangerReward], less that for each living seat
//     standing where the forecast puts fire. terminated is true for
//     both seats once the game is over, truncated for both once the round
//     cap ([Config.MaxRounds]) cuts a game in progress.
//   - Stepping a game that is Done writes zero rewards and the final flags.
//
// Step never allocates. It is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	if len(actions) != Seats || len(rewards) != Seats || len(terminated) != Seats || len(truncated) != Seats {
		g.spec.CheckStep(actions, rewards, terminated, truncated) // panics
	}
	if g.Done() {
		clear(rewards)
		g.writeFlags(terminated, truncated)
		return
	}
	g.earned = [Seats]int32{}
	if g.simultaneous {
		g.simultaneousRound(actions)
	} else {
		g.alternatingMove(actions)
	}
	g.steps++
	g.writeRewards(rewards)
	g.writeFlags(terminated, truncated)
}

// alternatingMove is one move in the original's order (spec §4, Game.js
// submit): the seat whose turn it is moves; the other seat's non-zero
// action is refused and counted (§10.7). moveNumber and moveIterator
// advance, and after the second move of a round the round end runs.
func (g *Game) alternatingMove(actions []int32) {
	seat := int(g.moveOrder[g.moveIterator])
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

// simultaneousRound plays one round of [Config.Simultaneous] in the design
// document's order (package doc): the actions are screened, then purchases
// (seat order), portal shots (seat order), turns and moves (at once), and
// the round end, which places the round's bombs after its bomb step.
func (g *Game) simultaneousRound(actions []int32) {
	var act [Seats]Action
	g.screen(actions, &act)
	g.purchases(&act)
	g.portalShots(&act)
	g.turns(&act)
	var m plannedMoves
	g.planMoves(&act, &m)
	g.resolveCollisions(&m)
	g.executeMoves(&m)
	g.moveNumber += Seats
	g.marksChanged()
	g.roundEnd(&act)
}

// screen turns each seat's action into the one its round carries out: an
// action outside the action space, or one the engine would not carry out
// at the start of the round ([Game.legal]), becomes Wait and counts in
// [Game.Invalid]. This is the round's only range check.
func (g *Game) screen(actions []int32, act *[Seats]Action) {
	for s := range Seats {
		a := Action(actions[s])
		if a < 0 || a >= NumActions || !g.legal(s, a) {
			g.invalid[s]++ // never Wait: Wait is always legal
			a = Wait
		}
		act[s] = a
	}
}

// purchases carries out the round's purchases in seat order. Each is
// judged again when it is made, as the first seat's buy_block can fill the
// cell the second seat's buy_block faces; one refused then counts in
// [Game.Invalid].
func (g *Game) purchases(act *[Seats]Action) {
	for s := range Seats {
		if a := act[s]; a >= BuyCount && a <= BuyBlock {
			if g.legal(s, a) {
				g.carryOut(s, a)
			} else {
				g.invalid[s]++
			}
		}
	}
}

// portalShots shoots the round's portals in seat order (spec §5.2).
func (g *Game) portalShots(act *[Seats]Action) {
	for s := range Seats {
		if a := act[s]; a == OrangePortal || a == BluePortal {
			g.carryOut(s, a)
		}
	}
}

// turns carries out the round's turns: each sets its player's orientation.
func (g *Game) turns(act *[Seats]Action) {
	for s := range Seats {
		if a := act[s]; a >= TurnLeft && a <= TurnDown {
			g.players[s].Orientation = int32(a - TurnLeft)
		}
	}
}

// plannedMoves holds a simultaneous round's moves: who moves, the cell and
// direction the step reaches (x, y, dir), and the move's own direction
// (face), which a player who stays turns to.
type plannedMoves struct {
	moving    [Seats]bool
	x, y, dir [Seats]int
	face      [Seats]int
}

// planMoves works out each move as the engine's step (spec §5.1), in seat
// order, with the other player off the board if it moves too (a mover does
// not block) and in place if it stays. A step that goes nowhere is no move:
// the player only turns, as a blocked move does, and then blocks the other
// seat's step as a player who stays.
func (g *Game) planMoves(act *[Seats]Action, m *plannedMoves) {
	for s := range Seats {
		m.moving[s] = act[s] >= MoveLeft && act[s] <= MoveDown
	}
	for s := range Seats {
		if !m.moving[s] {
			continue
		}
		o := &g.players[1-s]
		ox, oy := o.X, o.Y
		if m.moving[1-s] {
			o.X, o.Y = -1, -1
		}
		p := &g.players[s]
		m.face[s] = int(act[s] - MoveLeft)
		px, py := p.at()
		m.x[s], m.y[s], m.dir[s] = g.simulateMovement(px, py, m.face[s], 0)
		o.X, o.Y = ox, oy
		if m.x[s] == px && m.y[s] == py {
			m.moving[s] = false
			p.Orientation = int32(m.face[s])
		}
	}
}

// resolveCollisions settles moves that meet: two players aiming at one
// cell, or swapping cells, both stay; a player moving into a player who
// stays, stays (checked twice, so that a stay the first check causes is
// seen by the other seat). A player who stays faces its move's direction.
func (g *Game) resolveCollisions(m *plannedMoves) {
	if m.moving[0] && m.moving[1] {
		p0, p1 := &g.players[0], &g.players[1]
		same := m.x[0] == m.x[1] && m.y[0] == m.y[1]
		swap := m.x[0] == int(p1.X) && m.y[0] == int(p1.Y) && m.x[1] == int(p0.X) && m.y[1] == int(p0.Y)
		if same || swap {
			g.stay(m, 0)
			g.stay(m, 1)
		}
	}
	for range Seats {
		for s := range Seats {
			o := &g.players[1-s]
			if m.moving[s] && !m.moving[1-s] && m.x[s] == int(o.X) && m.y[s] == int(o.Y) {
				g.stay(m, s)
			}
		}
	}
}

// stay cancels seat s's planned move; the player turns to its direction.
func (g *Game) stay(m *plannedMoves, s int) {
	m.moving[s] = false
	g.players[s].Orientation = int32(m.face[s])
}

// executeMoves moves every player whose move stands to the cell its step
// reaches, facing the step's last direction.
func (g *Game) executeMoves(m *plannedMoves) {
	for s := range Seats {
		if m.moving[s] {
			p := &g.players[s]
			p.X, p.Y, p.Orientation = int32(m.x[s]), int32(m.y[s]), int32(m.dir[s])
		}
	}
}

// writeRewards writes the terminal rewards: once the victory check has
// ended the game, +1 to the winner and −1 to the loser (0 to both on a
// tie); 0 otherwise; plus the coins and danger shaping when configured.
func (g *Game) writeRewards(rewards []float32) {
	if g.state == stateInProgress && g.earned == [Seats]int32{} {
		// Most steps: no terminal reward and no coins (0 + c×0 is +0 for
		// every finite c).
		rewards[0], rewards[1] = 0, 0
	} else {
		g.terminalRewards(rewards)
	}
	if g.dangerReward == 0 || g.state != stateInProgress {
		return
	}
	g.Forecast(g.danger[:], BombTicks)
	for s := range Seats {
		if x, y := g.players[s].at(); g.players[s].Alive && g.inBoard(x, y) && g.danger[g.idx(x, y)] != 0 {
			rewards[s] -= g.dangerReward
		}
	}
}

// terminalRewards writes writeRewards' rewards before the danger shaping.
func (g *Game) terminalRewards(rewards []float32) {
	for s := range Seats {
		var r float32
		if g.state == stateComplete {
			switch int(g.winner) {
			case -1:
			case s:
				r = 1
			default:
				r = -1
			}
		}
		rewards[s] = r + g.coinsReward*float32(g.earned[s])
	}
}

// writeFlags writes each seat's flags: terminated once the game is over,
// truncated while it is in progress but cut by the round cap.
func (g *Game) writeFlags(terminated, truncated []bool) {
	for s := range Seats {
		terminated[s] = g.state != stateInProgress
		truncated[s] = g.state == stateInProgress && g.truncated()
	}
}

// content is what the engine's querySpace reports for a cell, in its
// priority order: outside, hard block, soft block, bomb, player, empty.
type content uint8

const (
	cEmpty content = iota
	cOut
	cHard
	cSoft
	cBomb
	cPlayer // + seat
)

// maxPortalHops bounds consecutive portal passages: a walk or a blast arm
// that enters more portals than exist in a row without leaving one is in a
// loop (spec §10.2); the walk fails and the arm ends.
const maxPortalHops = 2 * Seats

func (g *Game) query(x, y int) content {
	if !g.inBoard(x, y) {
		return cOut
	}
	c := &g.cells[g.idx(x, y)]
	switch {
	case c.hard:
		return cHard
	case c.soft:
		return cSoft
	case c.bombSeq != 0:
		return cBomb
	}
	for s := range Seats {
		if int(g.players[s].X) == x && int(g.players[s].Y) == y {
			return cPlayer + content(s)
		}
	}
	return cEmpty
}

// partner returns the portal paired with the one on face of block (x, y),
// when that portal's owner has both portals placed.
func (g *Game) partner(x, y, face int) (Portal, bool) {
	if !g.inBoard(x, y) {
		return Portal{}, false
	}
	f := g.cells[g.idx(x, y)].portals[face]
	if f.owner == 0 {
		return Portal{}, false
	}
	p := &g.portals[f.owner-1]
	if !p[Orange].Set || !p[Blue].Set {
		return Portal{}, false
	}
	return p[1-f.color], true
}

// simulateMovement is the engine's step from (x, y) in direction d (spec
// §5.1): the cell reached and the direction faced, or (x, y, d) when the
// step fails.
func (g *Game) simulateMovement(x, y, d, hops int) (int, int, int) {
	nx, ny := x+dirDX[d], y+dirDY[d]
	if g.query(nx, ny) == cEmpty {
		return nx, ny, d
	}
	if hops < maxPortalHops {
		if q, ok := g.partner(nx, ny, (d+2)%4); ok {
			rx, ry, rd := g.simulateMovement(q.X, q.Y, q.Dir, hops+1)
			if rx != q.X || ry != q.Y {
				return rx, ry, rd
			}
		}
	}
	return x, y, d
}

// placeTrail puts (or refreshes) owner's trail on (x, y).
func (g *Game) placeTrail(owner, x, y int, t TrailType) {
	i := g.idx(x, y)
	c := &g.cells[i]
	if c.trailSeq == 0 {
		g.seq++
		c.trailSeq = g.seq
	}
	if t == TrailFire {
		g.setFire(i)
		return
	}
	g.listCell(i)
	if c.trails[0].Type == NoTrail && c.trails[1].Type == NoTrail {
		g.seatTrails++
	}
	c.trails[ownerSlot(owner)] = Trail{Tick: TrailTicks, Type: t}
}

// arm runs one explosion arm from (x, y) in direction d (spec §6).
// botarena keeps the owner through portals (the original lost it, §10.1)
// and ends an arm caught in a portal loop (§10.2).
func (g *Game) arm(x, y, d, r, p int, piercing bool, owner int) {
	hops := 0
	for {
		if r == 0 || (piercing && p < 0) {
			return
		}
		nx, ny := x+dirDX[d], y+dirDY[d]
		c := g.query(nx, ny)
		if c == cHard || c == cSoft {
			if q, ok := g.partner(nx, ny, (d+2)%4); ok {
				if hops >= maxPortalHops {
					return
				}
				hops++
				x, y, d = q.X, q.Y, q.Dir
				continue
			}
		}
		if c == cOut {
			return
		}
		hops = 0
		t := TrailH
		if d == Up || d == Down {
			t = TrailV
		}
		g.placeTrail(owner, nx, ny, t)
		if c == cBomb {
			g.detonate(nx, ny)
		}
		if c != cEmpty {
			piercing = true
		}
		if piercing {
			p--
		}
		r--
		x, y = nx, ny
	}
}

// detonate explodes the bomb at (x, y), if any (spec §6).
func (g *Game) detonate(x, y int) {
	i := g.idx(x, y)
	c := &g.cells[i]
	if c.bombSeq == 0 {
		return
	}
	owner := int(c.bombOwner)
	g.players[owner].BombCount++
	g.removeBomb(i)
	g.placeTrail(owner, x, y, TrailOrigin)
	for d := range 4 {
		g.arm(x, y, d, int(g.players[owner].BombRange), int(g.players[owner].BombPierce), false, owner)
	}
}

func (g *Game) addBomb(x, y, owner int) {
	i := g.idx(x, y)
	c := &g.cells[i]
	g.seq++
	c.bombTick, c.bombOwner, c.bombSeq = BombTicks, uint8(owner), g.seq
	g.bombs[g.nBombs] = uint16(i)
	g.nBombs++
}

func (g *Game) removeBomb(i int) {
	c := &g.cells[i]
	c.bombTick, c.bombOwner, c.bombSeq = 0, 0, 0
	for k := range g.nBombs {
		if int(g.bombs[k]) == i {
			copy(g.bombs[k:g.nBombs], g.bombs[k+1:g.nBombs])
			g.nBombs--
			return
		}
	}
}

// deletePortals removes the portal on face dir of (x, y), or every portal
// there for dir -1, and clears the owners' references.
func (g *Game) deletePortals(x, y, dir int) {
	c := &g.cells[g.idx(x, y)]
	for f := range 4 {
		if (dir == f || dir == -1) && c.portals[f].owner != 0 {
			g.portals[c.portals[f].owner-1][c.portals[f].color].Set = false
			c.portals[f] = face{}
		}
	}
}

// shootPortal shoots seat's portal of color along its orientation (spec
// §5.2). A shot that leaves the board (only on a loaded board without a
// border; the original would loop forever) does nothing.
func (g *Game) shootPortal(seat, color int) {
	p := &g.players[seat]
	d := int(p.Orientation)
	x, y := int(p.X)+dirDX[d], int(p.Y)+dirDY[d]
	for {
		c := g.query(x, y)
		if c == cOut {
			return
		}
		if c == cHard || c == cSoft {
			break
		}
		x, y = x+dirDX[d], y+dirDY[d]
	}
	nd := (d + 2) % 4
	if old := g.portals[seat][color]; old.Set {
		g.deletePortals(old.X, old.Y, old.Dir)
	}
	g.portals[seat][color] = Portal{X: x, Y: y, Dir: nd, Set: true}
	c := &g.cells[g.idx(x, y)]
	if c.portalSeq == 0 {
		g.seq++
		c.portalSeq = g.seq
		g.listCell(g.idx(x, y))
	} else {
		g.deletePortals(x, y, nd)
	}
	c.portals[nd] = face{owner: uint8(seat + 1), color: uint8(color)}
}

// faced returns the cell seat faces.
func (g *Game) faced(seat int) (int, int) {
	p := &g.players[seat]
	return int(p.X) + dirDX[p.Orientation], int(p.Y) + dirDY[p.Orientation]
}

// legal reports whether the engine would carry out action a of seat rather
// than treat it as a no-op: waiting always; moves, turns and portal shots
// while alive; a bomb with one available and no bomb on the cell; upgrades
// with 5 coins; a block on an empty faced cell that the coins pay for.
func (g *Game) legal(seat int, a Action) bool {
	p := &g.players[seat]
	if a == Wait {
		return true
	}
	if !p.Alive {
		return false
	}
	switch a {
	case MoveLeft, MoveUp, MoveRight, MoveDown, TurnLeft, TurnUp, TurnRight, TurnDown, OrangePortal, BluePortal:
		return true
	case PlaceBomb:
		// A cell's bomb is in g.bombs: with none listed, the cell has none.
		return p.BombCount > 0 && (g.nBombs == 0 || g.cells[g.idx(p.at())].bombSeq == 0)
	case BuyCount, BuyRange, BuyPierce:
		return p.Coins >= UpgradePrice
	case BuyBlock:
		// Every block costs at least 1 (BlockValue): without coins there
		// is no need to look at the cell.
		if p.Coins <= 0 {
			return false
		}
		x, y := g.faced(seat)
		return g.query(x, y) == cEmpty && int(p.Coins) >= g.value(x, y)
	}
	return false
}

// apply is one move of seat as the engine's submit carries it out (spec
// §5), without the moveNumber and round bookkeeping: an action outside the
// action space, or one the engine would not carry out ([Game.legal]), does
// nothing and counts in [Game.Invalid].
func (g *Game) apply(seat int, a Action) {
	if a < 0 || a >= NumActions || !g.legal(seat, a) {
		g.invalid[seat]++ // never Wait: Wait is always legal
		return
	}
	g.carryOut(seat, a)
}

// carryOut carries out action a of seat, which the caller has checked:
// in the action space and legal ([Game.legal]).
func (g *Game) carryOut(seat int, a Action) {
	p := &g.players[seat]
	if a == PlaceBomb || a == OrangePortal || a == BluePortal {
		g.marksChanged() // a bomb or a portal
	}
	switch a {
	case MoveLeft, MoveUp, MoveRight, MoveDown:
		x, y := p.at()
		nx, ny, d := g.simulateMovement(x, y, int(a-MoveLeft), 0)
		p.X, p.Y, p.Orientation = int32(nx), int32(ny), int32(d)
		if nx != x || ny != y {
			g.marksChanged() // a blocked move only turns the player
		}
	case TurnLeft, TurnUp, TurnRight, TurnDown:
		p.Orientation = int32(a - TurnLeft)
	case PlaceBomb:
		p.BombCount--
		g.addBomb(int(p.X), int(p.Y), seat)
	case BuyCount, BuyRange, BuyPierce:
		p.Coins -= UpgradePrice
		switch a {
		case BuyCount:
			p.BombCount++
		case BuyRange:
			p.BombRange++
		default:
			p.BombPierce++
		}
	case BuyBlock:
		x, y := g.faced(seat)
		p.Coins -= int32(g.value(x, y))
		i := g.idx(x, y)
		c := &g.cells[i]
		c.soft = true
		g.cellChanged(i)
		if c.trails[2].Type == TrailFire {
			record(g.fireSoft[:], &g.nFireSoft, i) // for the trail step
		}
	case OrangePortal:
		g.shootPortal(seat, Orange)
	case BluePortal:
		g.shootPortal(seat, Blue)
	}
}

// roundEnd runs the end of a round in the original's order (spec §4):
// apocalypse (once moveNumber > ApocalypseAfter), move-order rotation,
// bomb step, trail step, victory check. act is a simultaneous round's
// screened actions, whose bombs are placed after the bomb step and before
// the trail step; it is nil with alternating moves, whose bombs were
// placed by the move itself.
func (g *Game) roundEnd(act *[Seats]Action) {
	// Only bombs and trails change what the marks show at a round end (a
	// player dies only by a trail; a bomb placed now is a change of the
	// simultaneous round).
	changed := g.nBombs > 0
	if g.moveNumber > int(g.apocalypseAfter) {
		g.apocalypse()
		changed = true
	}
	g.rotateMoveOrder()
	g.bombStep()
	if act != nil {
		g.placeBombs(act)
	}
	if g.trailStep() || changed {
		g.marksChanged()
	}
	g.victoryCheck()
}

// rotateMoveOrder starts the next round's moves: moveIterator 0, and the
// player who moved first goes to the back of moveOrder.
func (g *Game) rotateMoveOrder() {
	g.moveIterator = 0
	g.moveOrder[0], g.moveOrder[1] = g.moveOrder[1], g.moveOrder[0]
}

// placeBombs places a simultaneous round's bombs in seat order, each if it
// is still legal.
func (g *Game) placeBombs(act *[Seats]Action) {
	for s := range Seats {
		if act[s] == PlaceBomb && g.legal(s, PlaceBomb) {
			g.carryOut(s, PlaceBomb)
		}
	}
}

// victoryCheck ends the game when at most one player is alive: with none a
// tie (winner −1), with one that player wins.
func (g *Game) victoryCheck() {
	alive, last := 0, -1
	for s := range Seats {
		if g.players[s].Alive {
			alive++
			last = s
		}
	}
	switch alive {
	case 0:
		g.state, g.winner = stateComplete, -1
	case 1:
		g.state, g.winner = stateComplete, int8(last)
	}
}

// apocalypse is one apocalypse step (spec §8).
func (g *Game) apocalypse() {
	n := g.n
	x, y := g.fireX, g.fireY
	g.placeTrail(FireOwner, x, y, TrailFire)
	g.placeTrail(FireOwner, n-1-x, n-1-y, TrailFire)
	g.fireDir = fireTurn(n, x, y, g.fireDir, func(cx, cy int) bool {
		return g.cells[g.idx(cx, cy)].trails[2].Type == TrailFire
	})
	g.fireX, g.fireY = fireAdvance(n, x, y, g.fireDir)
}

// bombStep ticks every bomb in bombMap insertion order, skipping bombs a
// chain removed, and detonates those at 0.
func (g *Game) bombStep() {
	var last uint32
	for {
		k, nb := 0, int(g.nBombs)
		for k < nb && g.cells[g.bombs[k]].bombSeq <= last {
			k++
		}
		if k == nb {
			return
		}
		i := int(g.bombs[k])
		c := &g.cells[i]
		last = c.bombSeq
		c.bombTick--
		if c.bombTick <= 0 {
			g.detonate(i%g.n, i/g.n)
		}
	}
}

// trailStep resolves every trail cell, then ticks its explosion trails down
// and deletes those at 0 (spec §7). Resolution is per cell and only the
// first resolution of a cell changes anything, so the order of cells does
// not matter: it visits them in g.marked's order, not the board's (none
// while no cell holds a seat's trail), then the cells of g.fire it did not
// visit (see burn). It reports whether any cell had a trail.
func (g *Game) trailStep() (trails bool) {
	// Every cell with a seat's trail is in g.marked (placeTrail lists
	// it), and every cell with fire in g.fire.
	visit, marked := g.seatTrails > 0, g.marked[:g.nMarked]
	if !visit {
		marked = nil // burn resolves the fire cells among them
	}
	for _, m := range marked {
		i := int(m)
		c := &g.cells[i]
		if c.trailSeq == 0 {
			continue
		}
		trails = true
		g.resolve(i)
		seat := c.trails[0].Type != NoTrail || c.trails[1].Type != NoTrail
		any := false
		for k := range c.trails {
			t := &c.trails[k]
			if t.Type == NoTrail {
				continue
			}
			if t.Type != TrailFire {
				t.Tick--
				if t.Tick <= 0 {
					*t = Trail{}
					continue
				}
			}
			any = true
		}
		if !any {
			c.trailSeq = 0
		}
		if seat && c.trails[0].Type == NoTrail && c.trails[1].Type == NoTrail {
			g.seatTrails--
		}
	}
	if g.nFire > 0 {
		g.burn(visit)
	}
	return trails || g.nFire > 0
}

// burn resolves the cells of g.fire that trailStep did not (those outside
// g.marked, or every one when it visited none of g.marked) where that can
// change something, each once: resolving a cell with no seat's trail
// changes only a soft block there, which g.fireSoft lists (when it
// overflowed, burn resolves every such cell), or a player on it.
func (g *Game) burn(visited bool) {
	if g.nFireSoft < 0 {
		for _, f := range g.fire[:g.nFire] {
			if !visited || !g.cells[f].listed {
				g.resolve(int(f))
			}
		}
		g.nFireSoft = 0
		return
	}
	for _, f := range g.fireSoft[:g.nFireSoft] {
		if !visited || !g.cells[f].listed {
			g.resolve(int(f))
		}
	}
	g.nFireSoft = 0
	var at [Seats]int // the players' cells before any of them dies here
	for s := range Seats {
		at[s] = -1
		if p := &g.players[s]; p.Alive {
			at[s] = g.idx(p.at())
		}
	}
	for s, i := range at {
		if i < 0 || s > 0 && i == at[0] { // one resolution a cell
			continue
		}
		if c := &g.cells[i]; c.trails[2].Type == TrailFire && (!visited || !c.listed) {
			g.resolve(i)
		}
	}
}

// resolve applies a cell's trails: a soft block is destroyed, its portals
// removed and its value paid to every seat with a trail there; a player not
// on a bomb dies, by the owners of the trails there ([Game.DeathCause]).
func (g *Game) resolve(i int) {
	x, y := i%g.n, i/g.n
	c := &g.cells[i]
	switch q := g.query(x, y); {
	case q == cSoft:
		c.soft = false
		g.cellChanged(i)
		g.deletePortals(x, y, -1)
		v := int(g.values[i])
		for s := range Seats {
			if c.trails[s].Type != NoTrail {
				g.players[s].Coins += int32(v)
				g.earned[s] += int32(v)
			}
		}
	case q >= cPlayer:
		s := int(q - cPlayer)
		g.killedBy[s] = killCause(s, c)
		p := &g.players[s]
		p.Alive = false
		p.X, p.Y = -1, -1
	}
}
