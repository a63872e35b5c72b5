package battlebots

import "math/bits"

// Step plays one round exactly as the original's main loop does (spec §3):
// movement (skipped, with the landmine check, while paralysed), EMP,
// deployment of bot1's then bot2's weapon, bullets then missiles, and the
// end-of-bout check. It implements [env.Env.Step]:
//
//   - actions, rewards, terminated and truncated have one element per seat
//     (2); a wrong length panics.
//   - Actions outside 0..33 do nothing, like any unrecognised text in the
//     original, and count in [Game.Invalid], as do actions the mask marks
//     illegal (they too do what the original does: nothing).
//   - Rewards follow [RewardDefinition]. Both seats are terminated when a
//     bot drops below 1 HP, and truncated when the round cap ends the bout.
//   - Stepping a bout that is Done writes zero rewards and the final flags.
//
// Step never allocates. It is not safe for concurrent use.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	if len(actions) != 2 || len(rewards) != 2 || len(terminated) != 2 || len(truncated) != 2 {
		g.spec.CheckStep(actions, rewards, terminated, truncated) // panics
	}
	if g.done {
		rewards[0], rewards[1] = 0, 0
		g.writeFlags(terminated, truncated)
		return
	}
	a1, a2 := g.decode(0, actions[0]), g.decode(1, actions[1])
	hp1, hp2 := g.bots[0].HP, g.bots[1].HP

	// Movement phase.
	if g.histN > 0 {
		g.acts[g.round%MaxHistory].from = g.bots // for the history
	}
	if g.paralysed == 0 {
		g.moveBots(a1, a2)
		g.checkLandmines()
	} else {
		g.paralysed--
	}
	// EMP phase: bot1's EMP wins; only one counts.
	if a1 == EMP {
		g.paralysed = 2
		g.bots[0].HP--
	} else if a2 == EMP {
		g.paralysed = 2
		g.bots[1].HP--
	}
	if g.histN > 0 {
		g.record(a1, a2)
	}
	// Deployment phase.
	g.deploy(0, a1)
	g.deploy(1, a2)
	// Projectiles.
	g.moveBullets()
	g.moveMissiles()

	g.round++
	if g.bots[0].HP < 1 || g.bots[1].HP < 1 {
		g.done = true
	} else if g.round >= g.maxRounds {
		g.done, g.truncatedEnd = true, true
	}
	g.writeRewards(rewards, hp1, hp2)
	g.writeFlags(terminated, truncated)
}

// decode returns seat's action as the original applies it, counting the
// out-of-range and masked-illegal ones.
func (g *Game) decode(seat int, a int32) Action {
	act := Action(a)
	if act < 0 || act >= NumActions {
		g.invalid[seat]++
		return Nothing
	}
	switch kind, d := act.Kind(); kind {
	case MoveN:
		b := &g.bots[seat]
		if g.paralysed > 0 || !g.InBounds(b.X+dirDX[d], b.Y+dirDY[d]) {
			g.invalid[seat]++
		}
	case LandmineN:
		b := &g.bots[seat]
		if !g.InBounds(b.X+dirDX[d], b.Y+dirDY[d]) {
			g.invalid[seat]++
		}
	}
	return act
}

// step returns the movement vector of an action: its direction for the
// eight moves, (0,0) for anything else (the original's directions[action]
// lookup of a string that is not a direction).
func step(a Action) (dx, dy int) {
	if a >= MoveN && a < BulletN {
		d := a - MoveN
		return dirDX[d], dirDY[d]
	}
	return 0, 0
}

// moveBots is the original's moveBots (spec §4.1): bot1 tries first against
// bot2's current cell, bot2 against bot1's new cell, and bot1, if it failed,
// tries again against bot2's new cell.
func (g *Game) moveBots(a1, a2 Action) {
	b1, b2 := &g.bots[0], &g.bots[1]
	dx1, dy1 := step(a1)
	dx2, dy2 := step(a2)
	x, y := b1.X+dx1, b1.Y+dy1
	moved1 := false
	if g.InBounds(x, y) && (x != b2.X || y != b2.Y) {
		b1.X, b1.Y = x, y
		moved1 = true
	}
	x, y = b2.X+dx2, b2.Y+dy2
	if g.InBounds(x, y) && (x != b1.X || y != b1.Y) {
		b2.X, b2.Y = x, y
	}
	if !moved1 {
		x, y = b1.X+dx1, b1.Y+dy1
		if g.InBounds(x, y) && (x != b2.X || y != b2.Y) {
			b1.X, b1.Y = x, y
		}
	}
}

// checkLandmines is the original's checkLandmines (spec §4.3): a mine, dead
// or alive, under bot1 costs bot1 2 and bot2 1 if adjacent; else under bot2
// the same the other way round; each such mine dies; then every dead mine
// is removed. Only the mines under the two bots can fire and the damage
// adds up, so the list order of the original does not matter.
func (g *Game) checkLandmines() {
	if g.nMines == 0 {
		return
	}
	b1, b2 := &g.bots[0], &g.bots[1]
	if i := b1.Y*Side + b1.X; g.mines[i] != 0 {
		b1.HP -= 2
		if adjacent(b2.X, b2.Y, b1.X, b1.Y) {
			b2.HP--
		}
		g.removeMine(i)
	}
	if i := b2.Y*Side + b2.X; g.mines[i] != 0 {
		b2.HP -= 2
		if adjacent(b1.X, b1.Y, b2.X, b2.Y) {
			b1.HP--
		}
		g.removeMine(i)
	}
	for w := range g.deadBits {
		for g.deadBits[w] != 0 {
			g.removeMine(w<<6 + bits.TrailingZeros64(g.deadBits[w]))
		}
	}
}

