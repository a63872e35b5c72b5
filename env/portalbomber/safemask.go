package portalbomber

import "github.com/botarena/botarena/env"

// A safe mask ([Config.SafeMask]) is the legal mask less the actions after
// which no walk survives the bombs, trails and fire on the map. It is the
// escape check of the built-in bots, not a second simulator: an action is
// safe when, played on a copy of the game ([Game.Step]), it leaves the
// player alive and the game over, or it leaves a walk, through portals as
// [Raider] walks, that avoids every cell at the round end the fire
// forecast ([Game.Forecast]) makes it deadly, for the next greedyHorizon
// (8) round ends: a new bomb's five, its trail's two, and one more. The
// forecast explodes every bomb with its owner's range and pierce at that
// moment, so a buy of range or pierce that makes the player's own bomb
// reach it is judged with the bigger blast; a bomb is judged with the
// bomb on the player's cell, a portal shot with the portal placed, and a
// bought block with the block in the way.
//
// The other player is taken as standing where it is: its body blocks a
// way, and its moves and bombs to come are not foreseen. A safe mask rules
// out certain deaths against a player who stands still, not risks.
//
// A wary safe mask ([Config.SafeMaskWary]) foresees the other player
// too, as [Raider] does: it first keeps the actions after which an escape
// remains whatever the other player does with its moves before the
// player's next (wait, step in any direction, or bomb; it may move twice
// across a round end), which is how raider traps (Raider.robust); when
// none is safe under that, it judges as the plain safe mask does.
//
// Wait (action 0) stays whatever it costs (every env's action 0 is);
// when no other action is safe and waiting is not either, the mask is
// left as it is, so it never loses its last legal action. Only the mask
// changes: Step carries out a masked action as it always does, so a safe
// mask restricts a learner, not the game.

// safeMask clears from mask, the legal mask WriteMask wrote for seat, the
// actions after which seat has no escape (see the comment above): with
// wary, first those after which some reply of the other player leaves it
// none, and when that leaves no action safe, as without wary. It uses a
// as scratch and does not allocate.
func (a *Raider) safeMask(g *Game, seat int, mask []uint8, wary bool) {
	if wary && a.maskUnder(g, seat, mask, true) {
		return
	}
	a.maskUnder(g, seat, mask, false)
}

// maskUnder judges seat's actions in mask, against the other player's
// replies with wary, else against it standing still; when some action in
// mask is safe, it clears the unsafe ones but Wait and returns true, and
// otherwise leaves mask as it is.
func (a *Raider) maskUnder(g *Game, seat int, mask []uint8, wary bool) bool {
	var safe [NumActions]bool
	waitSafe := a.judge(g, seat, Wait, wary)
	safe[Wait] = waitSafe
	// With wary, the other player may bomb even on a quiet map.
	quiet := !wary && g.quiet()
	p := &g.players[seat]
	for m := Action(1); m < NumActions; m++ {
		if mask[m] == 0 {
			continue
		}
		switch {
		case m >= TurnLeft && m <= TurnDown, m == BuyCount:
			// A turn changes only the orientation and a bomb bought
			// only the bag: neither changes a blast, a walk or a
			// reply, so they are as safe as waiting.
			safe[m] = waitSafe
		case m >= MoveLeft && m <= MoveDown && g.blocked(p, m):
			// A move that fails only turns the player.
			safe[m] = waitSafe
		case (m == BuyRange || m == BuyPierce) && g.ownBombs(seat) == 0:
			// Range and pierce are read when a bomb goes off: without
			// a bomb of the player's on the map they change no blast
			// to come.
			safe[m] = waitSafe
		case quiet && m != PlaceBomb:
			// Nothing on the map can burn within the horizon.
			safe[m] = true
		default:
			safe[m] = a.judge(g, seat, m, wary)
		}
	}
	return env.KeepSafe(mask, safe[:])
}

// judge reports whether m is safe for seat in g: with wary, whatever the
// other player replies ([Raider.robust]), else against it standing
// still, walking through portals ([Greedy.escapesAfter]).
func (a *Raider) judge(g *Game, seat int, m Action, wary bool) bool {
	if wary {
		return a.robust(g, seat, m)
	}
	return a.escapesAfter(g, seat, m, true)
}

// quiet reports whether nothing on g's map can burn a cell within the
// safe mask's horizon whatever a player does but bomb: no bomb, no trail,
// no fire, and the apocalypse further off than the horizon.
func (g *Game) quiet() bool {
	if g.nBombs > 0 || g.nFire > 0 || g.moveNumber+2*(greedyHorizon+2) > g.cfg.ApocalypseAfter {
		return false
	}
	for _, m := range g.marked[:g.nMarked] {
		if g.cells[m].trailSeq != 0 {
			return false
		}
	}
	return true
}

// blocked reports whether move m of player p fails (it only turns p), as
// the engine's move (simulateMovement) decides.
func (g *Game) blocked(p *player, m Action) bool {
	px, py := p.at()
	x, y, _ := g.simulateMovement(px, py, int(m-MoveLeft), 0)
	return x == px && y == py
}

// ownBombs returns how many of seat's bombs are on the map.
func (g *Game) ownBombs(seat int) int {
	k := 0
	for _, b := range g.bombs[:g.nBombs] {
		if int(g.cells[b].bombOwner) == seat {
			k++
		}
	}
	return k
}
