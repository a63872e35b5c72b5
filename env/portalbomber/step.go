package portalbomber

// This file holds the rules: one move (apply), and the round end in the
// original's order (apocalypse, move order, bombs, trails, victory).

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
		if g.players[s].X == x && g.players[s].Y == y {
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
	p := &g.players[f.owner-1]
	if !p.Portals[Orange].Set || !p.Portals[Blue].Set {
		return Portal{}, false
	}
	return p.Portals[1-f.color], true
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
	c := &g.cells[g.idx(x, y)]
	if c.trailSeq == 0 {
		g.seq++
		c.trailSeq = g.seq
	}
	tick := int8(TrailTicks)
	if t == TrailFire {
		tick = 0
	}
	c.trails[ownerSlot(owner)] = Trail{Tick: tick, Type: t}
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
		g.arm(x, y, d, g.players[owner].BombRange, g.players[owner].BombPierce, false, owner)
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
			g.players[c.portals[f].owner-1].Portals[c.portals[f].color].Set = false
			c.portals[f] = face{}
		}
	}
}

// shootPortal shoots seat's portal of color along its orientation (spec
// §5.2). A shot that leaves the board (only on a loaded board without a
// border; the original would loop forever) does nothing.
func (g *Game) shootPortal(seat, color int) {
	p := &g.players[seat]
	d := p.Orientation
	x, y := p.X+dirDX[d], p.Y+dirDY[d]
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
	if old := p.Portals[color]; old.Set {
		g.deletePortals(old.X, old.Y, old.Dir)
	}
	p.Portals[color] = Portal{X: x, Y: y, Dir: nd, Set: true}
	c := &g.cells[g.idx(x, y)]
	if c.portalSeq == 0 {
		g.seq++
		c.portalSeq = g.seq
	} else {
		g.deletePortals(x, y, nd)
	}
	c.portals[nd] = face{owner: uint8(seat + 1), color: uint8(color)}
}

// faced returns the cell seat faces.
func (g *Game) faced(seat int) (int, int) {
	p := &g.players[seat]
	return p.X + dirDX[p.Orientation], p.Y + dirDY[p.Orientation]
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
		return p.BombCount > 0 && g.cells[g.idx(p.X, p.Y)].bombSeq == 0
	case BuyCount, BuyRange, BuyPierce:
		return p.Coins >= UpgradePrice
	case BuyBlock:
		x, y := g.faced(seat)
		return g.query(x, y) == cEmpty && p.Coins >= g.value(x, y)
	}
	return false
}

// apply carries out seat's move as the engine's submit does (spec §5),
// except for the moveNumber and round bookkeeping.
func (g *Game) apply(seat int, a Action) {
	if a < 0 || a >= NumActions || !g.legal(seat, a) {
		if a != Wait {
			g.invalid[seat]++
		}
		if a < 0 || a >= NumActions || a == InvalidMove || !g.players[seat].Alive {
			return
		}
	}
	p := &g.players[seat]
	switch a {
	case MoveLeft, MoveUp, MoveRight, MoveDown:
		p.X, p.Y, p.Orientation = g.simulateMovement(p.X, p.Y, int(a-MoveLeft), 0)
	case TurnLeft, TurnUp, TurnRight, TurnDown:
		p.Orientation = int(a - TurnLeft)
	case PlaceBomb:
		if g.legal(seat, a) {
			p.BombCount--
			g.addBomb(p.X, p.Y, seat)
		}
	case BuyCount, BuyRange, BuyPierce:
		if p.Coins >= UpgradePrice {
			p.Coins -= UpgradePrice
			switch a {
			case BuyCount:
				p.BombCount++
			case BuyRange:
				p.BombRange++
			default:
				p.BombPierce++
			}
		}
	case BuyBlock:
		if g.legal(seat, a) {
			x, y := g.faced(seat)
			p.Coins -= g.value(x, y)
			g.cells[g.idx(x, y)].soft = true
		}
	case OrangePortal:
		g.shootPortal(seat, Orange)
	case BluePortal:
		g.shootPortal(seat, Blue)
	}
}

// roundEnd runs the end of a round in the original's order (spec §4).
func (g *Game) roundEnd(place *[Seats]bool) {
	if g.moveNumber > g.cfg.ApocalypseAfter {
		g.apocalypse()
	}
	g.moveIterator = 0
	g.moveOrder[0], g.moveOrder[1] = g.moveOrder[1], g.moveOrder[0]
	g.bombStep()
	if place != nil { // simultaneous: bombs are placed after the bomb step
		for s := range Seats {
			if place[s] && g.legal(s, PlaceBomb) {
				g.players[s].BombCount--
				g.addBomb(g.players[s].X, g.players[s].Y, s)
			}
		}
	}
	g.trailStep()
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
		g.state, g.winner = stateComplete, last
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
		k := 0
		for k < g.nBombs && g.cells[g.bombs[k]].bombSeq <= last {
			k++
		}
		if k == g.nBombs {
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
// not matter.
func (g *Game) trailStep() {
	for i := range g.n * g.n {
		c := &g.cells[i]
		if c.trailSeq == 0 {
			continue
		}
		g.resolve(i)
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
	}
}

// resolve applies a cell's trails: a soft block is destroyed, its portals
// removed and its value paid to every seat with a trail there; a player not
// on a bomb dies.
func (g *Game) resolve(i int) {
	x, y := i%g.n, i/g.n
	c := &g.cells[i]
	switch q := g.query(x, y); {
	case q == cSoft:
		c.soft = false
		g.deletePortals(x, y, -1)
		v := int(g.values[i])
		for s := range Seats {
			if c.trails[s].Type != NoTrail {
				g.players[s].Coins += v
			}
		}
	case q >= cPlayer:
		p := &g.players[q-cPlayer]
		p.Alive = false
		p.X, p.Y = -1, -1
	}
}