// deploy is the original's deployWeapons for seat's action (spec §4.2–4.4).
func (g *Game) deploy(seat int, a Action) {
	kind, d := a.Kind()
	b := &g.bots[seat]
	switch kind {
	case BulletN:
		if g.nBullets < MaxBullets {
			g.bullets[g.nBullets] = Projectile{X: b.X, Y: b.Y, Dir: d}
			g.nBullets++
		}
	case MissileN:
		if g.nMissiles < MaxMissiles {
			g.missiles[g.nMissiles] = Projectile{X: b.X, Y: b.Y, Dir: d}
			g.nMissiles++
		}
	case LandmineN:
		x, y := b.X+dirDX[d], b.Y+dirDY[d]
		if !g.InBounds(x, y) {
			return
		}
		i := y*Side + x
		if g.mines[i] != 0 {
			// A mine on a mine: splash to every bot adjacent to the
			// cell (the layer always is), the old mine dies, the new one
			// is not laid.
			if adjacent(b.X, b.Y, x, y) {
				b.HP--
			}
			if e := &g.bots[1-seat]; adjacent(e.X, e.Y, x, y) {
				e.HP--
			}
			g.killMine(i)
			return
		}
		f := mineLive
		if seat == 1 {
			f |= mineBot2
		}
		g.setMine(i, f)
	}
}

// moveBullets is the original's moveBullets (spec §4.4): three sub-steps
// per bullet, oldest first; a hit on bot1 (checked first) or bot2 costs it
// 1 and ends the bullet; a step out of bounds kills it where it is. Dead
// bullets are removed at the end.
func (g *Game) moveBullets() {
	if g.nBullets == 0 {
		return
	}
	b1, b2 := &g.bots[0], &g.bots[1]
	n := 0
	for i := range g.nBullets {
		p := g.bullets[i]
		dx, dy := dirDX[p.Dir], dirDY[p.Dir]
		for range 3 {
			x, y := p.X+dx, p.Y+dy
			if !g.InBounds(x, y) {
				// The original marks it dead and goes on; every further
				// sub-step finds the wall again and does nothing more.
				p.dead = true
				break
			}
			p.X, p.Y = x, y
			if x == b1.X && y == b1.Y {
				b1.HP--
				p.dead = true
				break
			}
			if x == b2.X && y == b2.Y {
				b2.HP--
				p.dead = true
				break
			}
		}
		if !p.dead {
			g.bullets[n] = p
			n++
		}
	}
	g.nBullets = n
}

// moveMissiles is the original's moveMissiles (spec §4.4): two sub-steps
// per missile; a hit costs the bot hit 3 and the other bot 1 if adjacent to
// the cell; a step out of bounds costs every bot adjacent to the missile's
// cell 1 and kills it, and the loop goes on, so a missile that meets the
// wall on its first sub-step splashes twice.
func (g *Game) moveMissiles() {
	if g.nMissiles == 0 {
		return
	}
	b1, b2 := &g.bots[0], &g.bots[1]
	n := 0
	for i := range g.nMissiles {
		p := g.missiles[i]
		dx, dy := dirDX[p.Dir], dirDY[p.Dir]
		for range 2 {
			x, y := p.X+dx, p.Y+dy
			if !g.InBounds(x, y) {
				if adjacent(b1.X, b1.Y, p.X, p.Y) {
					b1.HP--
				}
				if adjacent(b2.X, b2.Y, p.X, p.Y) {
					b2.HP--
				}
				p.dead = true
				continue
			}
			p.X, p.Y = x, y
			if x == b1.X && y == b1.Y {
				b1.HP -= 3
				if adjacent(b2.X, b2.Y, x, y) {
					b2.HP--
				}
				p.dead = true
				break
			}
			if x == b2.X && y == b2.Y {
				b2.HP -= 3
				if adjacent(b1.X, b1.Y, x, y) {
					b1.HP--
				}
				p.dead = true
				break
			}
		}
		if !p.dead {
			g.missiles[n] = p
			n++
		}
	}
	g.nMissiles = n
}

// writeRewards writes the terminal rewards and the optional HP shaping.
func (g *Game) writeRewards(rewards []float32, hp1, hp2 int) {
	rewards[0], rewards[1] = 0, 0
	if s := g.hpReward; s != 0 {
		d := float32((g.bots[0].HP - hp1) - (g.bots[1].HP - hp2))
		rewards[0], rewards[1] = s*d, -s*d
	}
	if g.done {
		switch w, _ := g.Outcome(); w {
		case 0:
			rewards[0]++
			rewards[1]--
		case 1:
			rewards[0]--
			rewards[1]++
		}
	}
}

// writeFlags writes terminated and truncated: both seats end together.
func (g *Game) writeFlags(terminated, truncated []bool) {
	term := g.done && !g.truncatedEnd
	trunc := g.done && g.truncatedEnd
	terminated[0], terminated[1] = term, term
	truncated[0], truncated[1] = trunc, trunc
}
