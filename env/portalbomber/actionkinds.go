package portalbomber

// actionKinds are the kinds of portal Bomberman's actions, for behaviour
// figures (how often a bot moves, bombs or shoots portals): see
// [Game.ActionKind].
var actionKinds = []string{"wait", "move", "turn", "bomb", "portal", "buy", "invalid"}

// ActionKinds names the kinds [Game.ActionKind] sorts actions into: wait,
// move and turn (in any direction), bomb, portal (orange or blue), buy
// (any power-up) and invalid (a move string the engine does not know).
// The slice is shared: do not modify it.
func (g *Game) ActionKinds() []string { return actionKinds }

// ActionKind returns the kind of action, an index into [Game.ActionKinds],
// whether or not the rules let it take effect; an action out of range is
// invalid.
func (g *Game) ActionKind(action int32) int {
	switch a := Action(action); {
	case a == Wait:
		return 0
	case a >= MoveLeft && a <= MoveDown:
		return 1
	case a >= TurnLeft && a <= TurnDown:
		return 2
	case a == PlaceBomb:
		return 3
	case a == OrangePortal || a == BluePortal:
		return 4
	case a >= BuyCount && a <= BuyBlock:
		return 5
	}
	return 6
}
