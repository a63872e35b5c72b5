package battleships

import mathbits "math/bits"

// command is one player's command for a round.
type command struct {
	kind  uint8
	code  int
	x, y  int
	ships [NumShips]Ship // cmdPlace; cmdFail: the placement tried
	// nShips is the ships of a failed placement (cmdFail with code 0).
	nShips uint8
}

const (
	cmdNone    = iota // no command (killed, or no bot run)
	cmdNothing        // DoNothing
	cmdPlace          // PlaceShip
	cmdFire           // a fire command, code 1–7
	cmdShield         // PlaceShield, code 8
	cmdFail           // a phase-1 placement that fails (learn mode: illegal ship)
)

// Step processes one step. It implements [env.Env.Step]:
//
//   - actions, rewards, terminated and truncated have one element per seat;
//     a wrong length panics.
//   - A step is one round of the original (spec §3.2): the harness's checks
//     before the bots run (startRound: the 20-do-nothing and
//     5-failed-placement kills, §3.6), the round's commands, then
//     ProcessRound in the code's order, the round advance and the end
//     checks. The commands come from the phase: in phase 2 from the
//     actions (playCommands); in phase 1 with a built-in placer from the
//     placer, the actions ignored (placerCommands); in phase 1 of learn
//     mode from the ships the seats chose (choose, learnCommands).
//   - In phase 1 of learn mode each step chooses one ship per seat; the
//     round is processed when both seats have finished (five ships chosen,
//     do nothing, or an illegal choice). A step that leaves the round open
//     writes zero rewards.
//   - Out-of-range actions are do nothing and count in [Game.Invalid], as
//     do commands the engine rejects. Actions of killed seats are ignored
//     and not counted.
//   - Rewards are points_reward × Δpoints when configured, plus, when the
//     game ends, +1 to the winner and −1 to the loser by [Game.Outcome] (0
//     to both on a draw); terminated is true for killed seats and for both
//     once the game ends by elimination; truncated is true for the seats
//     alive when the round cap ends it.
//   - Stepping a game that is done writes zero rewards and the final flags.
//
// Step never allocates. It is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	if len(actions) != Seats || len(rewards) != Seats || len(terminated) != Seats || len(truncated) != Seats {
		g.spec.CheckStep(actions, rewards, terminated, truncated) // panics
	}
	if g.done {
		clear(rewards)
		g.writeFlags(terminated, truncated)
		return
	}
	g.steps++
	g.beginDelta()
	for s := range Seats {
		g.lastPoints[s] = g.players[s].Points
	}
	if !g.roundOpen {
		g.startRound()
	}
	var cmds [Seats]command
	switch {
	case g.phase == 1 && g.learn:
		if !g.choose(actions) {
			clear(rewards)
			g.writeFlags(terminated, truncated)
			return
		}
		g.learnCommands(&cmds)
	case g.phase == 1:
		g.placerCommands(&cmds)
	default:
		g.playCommands(actions, &cmds)
	}
	g.processRound(&cmds)
	if g.cfg.DensityPlane {
		for s := range Seats {
			if g.seen[s].update(g, s) {
				g.densOK[s], g.densVer[s] = false, g.obsVer
			}
		}
	}
	g.writeRewards(rewards)
	g.writeFlags(terminated, truncated)
}

// placerRound plays a phase-1 round with the built-in placer's fleets (what
// Reset does without learn mode).
func (g *Game) placerRound() {
	g.startRound()
	var cmds [Seats]command
	g.placerCommands(&cmds)
	g.processRound(&cmds)
}

// placerCommands is phase 1 with a built-in placer: the PlaceShip command
// of each seat not killed, with a fleet drawn by Config.Placement's placer
// (seat A first, then B: the harness's bot order, spec §3.2 step 2).
func (g *Game) placerCommands(cmds *[Seats]command) {
	for s := range Seats {
		if g.players[s].Killed {
			continue
		}
		f := RandomFleet(g.r, g.n)
		if g.cfg.Placement == PlacementReference {
			f = ReferenceFleet(g.r, g.n)
		}
		cmds[s] = command{kind: cmdPlace, ships: f}
	}
}

