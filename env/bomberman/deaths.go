package bomberman

import "math/bits"

// The causes [Game.DeathCause] gives, indices into deathCauses; own and
// opponent's bomb is the two bits of own bomb and opponent's bomb.
const (
	deathAlive = iota
	deathOwnBomb
	deathOpponentsBomb
	deathOwnAndOpponentsBomb
	deathUnknown
)

// deathCauses names how a player ended, for behaviour figures (a bot's
// wins by its opponent's own bomb): see [Game.DeathCause].
var deathCauses = []string{"alive", "own bomb", "opponent's bomb", "own and opponent's bomb", "unknown"}

// DeathCauses names the causes [Game.DeathCause] gives: alive; own bomb
// (every blast that reached the player's cell in the round it died was of
// its own bombs); opponent's bomb (every one was another player's); own
// and opponent's bomb (both); unknown (a player loaded dead from a state
// file, which does not say what killed it). The slice is shared: do not
// modify it.
func (g *Game) DeathCauses() []string { return deathCauses }

// DeathCause returns how seat's player stands, an index into
// [Game.DeathCauses]: alive (0) while it is not killed, else what killed
// it. A bomb counts as its owner's whoever set it off: a chain is not
// followed back to the bomb that started it, so a player caught by an
// opponent's bomb that its own bomb detonated died by the opponent's bomb.
// It does not allocate.
func (g *Game) DeathCause(seat int) int {
	if !g.players[seat].Killed {
		return deathAlive
	}
	if c := g.killedBy[seat]; c != 0 {
		return int(c)
	}
	return deathUnknown
}

// killCause returns the cause of the death of seat by the blasts of the
// bomb slots in reached (a cell's reached set): own, opponent's or both
// (the causes are bits: both is own|opponent's); unknown when no slot of
// reached holds a bomb.
func (g *Game) killCause(seat int, reached uint64) uint8 {
	var cause uint8
	for m := reached; m != 0; m &= m - 1 {
		switch b := &g.bombs[bits.TrailingZeros64(m)]; {
		case !b.live:
		case b.Owner == seat:
			cause |= deathOwnBomb
		default:
			cause |= deathOpponentsBomb
		}
	}
	if cause == 0 {
		return deathUnknown
	}
	return cause
}
