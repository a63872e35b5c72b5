package battlecube

// actionKinds are the kinds of Battle³'s actions, for behaviour figures
// (how often a bot moves or bombs): see [Game.ActionKind].
var actionKinds = []string{"noop", "move", "bomb"}

// ActionKinds names the kinds [Game.ActionKind] sorts actions into: noop,
// move (along any axis) and bomb (on any cell). The slice is shared: do
// not modify it.
func (g *Game) ActionKinds() []string { return actionKinds }

// ActionKind returns the kind of action, an index into [Game.ActionKinds],
// whether or not the rules let it take effect; an action out of range is
// noop.
func (g *Game) ActionKind(action int32) int {
	switch a := Action(action); {
	case a > Noop && a < NumFixedActions:
		return 1
	case a >= NumFixedActions && int(a) < g.spec.Actions:
		return 2
	}
	return 0
}
