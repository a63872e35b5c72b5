package battleships

// actionKinds are the kinds of Battleships' actions, for behaviour figures
// (which shots a bot fires, whether it places its fleet): see
// [Game.ActionKind]. Kind k, from 1 to 7, is the shot or command of its
// command.txt code, both doubles being one kind.
var actionKinds = []string{"nothing", "single", "double", "corner", "diagonal cross", "cross", "seeker", "shield", "place"}

// ActionKinds names the kinds [Game.ActionKind] sorts actions into:
// nothing, the shots by kind (single, double vertical or horizontal,
// corner, diagonal cross, cross, seeker), shield, and place (a ship of the
// fleet, in any direction). The slice is shared: do not modify it.
func (g *Game) ActionKinds() []string { return actionKinds }

// ActionKind returns the kind of action, an index into [Game.ActionKinds],
// whether or not the rules let it take effect (a shot without energy still
// counts); an action out of range is nothing.
func (g *Game) ActionKind(action int32) int {
	d := decode(g.n, action)
	switch d.kind {
	case actCommand:
		if d.code > CodeDoubleVertical {
			return d.code - 1 // the two doubles share kind 2
		}
		return d.code
	case actPlace:
		return len(actionKinds) - 1
	}
	return 0
}
