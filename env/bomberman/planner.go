package bomberman

import (
	"github.com/botarena/botarena/env"
)

// newPlannerAgent is the factory of the "planner" agent.
var newPlannerAgent = env.GameAgent("bomberman", "planner", func() env.Agent { return NewPlanner() })

// plannerParams are the planner's search settings.
type plannerParams struct {
	// rollouts is the number of rollouts per candidate action (N), and
	// horizon the rounds each plays (K), the first with the candidate.
	rollouts, horizon int
	// oppHunter makes the opponents play hunter in rollouts (false:
	// harvester).
	oppHunter bool
	// bagValue and radiusValue are what the evaluation adds for each bomb
	// bag and each doubling of the blast radius a player holds (up to
	// bagCap bags and radiusCap radius), beside its points.
	bagValue, radiusValue int
	bagCap, radiusCap     int
	// deathValue is what a player's death costs in the evaluation, beside
	// the bounty its points lose.
	deathValue int
	// pending credits each player, at the horizon, with the walls its
	// bombs still on the map will destroy (pendingWalls): a horizon
	// shorter than a fuse sees no points from a plant otherwise.
	pending bool
	// margin is how much more a rollout must be worth, on average, for
	// another action to replace harvester's.
	margin int
	// adapt picks each opponent's model in the rollouts from what it did:
	// every round the planner asks hunter and harvester what each
	// opponent would have done in the last state, and where they disagree,
	// credits the one whose move (a step, a plant, or staying) the
	// opponent made; an opponent is modelled as harvester while harvester
	// has more credits, as hunter otherwise (oppHunter is then unused).
	adapt bool
}

// defaultPlannerParams are the planner's settings, tuned in 2-player games
// against hunter and harvester (docs/training.md).
var defaultPlannerParams = plannerParams{
	rollouts: 1, horizon: 8, oppHunter: true,
	bagValue: 40, radiusValue: 30, bagCap: 4, radiusCap: 16,
	deathValue: 2000, pending: true, adapt: true,
}

// Planner is a built-in Bomberman bot that plans by simulating every
// player: a one-step rollout search over its own actions, with harvester
// as the default policy.
//
//   - Its candidates are the actions a wary, strict safe mask keeps (the
//     legal commands after which some plan survives every bomb on the map
//     even if opponents trigger theirs or plant where they stand; see
//     [Config.SafeMaskWary]), and always the action [Harvester] would take.
//   - For each candidate it plays a rollout of 8 rounds on a copy of the
//     game as the players see it ([Game.CopyVisible]: no power-up under a
//     wall, its own collision rolls): the first round with the candidate,
//     the rest with harvester for itself and, for every opponent, hunter
//     or harvester, whichever has predicted its moves better in this game
//     (hunter until harvester has; see plannerParams.adapt), all seats
//     stepping together through the engine's own Step, so fuses, chains,
//     triggers, collisions, points and deaths are the game's.
//   - A rollout's value is the player's points at the horizon, plus the
//     walls its bombs still on the map will destroy (a bomb's fuse is up
//     to 10 rounds, longer than the horizon), plus 40 for each bomb bag
//     (up to 4) and 30 for each radius doubling (up to 16) gained since
//     the start (the power-up race decides games at the round cap), less
//     2000 for its death; less the same of the best opponent. It takes
//     the candidate with the highest value, harvester's action unless
//     another is strictly better.
//
// Measured in bomberman/2p (`botarena tournament bomberman/2p --agents
// planner,hunter --games 100 --seed 34041`, both seatings): 179 of 200
// against hunter (89.5%; harvester's is 65.5%), 745 points a game to
// hunter's 287, hunter dead in 59 games, by its own bomb in 31 (its
// escapes blocked by the planner's body or bombs) and by the planner's in
// 27; against harvester 266 of 400 (66.5%, seeds 34042 and 34052; 57.75%
// on the same seeds with hunter as the only model), 717 points to 400 on
// the first seed.
// A rollout's seed comes from the Reset seed and the round, so a game is
// deterministic given the env state and the seed. Its working memory (the
// rollout game, its rollout bots, the last state and the two predicting
// bots) is made in Reset; Act does not allocate. Bomberman 2016 shows bots
// the whole map but the power-ups under walls, which the rollouts do not
// see. An Act costs about 5 ms of CPU in a 2-player game on a 21×21 map,
// about twice that with 4 players; the opponent model adds two bot moves
// an opponent a round to the hundred or so of the rollouts. It is not
// safe for concurrent use; use one per seat.
type Planner struct {
	seed   uint64
	params plannerParams

	base *Hunter // harvester: the fallback and the candidate always tried
	mask *Hunter // scratch for the safe mask

	// sim is the rollout game; roll the rollout bots, one per seat.
	sim  *Game
	roll [MaxPlayers]*Hunter

	// prev is the game as the last Act saw it (valid while havePrev, for
	// round prevRound); predHunt and predHarv predict what opponents did
	// from it; credit is, per seat, hunter's correct predictions less
	// harvester's where they differed.
	prev               *Game
	havePrev           bool
	prevRound          int
	predHunt, predHarv *Hunter
	credit             [MaxPlayers]int
	hunt               [MaxPlayers]bool

	acts                [MaxPlayers]int32
	rewards             [MaxPlayers]float32
	terminated, trunced [MaxPlayers]bool
}

