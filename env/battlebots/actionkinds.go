package battlebots

// actionKinds are the kinds of BattleBots' actions, for behaviour figures
// (how often a bot moves, shoots or lays mines): see [Game.ActionKind].
var actionKinds = []string{"nothing", "move", "bullet", "missile", "mine", "emp"}

// ActionKinds names the kinds [Game.ActionKind] sorts actions into:
// nothing (NO), move, bullet, missile, mine (a landmine) and emp, each in
// any direction. The slice is shared: do not modify it.
func (g *Game) ActionKinds() []string { return actionKinds }

// ActionKind returns the kind of action, an index into [Game.ActionKinds],
// whether or not the rules let it take effect (a weapon without ammunition
// still counts); an action out of range is nothing.
func (g *Game) ActionKind(action int32) int {
	switch a := Action(action); {
	case a >= MoveN && a < BulletN:
		return 1
	case a >= BulletN && a < MissileN:
		return 2
	case a >= MissileN && a < LandmineN:
		return 3
	case a >= LandmineN && a < EMP:
		return 4
	case a == EMP:
		return 5
	}
	return 0
}
