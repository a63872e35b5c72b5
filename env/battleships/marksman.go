package battleships

import "github.com/botarena/botarena/env"

// newMarksmanAgent is the factory of the "marksman" agent.
var newMarksmanAgent = env.GameAgent("battleships", "marksman", func() env.Agent { return NewMarksman() })

// Marksman is [Admiral] (its searched fleet in learn placement, hunter's
// shooting) with the shield raised at a better moment. Hunter raises it as
// soon as its last ship fits under it, often before the opponent has found
// that ship, so the charges that the rounds have built up (one every 7
// rounds) mostly guard cells nobody shoots. The marksman waits until the
// opponent has hit one of its afloat ships and the shield can cover every
// unhit cell of every afloat ship (not only the last one), then raises it
// over them: the shots that would finish its fleet are held off for as
// many rounds as it had charges. It is the rule that Config.ShieldMask
// puts in a policy's mask. On 14×14 it beats admiral, whose play it
// shares but for the shield, in about 62% of games
// (docs/training/battleships-large-shield).
//
// Its randomness comes from the seed given to Reset. Not safe for
// concurrent use; Act does not allocate.
type Marksman struct {
	Admiral
}

// NewMarksman returns a marksman.
func NewMarksman() *Marksman {
	m := &Marksman{}
	m.fleetShield, m.shieldOnHit = true, true
	return m
}
