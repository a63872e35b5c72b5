package portalbomber

// The causes [Game.DeathCause] gives, indices into deathCauses; own and
// opponent's bomb is the two bits of own bomb and opponent's bomb.
const (
	deathAlive = iota
	deathOwnBomb
	deathOpponentsBomb
	deathOwnAndOpponentsBomb
	deathFire
	deathUnknown
)

// deathCauses names how a player ended, for behaviour figures (a bot's
// wins by its opponent's own bomb): see [Game.DeathCause].
var deathCauses = []string{"alive", "own bomb", "opponent's bomb", "own and opponent's bomb", "fire", "unknown"}

// DeathCauses names the causes [Game.DeathCause] gives: alive; own bomb
// (the explosion trails on the player's cell when it died were all of its
// own bombs); opponent's bomb (all the opponent's); own and opponent's
// bomb (both); fire (the apocalypse's fire was there, whatever trails
// were too); unknown (a player loaded dead from a state file, which does
// not say what killed it). The slice is shared: do not modify it.
func (g *Game) DeathCauses() []string { return deathCauses }

// DeathCause returns how seat's player stands, an index into
// [Game.DeathCauses]: alive (0) while it is alive, else what killed it. A
// trail is its bomb's owner's, whoever set the bomb off, and stays for its
// ticks, so a player that walks into an old trail died by that trail's
// owner. It does not allocate.
func (g *Game) DeathCause(seat int) int {
	if g.players[seat].Alive {
		return deathAlive
	}
	if c := g.killedBy[seat]; c != 0 {
		return int(c)
	}
	return deathUnknown
}

// killCause returns the cause of the death of seat by the trails of cell
// c: fire, else own, opponent's or both (the causes are bits: both is
// own|opponent's); unknown when c has no trail.
func killCause(seat int, c *cell) uint8 {
	if c.trails[ownerSlot(FireOwner)].Type != NoTrail {
		return deathFire
	}
	var cause uint8
	if c.trails[seat].Type != NoTrail {
		cause |= deathOwnBomb
	}
	if c.trails[1-seat].Type != NoTrail {
		cause |= deathOpponentsBomb
	}
	if cause == 0 {
		return deathUnknown
	}
	return cause
}
