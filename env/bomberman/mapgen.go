package bomberman

import (
	mathbits "math/bits"
	"slices"
)

// Map generation, exact to the original (spec §3). Settings are the
// original's app-config defaults.
const (
	wallFrequency        = 35 // percent
	wallPoints           = 10
	playerPointsBase     = 100
	coverageMultiplier   = 100
	superPowerUpPoints   = 50
	bagPowerUpsPerPlayer = 2
	radiusPowerUpsPerPl  = 4
	distanceSlots        = 6 // power-ups per quadrant, distance generator
)

// wallDrawLimit is the raw draw below which a cell's NextRange(0, 100) is
// below wallFrequency: a destructible wall.
var wallDrawLimit = drawLimit(wallFrequency, 100)

// generateMap builds the initial map for gameSeed: it resets cells and
// players, places walls, players and power-ups, and computes the bounty.
// Attempts rejected by the distance-based power-up generator are retried
// with the next attempt seed, as the original does (spec §2.1).
func (g *Game) generateMap(gameSeed int32) {
	seedGen := newDotnetRandom(gameSeed)
	distance := g.usesDistanceGenerator()
	for attempt := 0; ; attempt++ {
		seed := gameSeed
		if !g.cfg.LegacySeeding || attempt > 0 {
			seed = seedGen.Next()
		}
		rng := newDotnetRandom(seed)
		if distance && !g.distanceSuitable(rng) {
			// The full attempt would be rejected too (a test checks the
			// two agree); skip building it.
			continue
		}
		if g.generateAttempt(&rng) {
			return
		}
	}
}

// usesDistanceGenerator reports whether maps get the distance-based
// power-up generator: forced by config, or the original's choice for
// exactly 4 players.
func (g *Game) usesDistanceGenerator() bool {
	return g.cfg.PowerUps == PowerUpsDistance || ((g.cfg.PowerUps == PowerUpsAuto || g.cfg.PowerUps == "") && g.nPlayers == 4)
}

// distanceSuitable predicts, from a copy of an attempt's generator, whether
// the distance-based generator will accept the attempt's map, without
// building the map. Acceptance depends only on the destructible walls of the
// top-left scan area (x, y < side/2), and on a 4-player map those come from
// the mirrored pass's own draws for those cells and from player A's forced
// walls: no mirror image, other player or centre-pass cell lands there
// except on pillars. Each column x of the scan area gives a mask of its
// walls by distance (cell (x, y) is at distance (x-1)+(y-1)), and two
// bitmaps mark the distances with one wall or more and two or more.
func (g *Game) distanceSuitable(rng dotnetRandom) bool {
	if SideFor(g.nPlayers) != scan4pSide {
		panic("bomberman: the distance generator runs on the 4-player map only")
	}
	var draws [scan4pDraws]int32
	rng.fill(draws[:])
	once, twice := scan4pForced, scan4pForced // A's forced walls: two at one distance
	lim := wallDrawLimit
	for c, cand := range scan4pColumns {
		x := c + 2
		col := draws[(x-1)*(scan4pQ-1)+1:]
		col = col[:8]
		// Bit y-2 is set for a wall at (x, y): draws and the limit are
		// non-negative, so v-lim is negative exactly when v < lim.
		m := uint32(col[0]-lim)>>31 | uint32(col[1]-lim)>>31<<1 |
			uint32(col[2]-lim)>>31<<2 | uint32(col[3]-lim)>>31<<3 |
			uint32(col[4]-lim)>>31<<4 | uint32(col[5]-lim)>>31<<5 |
			uint32(col[6]-lim)>>31<<6 | uint32(col[7]-lim)>>31<<7
		m = (m & cand) << x // bit y-2 of column x is distance x+y-2
		twice |= once & m
		once |= m
	}
	return mathbits.OnesCount32(twice) > distanceSlots
}

// What distanceSuitable needs of the 4-player map, the only one the
// distance generator runs on: the mirrored pass draws one value per cell
// (x, y) for x < q and y < q, column by column (index (x-1)*(q-1)+(y-1)),
// of which the first scan4pDraws (x < scan) decide. scan4pColumns are the
// cells of the scan area's columns x = 2..scan-1 that get a wall when
// their draw says so (bit y-2 for y = 2..scan-1): not the border, pillars,
// A's 3×3 safe zone or A's two forced walls, which scan4pForced counts at
// their distance.
const (
	scan4pSide   = 21
	scan4pQ      = scan4pSide/2 + 2
	scan4pScan   = scan4pSide / 2
	scan4pDraws  = (scan4pScan-2)*(scan4pQ-1) + scan4pScan - 1 // through (scan-1, scan-1)
	scan4pForced = uint32(1) << ((5 - 1) + (2 - 1))            // A at (2,2): walls at (5,2) and (2,5)
)

