package bomberman

// actionKinds are the kinds of Bomberman's actions, for behaviour figures
// (how often a bot moves, bombs or triggers): see [Game.ActionKind].
var actionKinds = []string{"nothing", "move", "bomb", "trigger"}

// ActionKinds names the kinds [Game.ActionKind] sorts actions into:
// nothing, move (any of the four), bomb (place one) and trigger (the
// bomb with the shortest fuse). The slice is shared: do not modify it.
func (g *Game) ActionKinds() []string { return actionKinds }

// ActionKind returns the kind of action, an index into [Game.ActionKinds],
// whether or not the rules let it take effect; an action out of range is
// nothing, as the engine treats it.
func (g *Game) ActionKind(action int32) int {
	switch a := Action(action); {
	case a >= MoveUp && a <= MoveDown:
		return 1
	case a == PlaceBomb:
		return 2
	case a == TriggerBomb:
		return 3
	}
	return 0
}