// learnCommands is phase 1 of learn mode once both seats have finished
// choosing (see choose): each seat's place.txt as the harness reads it
// (spec §4.1): the five ships chosen, do nothing, or a placement that fails
// (an illegal ship, or a command that is not a PlaceShip). A killed seat
// has no command.
func (g *Game) learnCommands(cmds *[Seats]command) {
	for s := range Seats {
		pd := &g.pend[s]
		switch pd.state {
		case pendPlace:
			cmds[s] = command{kind: cmdPlace, ships: pd.ships}
		case pendNothing:
			cmds[s] = command{kind: cmdNothing}
		case pendFail:
			cmds[s] = command{kind: cmdFail, code: int(pd.code), x: int(pd.cx), y: int(pd.cy), ships: pd.ships, nShips: pd.n + 1}
		}
	}
}

// playCommands is phase 2: each seat's command.txt as the harness reads it
// (spec §4.2), from its action. An out-of-range action is do nothing and
// counts in [Game.Invalid]; a placement action is a command that fails. A
// killed seat has no command.
func (g *Game) playCommands(actions []int32, cmds *[Seats]command) {
	for s := range Seats {
		if g.players[s].Killed {
			continue
		}
		d := decode(g.n, actions[s])
		switch d.kind {
		case actBad:
			g.invalid[s]++
			cmds[s] = command{kind: cmdNothing}
		case actNothing:
			cmds[s] = command{kind: cmdNothing}
		case actCommand:
			k := uint8(cmdFire)
			if d.code == CodeShield {
				k = cmdShield
			}
			cmds[s] = command{kind: k, code: d.code, x: d.x, y: d.y}
		case actPlace:
			// A placement in phase 2: the original would re-place the
			// fleet (bug B3); botarena rejects it (a failed command).
			cmds[s] = command{kind: cmdFail, nShips: 1}
			cmds[s].ships[0] = Ship{X: int8(d.x), Y: int8(d.y), Dir: d.dir}
		}
	}
}

// choose applies one learn-mode phase-1 step and reports whether both
// seats have finished the round.
func (g *Game) choose(actions []int32) bool {
	all := true
	for s := range Seats {
		pd := &g.pend[s]
		if g.players[s].Killed {
			pd.state = pendNone
			continue
		}
		if pd.state != pendOpen {
			continue
		}
		d := decode(g.n, actions[s])
		switch d.kind {
		case actBad:
			g.invalid[s]++
			pd.state = pendNothing
		case actNothing:
			pd.state = pendNothing
		case actCommand:
			pd.state = pendFail // not a PlaceShip: fails in phase 1
			pd.code, pd.cx, pd.cy = int8(d.code), int8(d.x), int8(d.y)
		case actPlace:
			sh := Ship{X: int8(d.x), Y: int8(d.y), Dir: d.dir}
			if !legalNext(&pd.ships, int(pd.n), sh, g.n) {
				pd.state = pendFail
				pd.ships[pd.n] = sh // recorded for roundCommand.json
				break
			}
			pd.ships[pd.n] = sh
			pd.n++
			if pd.n == NumShips {
				pd.state = pendPlace
			}
		}
		if pd.state == pendOpen {
			all = false
		}
	}
	return all
}

// startRound runs the harness's checks before the bots run (spec §3.6):
// a player with 20 or more consecutive do-nothings, or exactly 5 failed
// placements, is killed off.
func (g *Game) startRound() {
	g.roundOpen = true
	for s := range Seats {
		p := &g.players[s]
		if !p.Killed && (p.Idle >= DoNothingLimit || p.Failed == PlacementFailureLimit) {
			g.killoff(s)
		}
	}
}

// killoff is the harness's Killoff: a shot (scoring for nobody) on every
// cell of the player's placed ships, Killed, and Points 0.
func (g *Game) killoff(s int) {
	p := &g.players[s]
	g.touchAll(s)
	for k := range p.Ships {
		sh := &p.Ships[k]
		if !sh.Placed {
			continue
		}
		for a := range ShipType(k).Len() {
			c := &p.cells[(int(sh.X)+dirDX[sh.Dir]*a)*g.n+int(sh.Y)+dirDY[sh.Dir]*a]
			if c.Shielded {
				c.ShieldHit = true
			} else {
				c.Hit = true
			}
		}
	}
	p.Killed = true
	p.Points = 0
}

