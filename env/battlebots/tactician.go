package battlebots

import (
	"math"
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// The tactician's opponent models: the enemy plays like a duelist, a
// gambit or a warden (each a quiet copy of that bot in the enemy's seat,
// stepped every round on the bout as it stands, whose near-tied choices
// make a distribution), like sniper or huggy, does nothing, or repeats its
// action of k rounds ago (k = 1..duelPeriods).
const (
	tacDuelist = iota
	tacGambit
	tacWarden
	tacSniper
	tacHuggy
	tacNop
	tacRepeat // + k-1
	tacModels = tacRepeat + duelPeriods
)

// Tactician settings.
const (
	// tacDecay is how much of a model's log-likelihood carries over to the
	// next round; tacMiss the floor of a model's likelihood of one round.
	tacDecay = 0.7
	tacMiss  = 0.02
	// tacPrior is the log-likelihood the simpler models start behind the
	// copies of the built-in bots.
	tacPrior = 3
	// tacFloor is the probability spread over every enemy action on top
	// of the models; tacWorst the weight of the worst case over every
	// enemy action in an action's value.
	tacFloor = 0.03
	tacWorst = 0.1
	// tacDraw is what a bout ended in a draw costs on top of the HP
	// difference; tacTrade what each HP lost costs while not ahead.
	tacDraw  = 200
	tacTrade = 3
	// tacSetup is what each HP an EMP sent next round would win is worth
	// now (see Tactician.setup).
	tacSetup = 4
	// tacAim is what standing on a line through the enemy 3 cells away
	// (a bullet's reach in one round, one cell beyond a missile's) is
	// worth, times the probability that the enemy stays put, when
	// it has not left its cell for tacParked rounds and that probability
	// is above tacStill.
	tacAim    = 6
	tacStill  = 0.8
	tacParked = 20
	// tacNoise is the spread of the duelist's tie-breaking noise, and
	// tacSamples the draws of it that turn a copy's values into a
	// distribution.
	tacNoise   = 1.5
	tacSamples = 64
)

// tacNoiseTable holds fixed draws of the duelist's tie-breaking noise,
// uniform on [0, tacNoise), so that the distribution of a copy's choice is
// the same for every seed.
var tacNoiseTable = func() (t [tacSamples][26]float32) {
	r := rand.New(rand.NewPCG(0x7ac7, 0x1c1a))
	for i := range t {
		for j := range t[i] {
			t[i][j] = r.Float32() * tacNoise
		}
	}
	return t
}()

// Tactician is a BattleBots bot that predicts its enemy by running the
// built-in bots it may be, and looks past the round an EMP freezes. It sees
// what the duelist sees (both bots, their HP, the projectiles in flight,
// the paralysis counter; no landmines).
//
//   - Prediction: it keeps quiet copies (no tie-break noise) of a duelist
//     and of a warden in the enemy's seat, steps them every round on the
//     bout as it stands (each told the action the enemy really played, as
//     far as the arena shows it), and turns each copy's values of its 26
//     actions into the distribution of the choice the duelist's noise
//     would make (fixed draws of the noise, so the same for every seed). A
//     gambit is the duelist copy with gambit's opening in the first
//     rounds; the warden copy plays the warden's opening from seat 0.
//     Sniper, huggy, nothing and "repeats its action of k rounds ago" are
//     models too, starting 3 behind in log-likelihood. Each model is
//     weighted by its decayed log-likelihood of the enemy's past actions
//     (a round's weight 0.7 of the last; a miss costs log 0.02), so within
//     a few rounds the bot that is playing dominates the prediction.
//
//   - Choice: against that mixture (plus a floor on every action) it
//     weighs each of its 26 actions (nothing, moves, bullets, missiles,
//     EMP; no landmines) by a one-round look-ahead on a copy of the bout:
//     the expected value and, at weight 0.1, the worst case over every
//     enemy action. The value after the round is the HP difference (a won
//     bout above all, a drawn one costing 200), each HP lost while not
//     ahead costing 3 more (a trade is not even when it leads to a draw),
//     the damage the projectiles in flight are set to do to either bot
//     after its best dodge, the duelist's preferred distance, and how few
//     safe cells the enemy has left (off every line through the tactician
//     within 3 and out of the projectiles' reach).
//
//   - Past the freeze: where the round ends with an EMP just sent (both
//     bots frozen for the next two movement phases), the value adds what
//     each bot could then win with the best shot fired twice at a bot
//     that cannot move (frozen), so a missile that stops on the wall cell
//     next to the frozen enemy and splashes it twice (2 HP for the EMP's
//     1) is seen. A move or a wait is also valued (setup, 4 a HP) by what
//     an EMP sent from the cell it leads to would win. So it walks to a
//     cell two steps from the wall beside an enemy near the wall, sends P,
//     fires the missile, and sends P again before the enemy can move: an
//     EMP lock that costs it 1 HP a cycle and the enemy 2.
//
//   - Against a parked enemy: once the enemy has not left its cell for 20
//     rounds and the models give it more than 0.8 to stay, standing on a
//     line through it 3 cells away is worth 6 times that probability. A
//     bullet fired from there hits in the same round; a missile fired back
//     lands a round later, when the look-ahead sees it coming and steps
//     off the line. (The policies that park in the middle of the arena and
//     fire missiles every round are out of reach of the EMP lock.)
//
// Near-equal choices are broken by its own generator, seeded by Reset.
// Deterministic for a seed. Not safe for concurrent use; Act does not
// allocate.
type Tactician struct {
	pcg rand.PCG
	duelMemory
	froz Game // the scratch copy of frozen

	// sd and sw are the quiet copies of a duelist and a warden in the
	// enemy's seat.
	sd Duelist
	sw Warden

	// q holds each model's distribution over duelActions at the last Act
	// (all zero: no guess), score its decayed log-likelihood.
	q     [tacModels][26]float32
	score [tacModels]float32
	prob  [26]float32
	// still counts the rounds the enemy has not left its cell; stay is
	// the probability that it does not move this round once still has
	// reached tacParked (else 0).
	still int
	stay  float32
}

// Reset seeds the tactician and forgets the last bout.
func (a *Tactician) Reset(e env.Env, seat int, seed uint64) {
	battlebotsGame(e)
	a.pcg.Seed(seed, 0x7ac7)
	a.forget(seat)
	a.myLast = Nothing
	a.still = 0
	a.q = [tacModels][26]float32{}
	// The copies of the built-in bots start ahead: the simpler models
	// must earn their weight.
	a.score = [tacModels]float32{}
	for m := tacSniper; m < tacModels; m++ {
		a.score[m] = -tacPrior
	}
	a.sd.Reset(e, 1-seat, seed)
	a.sd.quiet = true
	a.sw.Reset(e, 1-seat, seed)
	a.sw.d.quiet = true
}

// duelIndex returns act's index in duelActions (0, nothing, for a
// landmine: as far as the arena shows, nothing).
func duelIndex(act Action) int {
	for i, b := range duelActions {
		if b == act {
			return i
		}
	}
	return 0
}

// observe infers the enemy's last action from how the bout changed, scores
// the models' distributions on it and returns it (an index into
// duelActions, -1 if no action explains the change).
func (a *Tactician) observe() int {
	matched, inferred := a.explain()
	// Of the actions that explain the change, take the one the models
	// thought likeliest (what the copies are told they played).
	best := float32(-1)
	for i := range duelActions {
		if matched&(1<<i) != 0 && a.prob[i] > best {
			inferred, best = i, a.prob[i]
		}
	}
	for m := range a.q {
		l, some := float32(0), false
		for i, p := range a.q[m] {
			if p > 0 {
				some = true
				if matched&(1<<i) != 0 {
					l += p
				}
			}
		}
		if !some {
			continue
		}
		a.score[m] = tacDecay*a.score[m] + float32(math.Log(float64(tacMiss+(1-tacMiss)*min(l, 1))))
	}
	a.remember(inferred)
	return inferred
}

// spread writes to q the distribution of the choice a duelist with values
// vals makes under its tie-breaking noise.
func spread(vals *[26]float32, q *[26]float32) {
	*q = [26]float32{}
	top := float32(noUse)
	for _, v := range vals {
		top = max(top, v)
	}
	for s := range tacNoiseTable {
		best, bestV := 0, float32(-math.MaxFloat32)
		for i, v := range vals {
			if v < top-tacNoise || v <= noUse {
				continue
			}
			if w := v + tacNoiseTable[s][i]; w > bestV {
				best, bestV = i, w
			}
		}
		q[best] += 1.0 / tacSamples
	}
}

// point writes to q the certainty of action act.
func point(q *[26]float32, act Action) {
	*q = [26]float32{}
	q[duelIndex(act)] = 1
}

// predict fills a.q with each model's distribution for the coming round.
func (a *Tactician) predict(g *Game, enLast int) {
	en := 1 - a.seat
	if enLast >= 0 {
		a.sd.myLast = duelActions[enLast]
		a.sw.d.myLast = duelActions[enLast]
	}
	a.sd.Act(g, en)
	spread(&a.sd.vals, &a.q[tacDuelist])
	a.q[tacGambit] = a.q[tacDuelist]
	if g.Round() < gambitRounds {
		if op := gambitOpening(g, en); op >= 0 {
			point(&a.q[tacGambit], Action(op))
		}
	}
	a.sw.d.Act(g, en)
	spread(&a.sw.d.vals, &a.q[tacWarden])
	if en == 0 {
		if op := wardenOpening(g); op >= 0 {
			point(&a.q[tacWarden], Action(op))
		}
	}
	point(&a.q[tacSniper], Action(Sniper{}.Act(g, en)))
	point(&a.q[tacHuggy], Action(Huggy{}.Act(g, en)))
	point(&a.q[tacNop], Nothing)
	for k := 1; k <= duelPeriods; k++ {
		a.q[tacRepeat+k-1] = [26]float32{}
		if a.nHist >= k {
			if h := a.hist[(a.nHist-k)%duelHistory]; h >= 0 {
				a.q[tacRepeat+k-1][h] = 1
			}
		}
	}
}

// mix fills a.prob with the models' distributions weighted by their
// scores, plus the floor.
func (a *Tactician) mix() {
	top := float32(-math.MaxFloat32)
	for m := range a.q {
		top = max(top, a.score[m])
	}
	a.prob = [26]float32{}
	total := float32(0)
	for m := range a.q {
		w := float32(math.Exp(float64(a.score[m] - top)))
		for i, p := range a.q[m] {
			a.prob[i] += w * p
		}
		total += w
	}
	for i := range a.prob {
		a.prob[i] = (1-tacFloor)*a.prob[i]/total + tacFloor/26
	}
}

// Act returns the tactician's action for seat.
func (a *Tactician) Act(e env.Env, seat int) int32 {
	g, next := a.see(e, seat)
	if g == nil {
		return 0
	}
	enLast := -1
	if next {
		enLast = a.observe()
		if p, b := a.prev.bots[1-seat], a.base.bots[1-seat]; p.X == b.X && p.Y == b.Y {
			a.still++
		} else {
			a.still = 0
		}
	}
	a.predict(g, enLast)
	a.mix()
	a.stay = 0
	if a.still >= tacParked {
		for j, p := range a.prob {
			if kind, _ := duelActions[j].Kind(); kind != MoveN {
				a.stay += p
			}
		}
	}

	likeliest := 0
	for j, p := range a.prob {
		if p > a.prob[likeliest] {
			likeliest = j
		}
	}
	best, bestV := 0, float32(-math.MaxFloat32)
	for i, mine := range duelActions {
		if !useful(&a.base, a.seat, mine) {
			continue
		}
		exp, low := float32(0), float32(math.MaxFloat32)
		for j, theirs := range duelActions {
			a.play(&a.base, a.seat, mine, theirs)
			v := a.eval(&a.sim)
			exp += a.prob[j] * v
			low = min(low, v)
		}
		v := (1-tacWorst)*exp + tacWorst*low
		if kind, _ := mine.Kind(); kind == MoveN || kind == Nothing {
			v += a.setup(mine, duelActions[likeliest])
		}
		v += float32(a.pcg.Uint64()>>40) / float32(1<<24) * 0.5
		if v > bestV {
			best, bestV = i, v
		}
	}
	return a.choose(best)
}

// eval scores the bout g (after one simulated round) for the seat.
func (a *Tactician) eval(g *Game) float32 {
	me, en := g.bots[a.seat], g.bots[1-a.seat]
	v := float32(10 * (me.HP - en.HP))
	if g.done {
		switch {
		case me.HP > en.HP:
			return v + 1000
		case me.HP < en.HP:
			return v - 1000
		}
		return v - tacDraw
	}
	// A trade is even in HP but brings a drawn end nearer: unless ahead,
	// each HP lost costs a little more than one taken.
	if was := a.base.bots; was[a.seat].HP <= was[1-a.seat].HP {
		if lost := was[a.seat].HP - me.HP; lost > 0 {
			v -= tacTrade * float32(lost)
		}
	}
	if g.paralysed == 2 {
		v += 9 * (a.frozen(g, a.seat) - a.frozen(g, 1-a.seat))
	}
	var danger [Cells]int
	v = position(g, &danger, me, en, v)
	v += 3 * float32(9-safeCells(g, &danger, en, me)) / 9
	// An enemy parked on its cell can be shot next round from a line
	// through it 3 cells away, where its missiles land a round late.
	if a.stay > tacStill {
		if _, on := lineTo(me.X, me.Y, en.X, en.Y); on && dist(me.X, me.Y, en.X, en.Y) == 3 {
			v += tacAim * a.stay
		}
	}
	return v
}

// frozen returns the most HP difference seat can win in the two rounds an
// EMP just froze (g.paralysed 2) by firing the same shot twice while the
// other bot does nothing, the projectiles in flight included, or 0 if
// none wins any. Only the shots that can reach the other bot or splash
// either bot are played out; every other shot changes the HP as much as
// doing nothing, played out once.
func (a *Tactician) frozen(g *Game, seat int) float32 {
	best := 0
	idle := false // whether a shot that changes nothing was left out
	for k := range 16 {
		shot := BulletN + Action(k)
		if !shotMatters(g, seat, shot) {
			idle = true
			continue
		}
		best = max(best, a.frozenGain(g, seat, shot))
	}
	if idle {
		best = max(best, a.frozenGain(g, seat, Nothing))
	}
	return float32(best)
}

// frozenGain plays two rounds of g with seat's action act and the other
// bot doing nothing and returns the HP difference seat wins.
func (a *Tactician) frozenGain(g *Game, seat int, act Action) int {
	a.froz = *g
	a.acts[seat], a.acts[1-seat] = int32(act), int32(Nothing)
	hp0, hp1 := a.froz.bots[seat].HP, a.froz.bots[1-seat].HP
	for range 2 {
		if a.froz.done {
			break
		}
		a.froz.Step(a.acts[:], a.rew[:], a.term[:], a.trunc[:])
	}
	return (hp1 - a.froz.bots[1-seat].HP) - (hp0 - a.froz.bots[seat].HP)
}

// shotMatters reports whether seat's bullet or missile shot, fired in each
// of two rounds in which neither bot moves, can change an HP: a bullet
// (6 cells in two rounds) only by passing the other bot's cell, a missile
// (4 cells) by passing it or by reaching the wall within its 4 sub-steps
// next to either bot (the splash).
func shotMatters(g *Game, seat int, shot Action) bool {
	kind, d := shot.Kind()
	me, en := g.bots[seat], g.bots[1-seat]
	reach := 6
	if kind == MissileN {
		reach = 4
	}
	x, y := me.X, me.Y
	for range reach {
		nx, ny := x+dirDX[d], y+dirDY[d]
		if !g.InBounds(nx, ny) {
			return kind == MissileN && (adjacent(x, y, en.X, en.Y) || adjacent(x, y, me.X, me.Y))
		}
		x, y = nx, ny
		if x == en.X && y == en.Y {
			return true
		}
	}
	return false
}

// setup values the cell the seat's move (or wait) me leads to, the enemy
// playing en, as a place to freeze the bout from: what an EMP sent next
// round would win in the two frozen rounds after it (see frozen), less
// the HP it costs, at half weight, if the enemy stays where it is.
func (a *Tactician) setup(me, en Action) float32 {
	a.play(&a.base, a.seat, me, en)
	if a.sim.done {
		return 0
	}
	g := a.sim
	g.paralysed = 2
	gain := a.frozen(&g, a.seat) - a.frozen(&g, 1-a.seat) - 1
	if gain <= 0 {
		return 0
	}
	return tacSetup * gain
}

// safeCells counts the cells bot b can stand on after the coming movement
// phase (its own, and its neighbours unless paralysed) that are out of the
// projectiles' reach and off every line through the other bot o within 3
// cells.
func safeCells(g *Game, danger *[Cells]int, b, o Bot) int {
	n := 0
	for d := -1; d < NumDirs; d++ {
		x, y := b.X, b.Y
		if d >= 0 {
			if g.paralysed > 0 {
				break
			}
			x, y = x+dirDX[d], y+dirDY[d]
			if !g.InBounds(x, y) || (x == o.X && y == o.Y) {
				continue
			}
		}
		if danger[y*Side+x] > 0 {
			continue
		}
		if _, on := lineTo(o.X, o.Y, x, y); on && dist(o.X, o.Y, x, y) <= 3 {
			continue
		}
		n++
	}
	return n
}
