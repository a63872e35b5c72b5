package env

// KeepSafe narrows a legal action mask to the safe actions, for a game's
// safe mask: when some action legal in mask is safe (safe[a] for a <
// len(safe)), it clears every action of mask that is not safe, except
// action 0, which stays legal as [Env.WriteMask] requires, and returns
// true; otherwise it leaves mask as it is, so that the mask never loses its
// last legal action, and returns false. It never allocates.
func KeepSafe(mask []uint8, safe []bool) bool {
	anySafe := false
	for a, ok := range safe {
		anySafe = anySafe || ok && mask[a] != 0
	}
	if !anySafe {
		return false
	}
	for a, ok := range safe {
		if !ok && a != 0 {
			mask[a] = 0
		}
	}
	return true
}
