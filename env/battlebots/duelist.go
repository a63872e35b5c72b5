package battlebots

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// duelActions are the actions the duelist weighs for either bot: do
// nothing, the eight moves, bullets and missiles in every direction, and
// EMP (landmines are left out: the duelist lays none, and the enemy's are
// invisible, spec §4.3).
var duelActions = func() (a [26]Action) {
	a[0] = Nothing
	for d := range Dir(NumDirs) {
		a[1+d] = Move(d)
		a[9+d] = Bullet(d)
		a[17+d] = Missile(d)
	}
	a[25] = EMP
	return a
}()

// Opponent models of the duelist: the enemy plays like sniper, like huggy,
// does nothing, or repeats its action of k rounds ago (k = 1..duelPeriods).
const (
	modelSniper = iota
	modelHuggy
	modelNop
	modelRepeat // + k-1
	duelPeriods = 6
	// The warden's models (a duelist has no shadow, so it never uses
	// them): the enemy plays like a duelist (the shadow's choice), or like
	// a gambit (gambit's opening, else the shadow's choice).
	modelShadow = modelRepeat + duelPeriods
	modelGambit = modelShadow + 1
	numModels   = modelGambit + 1
	duelHistory = 8 // a power of two ≥ duelPeriods+1
)

// Duelist is a BattleBots bot that sees what the arena string shows (both
// bots, their HP, the projectiles in flight; no landmines) plus the
// paralysis counter, as sniper does. Every round it plays each of its 26
// actions against each of the enemy's (a one-round look-ahead on a copy of
// the bout with the landmines removed) and scores the outcomes: HP, the
// projectiles left in flight (dodgeable ones count little), its distance
// to the enemy and the cells where the enemy may have laid a mine. It
// predicts the enemy with a few opponent models (sniper, huggy, nop, and
// "repeats its action of k rounds ago" for k = 1..6), each weighted by how
// often it guessed the enemy's past actions, which it infers from how the
// state changed; a quarter of the value is the worst case over every enemy
// action. Near-equal choices are broken by its own generator, seeded by
// Reset, so bouts differ between seeds.
//
// Not safe for concurrent use; Act does not allocate.
type Duelist struct {
	pcg rand.PCG
	duelMemory

	// predicted holds each model's guess at the last Act (-1 none).
	predicted [numModels]int8
	hits, n   [numModels]float32
	// suspect counts, per cell, the rounds the enemy may have laid a mine
	// there.
	suspect [Cells]uint8

	// caution, when above 0, is what each HP the bot loses in a round
	// costs it on top of the HP difference while it is not behind (0 for
	// the duelist: a trade is even), and worstEven the worst case's weight
	// then (the duelist's is duelWorst). shadow, when set, is a quiet
	// duelist in the enemy's seat whose choice makes two more opponent
	// models; quiet turns off the tie-breaking noise (a shadow's).
	caution, worstEven float32
	shadow             *Duelist
	quiet              bool

	prob [26]float32
	// vals holds, after Act, the value of each of duelActions before the
	// tie-breaking noise (noUse for an action that cannot do anything
	// now), so that a bot modelling a duelist can tell its near-ties.
	vals [26]float32
}

// noUse is the value [Duelist.vals] gives an action that cannot do anything
// now (a move while paralysed or off the arena).
const noUse = -1e9

// Reset seeds the duelist and forgets the last bout.
func (a *Duelist) Reset(e env.Env, seat int, seed uint64) {
	battlebotsGame(e)
	a.pcg.Seed(seed, 0xd0e1)
	a.forget(seat)
	for i := range a.predicted {
		a.predicted[i] = -1
	}
	a.hits, a.n = [numModels]float32{}, [numModels]float32{}
	a.suspect = [Cells]uint8{}
}

// lookahead is the scratch the duelist's family of bots (duelist, gambit,
// warden, tactician) steps one round ahead on: sim, a copy of a bout, and
// the buffers its Step fills.
type lookahead struct {
	sim   Game
	acts  [2]int32
	rew   [2]float32
	term  [2]bool
	trunc [2]bool
}

// play steps l.sim, a copy of from, with seat's action me and the other
// seat's action en. It never allocates.
func (l *lookahead) play(from *Game, seat int, me, en Action) {
	l.sim = *from
	l.acts[seat], l.acts[1-seat] = int32(me), int32(en)
	l.sim.Step(l.acts[:], l.rew[:], l.term[:], l.trunc[:])
}

// duelMemory is what the bots that model their enemy (duelist, tactician)
// carry from one Act to the next: the seat, the bout as the bot sees it
// now and at its previous Act, the action it played then, and the enemy's
// actions inferred so far; with the look-ahead's scratch.
type duelMemory struct {
	seat int

	// base is the bout at the last Act with the landmines removed; the
	// lookahead's sim is the scratch copy the look-ahead steps.
	base Game
	lookahead
	havePrev bool
	prev     Game // base of the previous Act
	// myLast is the action played at the previous Act (gambit and warden
	// set their duelist's to their opening's).
	myLast Action

	hist  [duelHistory]int8 // the enemy's inferred actions, -1 unknown
	nHist int
}