// NewPlanner returns a planner bot, seeded with 0 until Reset.
func NewPlanner() *Planner {
	return &Planner{params: defaultPlannerParams, base: NewHarvester().asHunter(), mask: NewHunter()}
}

// asHunter returns the harvester's Hunter, which plays as the harvester.
func (h *Harvester) asHunter() *Hunter { return &h.Hunter }

// plannerStream is the PCG stream constant of Planner's rollout seeds.
const plannerStream = 0x91a22e5

// Reset seeds the bot with seed and makes its rollout game and bots for
// e's game. It panics if e is not a Bomberman game.
func (p *Planner) Reset(e env.Env, seat int, seed uint64) {
	g := asBomberman(e)
	p.seed = seed ^ plannerStream
	p.base.pcg.Seed(seed, hunterStream)
	if p.sim == nil {
		p.sim = &Game{}
	}
	p.sim.CopyFrom(g) // sizes its buffers once
	if p.prev == nil {
		p.prev, p.predHunt, p.predHarv = &Game{}, NewHunter(), NewHarvester().asHunter()
	}
	p.prev.CopyFrom(g)
	p.havePrev, p.prevRound, p.credit = false, 0, [MaxPlayers]int{}
	p.predHunt.pcg.Seed(seed, hunterStream)
	p.predHarv.pcg.Seed(seed, hunterStream)
	for s := range g.nPlayers {
		if p.roll[s] == nil {
			p.roll[s] = NewHunter()
		}
	}
}

// Act returns the planner's move.txt code for seat (0–6). It panics if e
// is not a Bomberman game.
func (p *Planner) Act(e env.Env, seat int) int32 {
	return int32(p.act(asBomberman(e), seat))
}