// processRound is the original's ProcessRound with the harness's
// bookkeeping, then the round advance and the end checks (spec §3.2).
func (g *Game) processRound(cmds *[Seats]command) {
	g.roundOpen = false
	for s := range Seats {
		switch cmds[s].kind {
		case cmdNone:
		case cmdNothing:
			g.players[s].Idle++
		default:
			g.players[s].Idle = 0
		}
		if g.phase == 1 { // (pend stays clear in phase 2: choose is phase 1's)
			g.pend[s] = pending{}
		}
	}
	if g.phase == 2 {
		g.deactivateShields()
	}
	order := [Seats]int{0, 1}
	if cmds[1].kind == cmdShield && cmds[0].kind != cmdShield {
		order = [Seats]int{1, 0}
	}
	for _, s := range order {
		c := &cmds[s]
		if c.kind == cmdNone {
			continue
		}
		g.recordMove(s, c)
		if g.players[s].Killed {
			continue
		}
		ok := g.execute(s, c)
		// DoNothing succeeds in phase 2 (it throws nothing).
		g.moves[s].success = ok || (c.kind == cmdNothing && g.phase == 2)
		if ok {
			continue
		}
		if c.kind != cmdNothing {
			g.invalid[s]++
		}
		if g.phase == 1 {
			g.players[s].Failed++
			g.clearMaps()
			g.advance()
			return
		}
	}
	g.updateDestroyed()
	if g.phase == 2 {
		for s := range Seats {
			g.players[s].Energy += energyGrant(g.n)
		}
		g.chargeShields()
	}
	for s := range Seats {
		if g.players[s].afloat() == 0 { // no ship remaining
			g.players[s].Killed = true
			g.players[1-s].Points += 100
		}
	}
	g.phase = 2
	g.advance()
}

// advance moves to the next round and checks for the end.
func (g *Game) advance() {
	g.round++
	alive := 0
	for s := range Seats {
		if !g.players[s].Killed {
			alive++
		}
	}
	switch {
	case alive <= 1:
		g.done = true
	case g.round > g.maxRound:
		g.done, g.truncEnd = true, true
	}
}

// clearMaps wipes both maps and fleets after a failed phase-1 round.
func (g *Game) clearMaps() {
	for s := range Seats {
		p := &g.players[s]
		g.touchAll(s)
		clear(p.cells[:g.n*g.n])
		p.Ships = [NumShips]Ship{}
	}
}

// deactivateShields is the round's first stage in phase 2 (spec §3.2, 3.1).
func (g *Game) deactivateShields() {
	for s := range Seats {
		sh := &g.players[s].Shield
		if !sh.Active {
			continue
		}
		sh.Charges--
		if sh.Charges <= 0 {
			sh.Active = false
			sh.RoundLastUsed = g.round
			sh.Radius, sh.Charges = 0, 0
			cells := g.players[s].cells[:g.n*g.n]
			for i := range cells {
				if cells[i].Shielded || cells[i].ShieldHit {
					g.touch(s, i)
					cells[i].Shielded, cells[i].ShieldHit = false, false
				}
			}
		}
	}
}

// chargeShields is the end-of-round charging (spec §6).
func (g *Game) chargeShields() {
	for s := range Seats {
		sh := &g.players[s].Shield
		if sh.Active {
			continue
		}
		if d := g.round - sh.RoundLastUsed; d != 0 && d%ShieldChargeTime == 0 {
			sh.Charges++
			sh.Radius = min(sh.Radius+1, maxShieldRadius(g.n))
		}
	}
}

// updateDestroyed refreshes every ship's Destroyed flag: placed, and every
// cell hit. When the flags are fresh (refreshed at the end of an earlier
// Step, and since then no touchAll, Reset or LoadNative has moved ships or
// cleared hits), a cell's Hit only ever turns true, and only where this
// Step landed a shot (landShot, which records the ship under each cell
// whose Hit it turned true in hitShips), so only those ships can have
// sunk. It then rechecks those alone, and otherwise makes the full pass:
// the flags are the full pass's either way.
func (g *Game) updateDestroyed() {
	for s := range Seats {
		p := &g.players[s]
		if g.destroyedFresh {
			for hit := g.hitShips[s]; hit != 0; hit &= hit - 1 {
				if t := ShipType(mathbits.TrailingZeros8(hit)); !p.Ships[t].Destroyed {
					p.Ships[t].Destroyed = g.allHit(p, t)
				}
			}
			continue
		}
		for k := range p.Ships {
			sh := &p.Ships[k]
			if !sh.Placed {
				sh.Destroyed = false
				continue
			}
			sh.Destroyed = g.allHit(p, ShipType(k))
		}
	}
	g.destroyedFresh = true
}