// forget starts a bout in seat: no previous Act, no inferred actions.
func (m *duelMemory) forget(seat int) {
	m.seat = seat
	m.havePrev = false
	m.nHist = 0
	for i := range m.hist {
		m.hist[i] = -1
	}
}

// see takes e's bout, as seat sees it, for base and returns it, nil if the
// bout is over; next reports whether the previous Act saw the round
// before this one, so that the enemy's last action can be inferred.
func (m *duelMemory) see(e env.Env, seat int) (g *Game, next bool) {
	g = battlebotsGame(e)
	if g.Done() {
		return nil, false
	}
	m.seat = seat
	m.base = *g
	m.base.clearMines() // the bots cannot see them
	return g, m.havePrev && m.prev.round+1 == m.base.round
}

// explain returns the enemy actions that explain how the bout changed
// since the previous Act (bit i for duelActions[i]: that action, played
// against myLast on prev, leads to a bout that looks like base) and the
// first of them, -1 if none does.
func (m *duelMemory) explain() (matched uint32, first int) {
	first = -1
	for i, b := range duelActions {
		m.play(&m.prev, m.seat, m.myLast, b)
		if sameView(&m.sim, &m.base) {
			matched |= 1 << i
			if first < 0 {
				first = i
			}
		}
	}
	return matched, first
}

// remember adds the enemy's inferred action (an index into duelActions,
// -1 unknown) to hist.
func (m *duelMemory) remember(inferred int) {
	m.hist[m.nHist%duelHistory] = int8(inferred)
	m.nHist++
}

// choose keeps base as the previous Act's bout and plays
// duelActions[best]: it returns the action.
func (m *duelMemory) choose(best int) int32 {
	m.prev = m.base
	m.havePrev = true
	m.myLast = duelActions[best]
	return int32(m.myLast)
}

// sameView reports whether x and y look the same to a bot.
func sameView(x, y *Game) bool {
	if x.bots != y.bots || x.paralysed != y.paralysed || x.nBullets != y.nBullets || x.nMissiles != y.nMissiles {
		return false
	}
	for i := range x.nBullets {
		if p, q := x.bullets[i], y.bullets[i]; p.X != q.X || p.Y != q.Y || p.Dir != q.Dir {
			return false
		}
	}
	for i := range x.nMissiles {
		if p, q := x.missiles[i], y.missiles[i]; p.X != q.X || p.Y != q.Y || p.Dir != q.Dir {
			return false
		}
	}
	return true
}

// observe infers the enemy's last action from how the bout changed, scores
// the models' guesses and marks the cells where it may have laid a mine.
func (a *Duelist) observe() {
	en := 1 - a.seat
	ambiguous := false
	matched, inferred := a.explain()
	if inferred == 0 {
		// Nothing visible happened: it did nothing, bumped into something,
		// or laid a mine next to itself.
		ambiguous = true
	}
	for m, p := range a.predicted {
		if p < 0 {
			continue
		}
		a.hits[m] *= 0.85
		a.n[m] = a.n[m]*0.85 + 1
		if matched&(1<<p) != 0 {
			a.hits[m]++
		}
	}
	a.remember(inferred)
	if ambiguous {
		b := a.prev.bots[en]
		for d := range Dir(NumDirs) {
			x, y := b.X+dirDX[d], b.Y+dirDY[d]
			if a.prev.InBounds(x, y) && a.suspect[y*Side+x] < 200 {
				a.suspect[y*Side+x]++
			}
		}
	}
	// A cell the duelist ended a movement phase on holds no mine any more.
	if a.prev.paralysed == 0 {
		me := a.base.bots[a.seat]
		a.suspect[me.Y*Side+me.X] = 0
	}
}

// predict fills a.predicted with each model's guess for the coming round,
// as an index into duelActions.
func (a *Duelist) predict(g *Game) {
	en := 1 - a.seat
	index := func(act Action) int8 {
		for i, b := range duelActions {
			if b == act {
				return int8(i)
			}
		}
		return 0 // a landmine: as far as the duelist can tell, nothing
	}
	a.predicted[modelSniper] = index(Action(Sniper{}.Act(g, en)))
	a.predicted[modelHuggy] = index(Action(Huggy{}.Act(g, en)))
	a.predicted[modelNop] = 0
	a.predicted[modelShadow], a.predicted[modelGambit] = -1, -1
	if a.shadow != nil {
		sh := index(Action(a.shadow.Act(g, en)))
		a.predicted[modelShadow], a.predicted[modelGambit] = sh, sh
		if g.Round() < gambitRounds {
			if op := gambitOpening(g, en); op >= 0 {
				a.predicted[modelGambit] = index(Action(op))
			}
		}
	}
	for k := 1; k <= duelPeriods; k++ {
		a.predicted[modelRepeat+k-1] = -1
		if a.nHist >= k {
			a.predicted[modelRepeat+k-1] = a.hist[(a.nHist-k)%duelHistory]
		}
	}
}

