package bomberman

// A safe mask ([Config.SafeMask]) is the legal mask less the actions after
// which no sequence of moves and waits survives the bombs on the map: the
// hunter bot's simulation of fuses and chain reactions (see [Hunter]),
// with opponents' bombs exploding at their own fuses (their triggers, and
// their moves into the player's way, are not foreseen: a safe mask rules
// out certain deaths, not risks). A move is safe when a plan survives from
// its target (or, when another player stands there and the move may fail,
// from both cells); a bomb when one survives with that bomb on the cell, as
// hunter plants; a trigger when one survives with the bomb it sets off
// (the engine's choice, triggerTarget) exploding next round. Do Nothing stays legal whatever it costs
// (every env's action 0 is); when no other action is safe and waiting is
// not either, the mask is left as it is.
//
// Only the mask changes: Step carries out a masked action as it always
// does, so a safe mask restricts a learner, not the game.

// safeMask clears the unsafe actions of seat in mask, the legal mask
// WriteMask wrote. It uses h as scratch and does not allocate.
func (h *Hunter) safeMask(g *Game, seat int, mask []uint8) {
	p := g.Player(seat)
	if p.Killed {
		return
	}
	h.seat = seat
	h.see(g)
	me := h.idx(p.X, p.Y)
	h.reset(0)
	h.simulate()
	var safe [NumActions]bool
	safe[DoNothing] = h.safe[1][me]
	x, y := h.xy(me)
	for _, m := range hunterMoves {
		if mask[m.a] == 0 {
			continue
		}
		if nx, ny := x+m.dx, y+m.dy; h.on(nx, ny) {
			t := h.idx(nx, ny)
			safe[m.a] = h.passable(t, 1) && h.safe[1][t] && (!h.occupied[t] || h.safe[1][me])
		}
	}
	if mask[TriggerBomb] != 0 {
		if b := g.triggerTarget(seat); b >= 0 {
			h.reset(0)
			for k := range h.nMap {
				if h.bx[k] == g.bombs[b].X && h.by[k] == g.bombs[b].Y {
					h.bt[k] = triggerNext
				}
			}
			h.simulate()
			safe[TriggerBomb] = h.safe[1][me]
		}
	}
	if mask[PlaceBomb] != 0 {
		fuse := min(9, 3*p.BombBag) + 1
		safe[PlaceBomb] = h.plantSafe(me, p.BombRadius, fuse+1, 0, false)
	}
	anySafe := false
	for a, ok := range safe {
		anySafe = anySafe || ok && mask[a] != 0
	}
	if !anySafe {
		return
	}
	for a, ok := range safe {
		if !ok && Action(a) != DoNothing {
			mask[a] = 0
		}
	}
}