var scan4pColumns = newScan4pColumns()

func newScan4pColumns() (cols [scan4pScan - 2]uint32) {
	if SideFor(4) != scan4pSide || scan4pScan-2 != 8 {
		panic("bomberman: scan4pSide is not the 4-player side")
	}
	for x := 2; x < scan4pScan; x++ {
		for y := 2; y < scan4pScan; y++ {
			forced := (x == 5 && y == 2) || (x == 2 && y == 5) // A at (2,2)
			safe := x <= 3 && y <= 3                           // A's 3×3 safe zone
			if (x%2 == 1 && y%2 == 1) || safe || forced {
				continue
			}
			cols[x-2] |= 1 << (y - 2)
		}
	}
	return cols
}

// generateAttempt makes one map attempt with rng and reports whether the
// power-up generator accepted it.
func (g *Game) generateAttempt(rng *dotnetRandom) bool {
	side := SideFor(g.nPlayers)
	g.width, g.height = side, side
	for i := range side * side {
		// The shown codes describe the planes of the last map, which a
		// Reset brings to this one in place (restatic).
		g.cells[i] = Cell{shown: g.cells[i].shown}
	}
	clear(g.bombs[:g.bombHigh])
	g.bombHigh = 0

	// 1. Indestructible walls: the border and every odd/odd cell.
	pillars := 4*side - 4 + (side/2-1)*(side/2-1)
	for x := 1; x <= side; x++ {
		g.cells[g.index(x, 1)].Entity = IndestructibleWall
		g.cells[g.index(x, side)].Entity = IndestructibleWall
	}
	for y := 2; y < side; y++ {
		g.cells[g.index(1, y)].Entity = IndestructibleWall
		g.cells[g.index(side, y)].Entity = IndestructibleWall
	}
	for y := 3; y < side; y += 2 {
		for x := 3; x < side; x += 2 {
			g.cells[g.index(x, y)].Entity = IndestructibleWall
		}
	}

	// 2. Players.
	perSide := (g.nPlayers + 3) / 4
	step := side / perSide
	for seat := range g.nPlayers {
		p := seat + 1
		pos := (p + 3) / 4
		var x, y int
		switch p % 4 {
		case 1: // top row
			x, y = step*pos-step+2, 2
		case 2: // bottom row
			x, y = side+step-step*pos-1, side-1
		case 3: // x = 2 (the source's "Right")
			x, y = 2, side+step-step*pos-1
		default: // x = side-1 (the source's "Left")
			x, y = side-1, step*pos-step+2
		}
		g.players[seat] = Player{
			Name:       g.names[seat],
			Key:        byte('A' + seat%26),
			BombBag:    1,
			BombRadius: 1,
		}
		g.placePlayer(seat, x, y)
	}
	// The safe zone: cells at Euclidean distance < 2 from a player, which
	// is the 3×3 block around it (the diagonals are pillars for corner
	// players, not for players along the sides).
	for seat := range g.nPlayers {
		px, py := g.players[seat].X, g.players[seat].Y
		for y := py - 1; y <= py+1; y++ {
			for x := px - 1; x <= px+1; x++ {
				if g.InBounds(x, y) {
					g.cells[g.index(x, y)].destroy = true // free during generation
				}
			}
		}
	}

	// 3. Destructible walls, one draw per mirrored quadruple. The
	// quadruples of the border (x or y is 1) and, on a map of odd side, of
	// pillars (x and y odd, and so their mirror images) hold indestructible
	// walls only, which tryWalls would leave: their draws are skipped.
	// walls counts the destructible walls placed.
	q := side/2 + 2
	mirror := side + 1
	oddSide := side & 1
	walls := 0
	var draws [MaxSide]int32
	for x := 1; x < q; x++ {
		col := draws[:q-1]
		rng.fill(col)
		if x == 1 {
			continue
		}
		for y := 2; y < q; y++ {
			if x&y&oddSide == 1 {
				continue
			}
			wall := col[y-1] < wallDrawLimit // NextRange(0, 100) < wallFrequency
			walls += g.tryWalls(wall, x, y, mirror)
		}
	}
	// 4. The centre pass fills ±2 around the centre (its draw is 0).
	for x := q - 2; x < q+2; x++ {
		for y := q - 2; y < q+2; y++ {
			walls += g.tryWalls(true, x, y, mirror)
		}
	}

	// 5. Power-ups, then the super power-up in the centre.
	if g.usesDistanceGenerator() {
		if !g.distancePowerUps(rng) {
			g.clearSafeZones(side)
			return false
		}
	} else {
		g.randomPowerUps(rng)
	}
	c := &g.cells[g.index(side/2+1, side/2+1)]
	switch c.Entity {
	case IndestructibleWall:
		pillars-- // the centre is a pillar when side/2+1 is odd
	case DestructibleWall:
		walls--
	}
	c.Entity = NoEntity
	c.PowerUp = SuperPowerUp
	g.clearSafeZones(side)

	// 6. PlayerBounty and the usable cell count.
	g.bounty = (playerPointsBase + wallPoints*walls) / g.nPlayers
	g.usable = side*side - pillars
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// placePlayer puts seat's player on (x, y) and marks the cell touched, as
// GameBlock.SetEntity does.
func (g *Game) placePlayer(seat, x, y int) {
	p := &g.players[seat]
	p.X, p.Y = x, y
	c := &g.cells[g.index(x, y)]
	c.Entity = PlayerEntity
	c.Player = uint8(seat)
	if c.touched&(1<<seat) == 0 {
		c.touched |= 1 << seat
		p.Touched++
	}
}

// clearSafeZones removes the safe-zone marks generateAttempt leaves in the
// cells' destroy marks, which a round expects clear.
func (g *Game) clearSafeZones(side int) {
	for i := range side * side {
		g.cells[i].destroy = false
	}
}

// tryWalls is the original's GenerateDesctructableWall at (x, y) and its
// mirror images (mirror-x, y), (x, mirror-y) and (mirror-x, mirror-y), in
// that order, with one draw; wall reports that it is below wallFrequency.
// A cell holding a player gets that player's forced walls instead; a wall,
// or a cell of a safe zone, stays as it is. It returns the number of walls
// it placed.
func (g *Game) tryWalls(wall bool, x, y, mirror int) int {
	top, bottom := (y-1)*g.width, (mirror-y-1)*g.width
	placed := 0
	for _, i := range [4]int{top + x - 1, top + mirror - x - 1, bottom + x - 1, bottom + mirror - x - 1} {
		switch c := &g.cells[i]; c.Entity {
		case NoEntity:
			if wall && !c.destroy { // not in a safe zone
				c.Entity = DestructibleWall
				placed++
			}
		case PlayerEntity:
			placed += g.forcedWalls(int(c.Player))
		}
	}
	return placed
}

// forcedWalls places the walls the original forces 3 cells from a player on
// an edge row or column, ignoring the safe zone, and returns the number it
// placed.
func (g *Game) forcedWalls(seat int) int {
	px, py := g.players[seat].X, g.players[seat].Y
	placed := 0
	if py == 2 || py == g.height-1 {
		placed += g.wallIfEmpty(threeOn(px, g.width), py)
	}
	if px == 2 || px == g.width-1 {
		placed += g.wallIfEmpty(px, threeOn(py, g.height))
	}
	return placed
}

// threeOn returns the coordinate 3 cells on from p along an edge of size
// cells: p+3 while that is inside (< size), else p-3.
func threeOn(p, size int) int {
	if p+3 < size {
		return p + 3
	}
	return p - 3
}

// wallIfEmpty places a destructible wall on cell (x, y) when it holds
// nothing, and returns the number of walls it placed (0 or 1).
func (g *Game) wallIfEmpty(x, y int) int {
	if c := &g.cells[g.index(x, y)]; c.Entity == NoEntity {
		c.Entity = DestructibleWall
		return 1
	}
	return 0
}

// randomPowerUps is the original's RandomPowerUpGenerator (spec §3.1).
func (g *Game) randomPowerUps(rng *dotnetRandom) {
	qw := g.width/2 + 1
	for i := range 4 {
		bags := bagPowerUpsPerPlayer * g.nPlayers / 4
		radii := radiusPowerUpsPerPl * g.nPlayers / 4
		for bags > 0 {
			x, y := rng.NextRange(1, qw), rng.NextRange(1, qw)
			x, y = g.quadrant(4-i, x, y)
			if c := &g.cells[g.index(x, y)]; c.PowerUp == NoPowerUp && c.Entity == DestructibleWall {
				c.PowerUp = BombBagPowerUp
				bags--
			}
		}
		for radii > 0 {
			x, y := rng.NextRange(1, qw), rng.NextRange(1, qw)
			x, y = g.quadrant(i, x, y)
			if c := &g.cells[g.index(x, y)]; c.PowerUp == NoPowerUp && c.Entity == DestructibleWall {
				c.PowerUp = BombRadiusPowerUp
				radii--
			}
		}
	}
}

// quadrant maps (x, y) of the top-left quadrant into quadrant q: 1 mirrors
// x, 2 mirrors y, 3 mirrors both, anything else leaves it.
func (g *Game) quadrant(q, x, y int) (int, int) {
	switch q {
	case 1:
		return g.width + 1 - x, y
	case 2:
		return x, g.height + 1 - y
	case 3:
		return g.width + 1 - x, g.height + 1 - y
	}
	return x, y
}

// distancePowerUps is the original's DistanceBasedPowerUpGenerator (spec
// §3.1). It reports false when the map is unsuitable (fewer than 7
// distances with two or more walls), before drawing anything.
func (g *Game) distancePowerUps(rng *dotnetRandom) bool {
	// Walls per Manhattan distance from (1,1) in the scan area.
	scan := g.width / 2
	// The distances (x-1)+(y-1) of the scan area are below 2*scan; the
	// counts stay below 2*MaxSide.
	var perDistanceBuf [2 * MaxSide]uint8
	perDistance := perDistanceBuf[:2*scan]
	for y := 1; y < scan; y++ {
		row := g.cells[(y-1)*g.width : (y-1)*g.width+scan-1]
		for x, c := range row { // x-1
			perDistance[x+(y-1)] += uint8(b2i(c.Entity == DestructibleWall))
		}
	}
	suitable := 0
	for _, n := range perDistance {
		if n > 1 {
			suitable++
		}
	}
	if suitable <= distanceSlots {
		return false
	}

	// The order of types: one of &!!&!!, !&!!&!, !!&!!&.
	var order [distanceSlots]PowerUp
	t := rng.NextRange(0, 3)
	for i := range order {
		order[i] = BombRadiusPowerUp
		if (t+i)%3 == 0 {
			order[i] = BombBagPowerUp
		}
	}

	// The plan of distances.
	var planBuf [2 * MaxSide]uint8
	plan := planBuf[:0]
	for d, n := range perDistance {
		if n > 1 {
			plan = append(plan, uint8(d))
		}
	}
	if len(plan) > 0 && plan[0] > 5 {
		// Never happens on generated maps (the forced walls put two walls
		// at distance 5); kept for exactness.
		for d, n := range perDistance {
			if n > 0 && d > 2 {
				plan = slices.Insert(plan, 0, uint8(d))
				break
			}
		}
	}
	for len(plan) > distanceSlots {
		i := rng.NextRange(1, 4)
		plan = slices.Delete(plan, i, i+1)
	}
	slices.Sort(plan)

	// Placement, quadrant by quadrant.
	var candBuf [MaxSide]int32
	for q := range 4 {
		// Quadrant q mirrors x for q = 1, 3 and y for q = 2, 3, so from
		// one x to the next (y one less) the cell index moves by step.
		sx, sy := 1, 1
		if q&1 == 1 {
			sx = -1
		}
		if q >= 2 {
			sy = -1
		}
		step := sx - sy*g.width
		for k := range distanceSlots {
			cand := candBuf[:0]
			// The scan-area cells at distance d, x ascending: one y per x,
			// y = d-x+2 in 1..scan-1.
			d := int(plan[k])
			lo, hi := max(1, d+3-scan), min(scan-1, d+1)
			if lo <= hi {
				qx, qy := g.quadrant(q, lo, d-lo+2)
				i := g.index(qx, qy)
				for x := lo; x <= hi; x++ {
					if g.cells[i].Entity == DestructibleWall {
						cand = append(cand, int32(i))
					}
					i += step
				}
			}
			if len(cand) == 0 {
				// The original would crash here (spec §12.12); it has not
				// been seen on any seed. Leave the slot empty.
				continue
			}
			g.cells[cand[rng.NextN(len(cand))]].PowerUp = order[k]
		}
	}
	return true
}
