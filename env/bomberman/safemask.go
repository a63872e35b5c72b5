package bomberman

import "github.com/botarena/botarena/env"

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
// (as every env's action 0 is, by default); when no other action is safe
// and waiting is not either, the mask is left as it is.
//
// A strict safe mask ([Config.SafeMaskStrict]) judges Do Nothing too: when
// waiting a round is certain death and some other action is safe, it
// clears Do Nothing as well, so a learner cannot stand in its own bomb's
// ray until it blows (the way the harvester clone died in most of its
// games against hunter). It judges a Do Nothing as what the 20-do-nothing
// rule makes of it (a bot's, not a console seat's; [Game.nextWait]): the
// 20th in a row as the bomb the harness plants for the bot (when the bot
// may plant one), the 21st as fatal, since the harness then stops running
// the bot and it never moves again (the way bomberman-2p-planner-touched
// died in most of its own-bomb deaths: waiting beside an opponent until
// the harness planted under it, then waiting on).
//
// A wary safe mask ([Config.SafeMaskWary]) foresees what an opponent can
// do this round and the next: it first judges the actions with every
// opponent's bombs set off by a trigger now (blasting from the second
// round on, with the bombs their blasts reach) and a bomb planted where
// each opponent with one in its bag stands, triggered in the next round
// (blasting from the third), which is how hunter traps a player; when
// nothing is safe under that, it drops the opponents' plants, and then
// their triggers, and judges as the plain safe mask does.
//
// Only the mask changes: Step carries out a masked action as it always
// does, so a safe mask restricts a learner, not the game.

// maskModel is what a safe mask assumes of the opponents: their bombs
// triggered from round trigFrom on (0: at their fuses), and, with plants,
// a bomb planted this round where each of them stands.
type maskModel struct {
	trigFrom int
	plants   bool
}

// The models a safe mask judges under, most cautious first: the first
// that leaves a safe action sets the mask.
var (
	plainMaskModels = []maskModel{{}}
	waryMaskModels  = []maskModel{{trigFrom: triggerNext, plants: true}, {trigFrom: triggerNext}, {}}
)

// safeMask clears the unsafe actions of seat in mask, the legal mask
// WriteMask wrote, under the models of a plain or, with wary, a wary safe
// mask; with strict, a fatal Do Nothing too. It uses h as scratch and does
// not allocate.
func (h *Hunter) safeMask(g *Game, seat int, mask []uint8, wary, strict bool) {
	p := g.Player(seat)
	if p.Killed {
		return
	}
	h.seat = seat
	h.see(g)
	models := plainMaskModels
	if wary {
		models = waryMaskModels
	}
	for _, m := range models {
		if h.maskUnder(g, p, m, mask, strict) {
			return
		}
	}
}

// maskUnder judges seat's actions (h.seat, player p) under model m; when
// some action in mask is safe, it clears the unsafe ones but Do Nothing
// (and, with strict, an unsafe Do Nothing too when another action is safe)
// and returns true, and otherwise leaves mask as it is.
func (h *Hunter) maskUnder(g *Game, p Player, m maskModel, mask []uint8, strict bool) bool {
	me := h.idx(p.X, p.Y)
	h.model(g, m)
	h.simulate()
	var safe [NumActions]bool
	safe[DoNothing] = h.safe[1][me]
	x, y := h.xy(me)
	for _, mv := range hunterMoves {
		if mask[mv.a] == 0 {
			continue
		}
		if nx, ny := x+mv.dx, y+mv.dy; h.on(nx, ny) {
			t := h.idx(nx, ny)
			safe[mv.a] = h.passable(t, 1) && h.safe[1][t] && (!h.occupied[t] || h.safe[1][me])
		}
	}
	if mask[TriggerBomb] != 0 {
		if b := g.triggerTarget(h.seat); b >= 0 {
			h.model(g, m)
			for k := range h.nMap {
				if h.bx[k] == g.bombs[b].X && h.by[k] == g.bombs[b].Y {
					h.bt[k] = triggerNext
				}
			}
			h.simulate()
			safe[TriggerBomb] = h.safe[1][me]
		}
	}
	if mask[PlaceBomb] != 0 && h.nb < len(h.bx) {
		h.model(g, m)
		h.addPlant(me, p.BombRadius, plantTimer(p.BombBag), h.seat, 0)
		h.simulate()
		safe[PlaceBomb] = h.safe[1][me]
	}
	if strict {
		// The do-nothing rule (spec §7.3) makes some waits something else.
		switch g.nextWait(h.seat) {
		case waitPlants:
			if mask[PlaceBomb] != 0 {
				safe[DoNothing] = safe[PlaceBomb]
			}
		case waitTakesOver:
			safe[DoNothing] = false
		}
	}
	if !env.KeepSafe(mask, safe[:]) {
		return false
	}
	if strict && !safe[DoNothing] {
		mask[DoNothing] = 0 // KeepSafe kept a safe action other than it
	}
	return true
}

// plantTimer is the simulation timer of a bomb planted this round by a
// player with bag bombs: its fuse (spec §5.3), plus the round it waits
// before its first decrement.
func plantTimer(bag int) int { return min(9, 3*bag) + 2 }

// model resets the simulation to the map's bombs under m: opponents'
// triggers from m.trigFrom, and with m.plants a bomb on the cell of every
// live opponent that has one left in its bag and no bomb underfoot, whose
// trigger blasts from the round after m.trigFrom (it is planted in this
// round's commands and can be triggered in the next).
func (h *Hunter) model(g *Game, m maskModel) {
	h.reset(m.trigFrom)
	if !m.plants {
		return
	}
	for q := range g.nPlayers {
		o := g.Player(q)
		if q == h.seat || o.Killed {
			continue
		}
		onMap := 0
		for b := range h.nMap {
			if h.bo[b] == q {
				onMap++
			}
		}
		c := h.idx(o.X, o.Y)
		// One slot stays free for the seat's own plant.
		if onMap >= o.BombBag || h.bombAt0(c) || h.nb >= len(h.bx)-1 {
			continue
		}
		h.addPlant(c, o.BombRadius, plantTimer(o.BombBag), q, m.trigFrom+1)
	}
}

// addPlant adds a hypothetical bomb to the simulation: on cell c, of
// radius, simulation timer t and owner, whose trigger blasts from round
// trigAt (0: never triggered; an owner's own bombs never are).
func (h *Hunter) addPlant(c, radius, t, owner, trigAt int) {
	x, y := h.xy(c)
	k := h.nb
	h.bx[k], h.by[k], h.br[k], h.bt[k], h.bo[k], h.trigAt[k] = x, y, radius, t, owner, trigAt
	h.nb++
}
