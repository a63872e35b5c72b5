package battleships

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newAdmiralAgent is the factory of the "admiral" agent.
var newAdmiralAgent = env.GameAgent("battleships", "admiral", func() env.Agent { return &Admiral{} })

// The admiral's search budget per map side: it draws candidates fleets,
// simulates hunter's single shots against each runs times, and picks one
// of the admiralKeep that took the most shots to sink, at random. A search
// costs about 35, 110 and 90 ms of CPU on the 7×7, 10×10 and 14×14 maps
// (bench/2026-11-30-battleships-admiral.txt), once a game.
const (
	admiralMaxCandidates = 128
	admiralKeep          = 4
)

func admiralBudget(n int) (candidates, runs int) {
	switch n {
	case 7:
		return 128, 2
	case 10:
		return 64, 4
	}
	return 32, 2
}

// Admiral is [Hunter]'s shooting with a searched placement.
//
// Phase 1 (learn placement only; the built-in placers otherwise place
// before the first step): at the first step of each phase-1 round it draws
// legal fleets from a broad distribution ([BroadFleet]: ships may touch,
// each lies along an edge with a chance drawn per fleet) — 128 on the
// small map, 64 on the medium, 32 on the large — plays hunter's
// single-shot density targeting against each without an opponent
// ([ShotsToSink]; twice each, four times on the medium map), and takes one
// of the four fleets that took the most shots on average, uniformly at
// random, so that it places a distribution of hard fleets rather than one
// fixed fleet. It sends the fleet one ship per step.
//
// Phase 2: exactly what Hunter does.
//
// Its randomness comes from the seed given to Reset. Not safe for
// concurrent use; Act does not allocate, and the search is bounded
// (at most 256 simulated games, each at most N² shots).
type Admiral struct {
	Hunter
	sim   shotSim
	cand  [admiralMaxCandidates][NumShips]Ship
	shots [admiralMaxCandidates]float32
	order [admiralMaxCandidates]uint8
}

// Reset seeds the admiral and forgets the last game.
func (a *Admiral) Reset(e env.Env, seat int, seed uint64) {
	a.Hunter.Reset(e, seat, seed)
}

// Act returns the admiral's action for seat.
func (a *Admiral) Act(e env.Env, seat int) int32 {
	g := mustBattleships(e)
	if a.rng == nil {
		a.Reset(e, seat, 0)
	}
	if g.Phase() != 1 || g.Done() || g.players[seat].Killed {
		return a.Hunter.Act(e, seat)
	}
	return placeNext(g, seat, &a.fleet, a.search, a.rng)
}

// search draws the candidates, scores them and returns one of the best.
func (a *Admiral) search(r *rand.Rand, n int) [NumShips]Ship {
	cands, runs := admiralBudget(n)
	for i := range cands {
		a.cand[i] = BroadFleet(r, n)
		sum := 0
		for range runs {
			sum += a.sim.run(r, n, &a.cand[i])
		}
		a.shots[i] = float32(sum) / float32(runs)
		a.order[i] = uint8(i)
	}
	// Insertion sort by shots, most first (no allocation).
	for i := 1; i < cands; i++ {
		for j := i; j > 0 && a.shots[a.order[j]] > a.shots[a.order[j-1]]; j-- {
			a.order[j], a.order[j-1] = a.order[j-1], a.order[j]
		}
	}
	return a.cand[a.order[r.IntN(admiralKeep)]]
}

// BroadFleet returns a legal fleet drawn from r, ship by ship in list
// order: with a chance p drawn once per fleet (uniform in [0, 1)) a ship
// lies along one of the four edges (a random side, parallel to it, at a
// random position), else anywhere (uniform start and direction); a draw
// that leaves the map or overlaps an earlier ship is drawn again. Ships
// may touch. It does not allocate.
func BroadFleet(r *rand.Rand, n int) [NumShips]Ship {
	var f [NumShips]Ship
	p := r.Float64()
	for k := range NumShips {
		for {
			var s Ship
			if r.Float64() < p {
				pos := r.IntN(n)
				switch r.IntN(4) {
				case 0: // bottom row, along x
					s = Ship{X: int8(pos), Y: 0, Dir: Direction(eastOrWest(r))}
				case 1: // top row
					s = Ship{X: int8(pos), Y: int8(n - 1), Dir: Direction(eastOrWest(r))}
				case 2: // left column, along y
					s = Ship{X: 0, Y: int8(pos), Dir: Direction(northOrSouth(r))}
				default: // right column
					s = Ship{X: int8(n - 1), Y: int8(pos), Dir: Direction(northOrSouth(r))}
				}
			} else {
				s = Ship{X: int8(r.IntN(n)), Y: int8(r.IntN(n)), Dir: Direction(r.IntN(4))}
			}
			if legalNext(&f, k, s, n) {
				f[k] = s
				break
			}
		}
	}
	return f
}

func eastOrWest(r *rand.Rand) Direction {
	if r.IntN(2) == 0 {
		return East
	}
	return West
}

func northOrSouth(r *rand.Rand) Direction {
	if r.IntN(2) == 0 {
		return North
	}
	return South
}

// shotSim plays hunter's single-shot targeting against a fixed fleet,
// with no opponent: the scratch of [ShotsToSink]. It is a fixed-size
// value.
type shotSim struct {
	t    tracker
	prob [MaxCells]float32
	dens [MaxCells]float32
	ship [MaxCells]int8 // 1 + the ship's index, 0 water
	left [NumShips]int8 // unhit cells per ship
}

// run returns how many single shots hunter's density targeting takes to
// sink fleet on an n×n map: each shot at the unshot cell of greatest
// chance (capped at maxChance, as hunter caps it), ties broken by r with
// hunter's noise (tieNoise); at most n² shots.
func (s *shotSim) run(r *rand.Rand, n int, fleet *[NumShips]Ship) int {
	s.t = tracker{}
	clear(s.ship[:n*n])
	afloat := 0
	for k := range NumShips {
		st := ShipType(k)
		sh := fleet[k]
		for c := range st.Len() {
			s.ship[(int(sh.X)+dirDX[sh.Dir]*c)*n+int(sh.Y)+dirDY[sh.Dir]*c] = int8(k + 1)
		}
		s.left[k] = int8(st.Len())
		afloat++
	}
	last := -1
	for shots := 1; shots <= n*n; shots++ {
		s.t.density(n, &s.prob, &s.dens)
		best, bestV := -1, float32(-1)
		for i := range n * n {
			if s.t.known[i] != 0 {
				continue
			}
			v := min(s.prob[i], maxChance) + tieNoise(r)
			if v > bestV {
				best, bestV = i, v
			}
		}
		if last >= 0 {
			s.t.fresh[last] = false
		}
		last = best
		k := int(s.ship[best]) - 1
		if k < 0 {
			s.t.known[best] = 1
			continue
		}
		s.t.known[best], s.t.fresh[best] = 2, true
		if s.left[k]--; s.left[k] == 0 {
			s.t.sunk[k] = true
			s.t.resolve(n, ShipType(k), true)
			if afloat--; afloat == 0 {
				return shots
			}
		}
	}
	return n * n
}

// ShotsToSink returns how many single shots hunter's density targeting,
// its ties broken by r, takes to sink fleet on an n×n map with nothing
// shooting back (at most n²): the admiral's measure of a fleet.
func ShotsToSink(r *rand.Rand, n int, fleet *[NumShips]Ship) int {
	var s shotSim
	return s.run(r, n, fleet)
}