// Act returns the duelist's action for seat.
func (a *Duelist) Act(e env.Env, seat int) int32 {
	g, next := a.see(e, seat)
	if g == nil {
		return 0
	}
	if next {
		a.observe()
	}
	a.predict(&a.base)

	// The enemy's action distribution: the models by their record, plus a
	// floor on every action.
	const floor = 0.04
	a.prob = [26]float32{}
	total := float32(0)
	for m, p := range a.predicted {
		if p < 0 {
			continue
		}
		acc := (a.hits[m] + 0.5) / (a.n[m] + 1)
		w := acc * acc * acc * acc
		a.prob[p] += w
		total += w
	}
	for i := range a.prob {
		a.prob[i] = (1-floor)*a.prob[i]/total + floor/26
	}

	worst := float32(duelWorst)
	if a.caution > 0 && a.notBehind() {
		worst = a.worstEven
	}
	best, bestV := 0, float32(-1e9)
	for i, mine := range duelActions {
		a.vals[i] = noUse
		if !useful(&a.base, a.seat, mine) {
			continue
		}
		exp, low := float32(0), float32(1e9)
		for j, theirs := range duelActions {
			a.play(&a.base, a.seat, mine, theirs)
			v := a.eval(&a.sim)
			exp += a.prob[j] * v
			low = min(low, v)
		}
		v := (1-worst)*exp + worst*low
		a.vals[i] = v
		if !a.quiet {
			v += float32(a.pcg.Uint64()>>40) / float32(1<<24) * 1.5
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	return a.choose(best)
}

// duelWorst is the weight of the worst case over every enemy action in
// the duelist's value of an action.
const duelWorst = 0.25

// notBehind reports whether the seat has at least the enemy's HP in
// a.base.
func (a *Duelist) notBehind() bool { return a.base.bots[a.seat].HP >= a.base.bots[1-a.seat].HP }

// useful reports whether seat's action can do anything in g now: not a
// move while paralysed or off the arena. The duelist's family of bots
// (duelist, gambit, warden, tactician) skips the actions it rejects.
func useful(g *Game, seat int, act Action) bool {
	kind, d := act.Kind()
	if kind != MoveN {
		return true
	}
	if g.paralysed > 0 {
		return false
	}
	b := g.bots[seat]
	return g.InBounds(b.X+dirDX[d], b.Y+dirDY[d])
}

// eval scores the bout g (after one simulated round) for the seat.
func (a *Duelist) eval(g *Game) float32 {
	me, en := g.bots[a.seat], g.bots[1-a.seat]
	v := float32(10 * (me.HP - en.HP))
	if a.caution > 0 && a.notBehind() {
		if lost := a.base.bots[a.seat].HP - me.HP; lost > 0 {
			v -= a.caution * float32(lost)
		}
	}
	if g.done {
		switch {
		case me.HP > en.HP:
			return v + 1000
		case me.HP < en.HP:
			return v - 1000
		}
		return v
	}
	var danger [Cells]int
	v = position(g, &danger, me, en, v)
	v -= 8 * float32(min(a.suspect[me.Y*Side+me.X], 3))
	return v
}

// position adds to v, in this order, what the duelist's family of bots
// values in the position g after a simulated round, for the bot me against
// en: the damage the projectiles in flight are set to do (threat: -9 a HP
// to me, +9 to en), the distance (two or three cells best: close enough to
// hit at once, far enough to see shots coming) and standing on the edge
// (-1). It fills danger by sniperDanger for the caller's further terms.
// The additions are made one by one, so the value is bit for bit the one
// each bot computed inline before.
func position(g *Game, danger *[Cells]int, me, en Bot, v float32) float32 {
	sniperDanger(g, danger)
	v -= 9 * threat(g, danger, me)
	v += 9 * threat(g, danger, en)
	d := dist(me.X, me.Y, en.X, en.Y)
	switch {
	case d <= 1:
		v -= 6
	case d <= 3:
		v += 2
	default:
		v -= float32(d - 3)
	}
	if me.X == g.lo || me.Y == g.lo || me.X == Side-1 || me.Y == Side-1 {
		v -= 1
	}
	return v
}

// threat is the damage the projectiles in flight are set to do to b in the
// coming round: in full if b cannot move (paralysed), else what the
// safest reachable cell leaves, plus a little for having to move.
func threat(g *Game, danger *[Cells]int, b Bot) float32 {
	here := float32(danger[b.Y*Side+b.X])
	if g.paralysed > 0 || here == 0 {
		return here
	}
	least := here
	for d := range Dir(NumDirs) {
		x, y := b.X+dirDX[d], b.Y+dirDY[d]
		if g.InBounds(x, y) {
			least = min(least, float32(danger[y*Side+x]))
		}
	}
	return least + 0.1*here
}
