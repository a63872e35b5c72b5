package vecenv

// ObsUpdater is implemented by envs that can bring an observation they
// wrote earlier up to date by writing only what changed, which is most of
// a pool step's memory traffic for games with large, mostly constant
// observations (Bomberman's walls, the cells Battleships did not shoot
// at) or sparse ones (the marks of BattleBots, Battle³ and portal
// Bomberman). The pool keeps, per row, the version that UpdateObs
// returned, and passes it back at the next write into the same row.
//
// UpdateObs writes seat's observation into dst, as env.Env.WriteObs does,
// and returns a version, never 0: of the env's state (Bomberman) or of
// the write itself (the other games). have is 0 or a version
// that an earlier UpdateObs of this env returned for this seat when it
// wrote the same dst, which nothing has written since; the env may then
// rely on dst holding that observation. When have is 0 or unknown to the
// env, it writes dst in full. Whatever have is, dst ends up holding exactly
// the bytes WriteObs would write.
//
// The pool passes a row's version only while the row keeps its env and
// seat and nothing else writes it: its own Buffers from one step to the
// next (a Reset writes every row in full). Callers that modify observation
// rows in place would see the modification kept in bytes that did not
// change.
type ObsUpdater interface {
	UpdateObs(seat int, dst [][]byte, have uint64) uint64
}

// MaskUpdater is to action masks what [ObsUpdater] is to observations:
// implemented by envs whose masks are large and change little from one
// step to the next (Battleships: a block of every target cell per weapon,
// rewritten only when a weapon's legality changes; Battle³: every action
// legal but a few moves and the own cell's bomb). UpdateMask writes
// seat's mask into dst, as env.Env.WriteMask does, and returns a version,
// never 0; have is 0 or a version an earlier UpdateMask of this env
// returned for this seat when it wrote the same dst, which nothing has
// written since. Whatever have is, dst ends up holding exactly the bytes
// WriteMask would write. The pool keeps and passes masks' versions under
// the same rules as observations' (rows that keep their env and seat, a
// Reset writing every row in full).
type MaskUpdater interface {
	UpdateMask(seat int, dst []uint8, have uint64) uint64
}