func (g *Game) allHit(p *Player, t ShipType) bool {
	sh := &p.Ships[t]
	for a := range t.Len() {
		if !p.cells[(int(sh.X)+dirDX[sh.Dir]*a)*g.n+int(sh.Y)+dirDY[sh.Dir]*a].Hit {
			return false
		}
	}
	return true
}

// execute runs seat s's command and reports its success.
func (g *Game) execute(s int, c *command) bool {
	switch c.kind {
	case cmdPlace:
		return g.place(s, &c.ships)
	case cmdFire:
		return g.phase == 2 && g.fire(s, c.code, c.x, c.y)
	case cmdShield:
		return g.phase == 2 && g.shield(s, c.x, c.y)
	}
	return false // DoNothing fails in phase 1 (and does nothing in phase 2)
}

// place is PlaceShip: the map is wiped and the fleet un-placed, then
// placed if the whole placement is valid.
func (g *Game) place(s int, fleet *[NumShips]Ship) bool {
	p := &g.players[s]
	g.touchAll(s)
	clear(p.cells[:g.n*g.n])
	p.Ships = [NumShips]Ship{}
	if !ValidFleet(fleet, g.n) {
		return false
	}
	for k := range fleet {
		sh := fleet[k]
		sh.Placed, sh.Destroyed = true, false
		p.Ships[k] = sh
		for a := range ShipType(k).Len() {
			p.cells[(int(sh.X)+dirDX[sh.Dir]*a)*g.n+int(sh.Y)+dirDY[sh.Dir]*a].Ship = uint8(k) + 1
		}
	}
	return true
}

// pattern offsets per code, in map order (x ascending, then y).
var patterns = [NumCodes][][2]int{
	CodeSingle:           {{0, 0}},
	CodeDoubleVertical:   {{0, -1}, {0, 1}},
	CodeDoubleHorizontal: {{-1, 0}, {1, 0}},
	CodeCorner:           {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
	CodeDiagonalCross:    {{-1, -1}, {-1, 1}, {0, 0}, {1, -1}, {1, 1}},
	CodeCross:            {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}},
}

// seekerOffsets are the seeker's reachable offsets, nearest first, ties in
// map order (spec §5.3).
var seekerOffsets = [13][2]int{
	{0, 0},
	{-1, 0}, {0, -1}, {0, 1}, {1, 0},
	{-1, -1}, {-1, 1}, {1, -1}, {1, 1},
	{-2, 0}, {0, -2}, {0, 2}, {2, 0},
}

// canFire reports whether seat s's fleet has the weapon of code and the
// energy for it (steps 1, 3, 4 and 5 of spec §5.1).
func (g *Game) canFire(s, code int) bool { return g.fireable(s)>>code&1 != 0 }

// fireable returns the set of codes (bit code, every code 0–8 as a fire
// command's) whose weapon seat s's fleet has, with the energy for it: the
// weapon's ship afloat (any ship for the single shot), every ship placed,
// and the energy at least the weapon's cost.
func (g *Game) fireable(s int) uint64 {
	p := &g.players[s]
	if !p.allPlaced() {
		return 0
	}
	afford := affordable[g.n]
	return uint64(carried[p.afloat()] & afford[min(max(p.Energy, 0), len(afford)-1)])
}

// afloat returns the set of p's ships afloat: bit k is set while ship k's
// Destroyed flag is false. It reads the five flags without a loop, small
// enough to inline (fireable, processRound and writeScalars run it for
// every seat of every step).
func (p *Player) afloat() uint8 {
	sh := &p.Ships
	a := uint8(1<<NumShips - 1)
	if sh[0].Destroyed {
		a &^= 1 << 0
	}
	if sh[1].Destroyed {
		a &^= 1 << 1
	}
	if sh[2].Destroyed {
		a &^= 1 << 2
	}
	if sh[3].Destroyed {
		a &^= 1 << 3
	}
	if sh[4].Destroyed {
		a &^= 1 << 4
	}
	return a
}

// allPlaced reports whether every ship of p is placed.
func (p *Player) allPlaced() bool {
	sh := &p.Ships
	return sh[0].Placed && sh[1].Placed && sh[2].Placed && sh[3].Placed && sh[4].Placed
}

// carried holds, per set of ships afloat (bit k: ship type k), the codes
// (bit code) whose weapon one of them carries: a special weapon's ship, or
// any ship for the codes no ship carries.
var carried = func() (t [1 << NumShips]uint16) {
	for afloat := range t {
		for code, k := range codeShip {
			if k >= 0 && afloat>>k&1 != 0 || k < 0 && afloat != 0 {
				t[afloat] |= 1 << code
			}
		}
	}
	return t
}()