func (p *Planner) act(g *Game, seat int) Action {
	pl := g.Player(seat)
	if pl.Killed || g.done {
		return DoNothing
	}
	if p.params.adapt {
		p.observe(g, seat)
	}
	base := p.base.act(g, seat)
	var mask [NumActions]uint8
	g.WriteMask(seat, mask[:])
	p.mask.safeMask(g, seat, mask[:], true, true)
	mask[base] = 1
	n := 0
	for _, m := range mask {
		n += int(m)
	}
	if n == 1 || p.params.rollouts <= 0 {
		return base
	}
	// Harvester's action first: another must beat it by the margin.
	best, bestV := base, p.actionValue(g, seat, base)+p.params.margin*p.params.rollouts
	for a := range Action(NumActions) {
		if mask[a] == 0 || a == base {
			continue
		}
		if v := p.actionValue(g, seat, a); v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// actionValue is the total value of seat's rollouts from g with first action a.
func (p *Planner) actionValue(g *Game, seat int, a Action) int {
	v := 0
	for i := range p.params.rollouts {
		v += p.rollout(g, seat, a, i)
	}
	return v
}

// observe credits, from the last state to g, the model (hunter or
// harvester) that predicted each opponent's move, and sets hunt.
func (p *Planner) observe(g *Game, seat int) {
	prev := p.prev
	if p.havePrev && g.round == p.prevRound+1 {
		for s := range g.nPlayers {
			if s == seat || prev.players[s].Killed || g.players[s].Killed {
				continue
			}
			aH, aV := moveKind(p.predHunt.act(prev, s)), moveKind(p.predHarv.act(prev, s))
			if aH == aV {
				continue
			}
			switch observedMove(prev, g, s) {
			case aH:
				p.credit[s]++
			case aV:
				p.credit[s]--
			}
		}
	}
	if !p.havePrev || g.round != p.prevRound {
		prev.CopyFrom(g)
		p.havePrev, p.prevRound = true, g.round
	}
	for s := range g.nPlayers {
		p.hunt[s] = p.credit[s] >= 0
	}
}

// moveKind is what a can be seen as from the next state: a step, a plant,
// or staying (doing nothing or triggering).
func moveKind(a Action) Action {
	if a == TriggerBomb {
		return DoNothing
	}
	return a
}

// observedMove is seat s's move from prev to g as moveKind sees it.
func observedMove(prev, g *Game, s int) Action {
	q0, q := &prev.players[s], &g.players[s]
	for a := MoveUp; a <= MoveDown; a++ {
		if q.X == q0.X+moveDelta[a][0] && q.Y == q0.Y+moveDelta[a][1] {
			return a
		}
	}
	i := g.index(q0.X, q0.Y)
	if c := &g.cells[i]; prev.cells[i].bomb == 0 && c.bomb != 0 && g.bombs[c.bomb-1].Owner == s {
		return PlaceBomb
	}
	return DoNothing
}

// rolloutSeed is rollout i's seed in the current round (splitmix64 of the
// bot's seed, the round and i).
func (p *Planner) rolloutSeed(round, i int) uint64 {
	z := p.seed + uint64(round)*0x9e3779b97f4a7c15 + uint64(i+1)*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// rollout plays one rollout from g with seat's first action a and returns
// its value for seat.
func (p *Planner) rollout(g *Game, seat int, a Action, i int) int {
	seed := p.rolloutSeed(g.round, i)
	sim := p.sim
	sim.CopyVisible(g, seed)
	n := sim.nPlayers
	pp := &p.params
	for s := range n {
		h := p.roll[s]
		h.pcg.Seed(seed+uint64(s), hunterStream)
		h.lineValue = 0
		hunt := pp.oppHunter
		if pp.adapt {
			hunt = p.hunt[s]
		}
		if s != seat && hunt {
			h.lineValue = hunterLineValue
		}
	}
	for k := 0; k < pp.horizon && !sim.done; k++ {
		for s := range n {
			switch {
			case sim.players[s].Killed:
				p.acts[s] = int32(DoNothing)
			case s == seat && k == 0:
				p.acts[s] = int32(a)
			default:
				p.acts[s] = int32(p.roll[s].act(sim, s))
			}
		}
		sim.Step(p.acts[:n], p.rewards[:n], p.terminated[:n], p.trunced[:n])
	}
	return p.value(sim, g, seat)
}

// value is seat's evaluation of sim, a rollout from g: its points less the
// best opponent's, the power-ups gained since g, and deaths.
func (p *Planner) value(sim, g *Game, seat int) int {
	pp := &p.params
	worth := func(s int) int {
		q, q0 := &sim.players[s], &g.players[s]
		v := q.Counter + q.Coverage
		v += pp.bagValue * (min(q.BombBag, pp.bagCap) - min(q0.BombBag, pp.bagCap))
		for r := max(1, min(q0.BombRadius, pp.radiusCap)); r < min(q.BombRadius, pp.radiusCap); r *= 2 {
			v += pp.radiusValue
		}
		if q.Killed && !q0.Killed {
			v -= pp.deathValue
		}
		return v
	}
	var pending [MaxPlayers]int
	if pp.pending {
		sim.pendingWalls(&pending)
	}
	v := worth(seat) + pending[seat]
	bestOpp, have := 0, false
	for s := range sim.nPlayers {
		if s == seat || g.players[s].Killed {
			continue
		}
		if w := worth(s) + pending[s]; !have || w > bestOpp {
			bestOpp, have = w, true
		}
	}
	return v - bestOpp
}

// pendingWalls adds to each seat's entry the points of the walls its live
// bombs will destroy when they go off: per bomb, the first destructible
// wall within its radius in each direction (rays stop at walls and bombs;
// chains are not followed, and a wall two bombs reach counts for both).
func (g *Game) pendingWalls(dst *[MaxPlayers]int) {
	for b := range g.bombHigh {
		bb := &g.bombs[b]
		if !bb.live || bb.Exploding {
			continue
		}
		for _, d := range rayDirs {
			for k := 1; k <= bb.Radius; k++ {
				x, y := bb.X+d[0]*k, bb.Y+d[1]*k
				if !g.InBounds(x, y) {
					break
				}
				c := &g.cells[g.index(x, y)]
				if c.bomb != 0 || c.Entity == IndestructibleWall {
					break
				}
				if c.Entity == DestructibleWall {
					dst[bb.Owner] += wallPoints
					break
				}
			}
		}
	}
}
