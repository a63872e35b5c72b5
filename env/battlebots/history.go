package battlebots

import (
	"encoding/binary"
	"math"
)

// MaxHistory bounds [Config.History], the rounds of actions the
// observation shows.
const MaxHistory = 8

// HistoryScalarsPerRound is the number of scalars one round of history
// adds: the seat's own action, then the enemy's as the seat saw it, each
// as 13 values (see [HistoryKindMove]).
const HistoryScalarsPerRound = 2 * historyActionScalars

// The 13 values of one action in the history scalars: a one-hot kind
// (offsets 0–4) and a one-hot direction (offsets 5–12, N..NW; none for an
// EMP). Nothing, and a round before the bout's first or before a
// LoadNative, is all zeros.
const (
	HistoryKindMove      = 0
	HistoryKindBullet    = 1
	HistoryKindMissile   = 2
	HistoryKindLandmine  = 3 // never set for the enemy: its mines are invisible
	HistoryKindEMP       = 4
	HistoryDir           = 5 // + the direction
	historyActionScalars = HistoryDir + NumDirs
)

// roundActs holds one round's actions: own[seat] as the seat chose it,
// shown[seat] as the other seat saw it; from is the bots before its
// movement phase.
type roundActs struct {
	own, shown [2]Action
	from       [2]Bot
}

// Shown returns seat's action of k rounds ago (k = 1 the round just
// played) as the other seat could see it, and whether that round is in
// the history (k in 1..Config.History, and played since the last Reset
// or LoadNative). What shows:
//
//   - a move, as the step the bot made: Nothing when its cell did not
//     change (paralysed, the wall, the other bot in the way);
//   - a bullet or missile when its projectile is still in flight after the
//     round or it cost a bot HP in the round (hit or splash), else
//     Nothing (fired into the wall, or dropped on a full list);
//   - an EMP, except bot2's in a round where bot1's EMP won;
//   - a landmine never (spec §4.3: the enemy's mines are invisible), nor
//     Nothing.
func (g *Game) Shown(seat, k int) (Action, bool) {
	if k < 1 || k > int(g.histN) || k > g.histLen {
		return Nothing, false
	}
	return g.acts[(g.round-k)%MaxHistory].shown[seat], true
}

// record writes the round's history entry: a1 and a2 as chosen, and what
// each showed. It runs after the movement and EMP phases and before
// deployment; Step set the entry's from before the movement phase.
func (g *Game) record(a1, a2 Action) {
	r := &g.acts[g.round%MaxHistory]
	r.own = [2]Action{a1, a2}
	nb, nm := g.nBullets, g.nMissiles
	for seat, a := range r.own {
		shown := Nothing
		switch kind, d := a.Kind(); kind {
		case MoveN:
			b, p := g.bots[seat], r.from[seat]
			if dx, dy := b.X-p.X, b.Y-p.Y; dx != 0 || dy != 0 {
				shown = Move(dirOf(dx, dy))
			}
		case BulletN:
			if nb < MaxBullets {
				nb++
				if g.bulletShows(seat, d) {
					shown = a
				}
			}
		case MissileN:
			if nm < MaxMissiles {
				nm++
				if g.missileShows(seat, d) {
					shown = a
				}
			}
		case EMP:
			if seat == 0 || a1 != EMP {
				shown = a
			}
		}
		r.shown[seat] = shown
	}
	if g.histLen < MaxHistory {
		g.histLen++
	}
}

// bulletShows reports whether seat's bullet fired in direction d this
// round is in flight after it or hits a bot: moveBullets' path for it,
// which depends only on the bots' cells (fixed by now).
func (g *Game) bulletShows(seat int, d Dir) bool {
	x, y := g.bots[seat].X, g.bots[seat].Y
	for range 3 {
		x, y = x+dirDX[d], y+dirDY[d]
		if !g.InBounds(x, y) {
			return false
		}
		if g.botAt(x, y) {
			return true
		}
	}
	return true
}

// missileShows reports whether seat's missile fired in direction d this
// round is in flight after it, hits a bot, or splashes one at the wall:
// moveMissiles' path for it.
func (g *Game) missileShows(seat int, d Dir) bool {
	x, y := g.bots[seat].X, g.bots[seat].Y
	for range 2 {
		nx, ny := x+dirDX[d], y+dirDY[d]
		if !g.InBounds(nx, ny) {
			b1, b2 := &g.bots[0], &g.bots[1]
			return adjacent(b1.X, b1.Y, x, y) || adjacent(b2.X, b2.Y, x, y)
		}
		x, y = nx, ny
		if g.botAt(x, y) {
			return true
		}
	}
	return true
}

// botAt reports whether a bot stands on (x, y).
func (g *Game) botAt(x, y int) bool {
	return (g.bots[0].X == x && g.bots[0].Y == y) || (g.bots[1].X == x && g.bots[1].Y == y)
}

// writeHistory writes seat's history scalars into d, the bytes after the
// NumScalars base scalars: for k = 1..histN, the own action of k rounds
// ago, then the enemy's as shown.
func (g *Game) writeHistory(seat int, d []byte) {
	d = d[:4*int(g.histN)*HistoryScalarsPerRound]
	clear(d)
	one := math.Float32bits(1)
	put := func(base int, a Action) {
		kind, dir := a.Kind()
		k := -1
		switch kind {
		case MoveN:
			k = HistoryKindMove
		case BulletN:
			k = HistoryKindBullet
		case MissileN:
			k = HistoryKindMissile
		case LandmineN:
			k = HistoryKindLandmine
		case EMP:
			binary.LittleEndian.PutUint32(d[4*(base+HistoryKindEMP):], one)
			return
		}
		if k < 0 {
			return
		}
		binary.LittleEndian.PutUint32(d[4*(base+k):], one)
		binary.LittleEndian.PutUint32(d[4*(base+HistoryDir+int(dir)):], one)
	}
	for k := 1; k <= int(g.histN) && k <= g.histLen; k++ {
		r := &g.acts[(g.round-k)%MaxHistory]
		base := (k - 1) * HistoryScalarsPerRound
		put(base, r.own[seat])
		put(base+historyActionScalars, r.shown[1-seat])
	}
}