// affordable holds, per map side n and energy e (the last entry standing
// for every energy from the dearest weapon's cost up), the codes (bit
// code) whose weapon costs at most e.
var affordable = func() (t [MaxSize + 1][]uint16) {
	for n := range t {
		dearest := 0
		for code := range NumCodes {
			dearest = max(dearest, WeaponCost(codeWeapon[code], n))
		}
		t[n] = make([]uint16, dearest+1)
		for e := range t[n] {
			for code := range NumCodes {
				if e >= WeaponCost(codeWeapon[code], n) {
					t[n][e] |= 1 << code
				}
			}
		}
	}
	return t
}()

// fire runs a fire command (spec §5.1).
func (g *Game) fire(s, code, x, y int) bool {
	if !g.canFire(s, code) {
		return false
	}
	p, opp := &g.players[s], &g.players[1-s]
	if code == CodeSeeker {
		tx, ty, found := x, y, false
		for _, o := range seekerOffsets {
			cx, cy := x+o[0], y+o[1]
			if !g.InBounds(cx, cy) {
				continue
			}
			c := opp.cells[cx*g.n+cy]
			if c.Ship != 0 && !c.Hit && !c.Shielded {
				tx, ty, found = cx, cy, true
				break
			}
		}
		if !found && !g.InBounds(tx, ty) {
			return false
		}
		p.ShotsFired++
		g.landShot(s, tx, ty, false)
	} else {
		if code == CodeSingle && !g.InBounds(x, y) {
			return false
		}
		p.ShotsFired++
		for _, o := range patterns[code] {
			if cx, cy := x+o[0], y+o[1]; g.InBounds(cx, cy) {
				g.landShot(s, cx, cy, true)
			}
		}
	}
	p.Energy -= WeaponCost(codeWeapon[code], g.n)
	return true
}

// landShot lands seat s's shot on the opponent's cell (x, y).
func (g *Game) landShot(s, x, y int, sinkBonus bool) {
	p, opp := &g.players[s], &g.players[1-s]
	c := &opp.cells[x*g.n+y]
	g.touch(1-s, x*g.n+y)
	if c.Shielded {
		c.ShieldHit = true
		return
	}
	was := c.Hit
	c.Hit = true
	if c.Ship == 0 || was {
		return
	}
	t := ShipType(c.Ship - 1)
	g.hitShips[1-s] |= 1 << t
	p.ShotsHit++
	p.Points += 10
	if p.FirstShotLanded < 0 {
		p.FirstShotLanded = g.round
	}
	if sinkBonus && !opp.Ships[t].Destroyed && g.allHit(opp, t) {
		p.Points += 30
	}
}

// shield places seat s's shield centred on (x, y) of its own map (spec §6).
func (g *Game) shield(s, x, y int) bool {
	p := &g.players[s]
	sh := &p.Shield
	if sh.Charges < 1 || sh.Active {
		return false
	}
	r := sh.Radius
	for cx := max(x-r, 0); cx <= min(x+r, g.n-1); cx++ {
		for cy := max(y-r, 0); cy <= min(y+r, g.n-1); cy++ {
			g.touch(s, cx*g.n+cy)
			p.cells[cx*g.n+cy].Shielded = true
		}
	}
	sh.RoundLastUsed = g.round
	sh.Active = true
	sh.CX, sh.CY = x, y
	return true
}

// writeRewards writes each seat's reward for the step just taken.
func (g *Game) writeRewards(rewards []float32) {
	for s := range Seats {
		r := float32(0)
		if g.cfg.PointsReward != 0 {
			r = g.cfg.PointsReward * float32(g.players[s].Points-g.lastPoints[s])
		}
		rewards[s] = r
	}
	if !g.done {
		return
	}
	winner, draw := g.Outcome()
	if draw {
		return
	}
	for s := range Seats {
		if s == winner {
			rewards[s]++
		} else {
			rewards[s]--
		}
	}
}

// writeFlags writes terminated (killed, or the game ended by elimination)
// and truncated (alive when the round cap ended the game).
func (g *Game) writeFlags(terminated, truncated []bool) {
	for s := range Seats {
		k := g.players[s].Killed
		terminated[s] = k || (g.done && !g.truncEnd)
		truncated[s] = !k && g.done && g.truncEnd
	}
}
