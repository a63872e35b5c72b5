package league

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"gonum.org/v1/gonum/floats"
)

// Matchmaking is how a run picks the agents of each game.
type Matchmaking string

// The matchmaking methods.
const (
	// RoundRobin cycles through every ordered pair of agents (the circle
	// method's rounds, then the same rounds with the seats swapped), one
	// pair per game, so that after n(n−1) games every agent has met every
	// other once in each seat order. Games with more than 2 seats put the
	// pair in seats 0 and 1 and fill the other seats by cycling through
	// the remaining agents, shifted by one every cycle.
	RoundRobin Matchmaking = "round-robin"
	// Uniform draws each game's agents uniformly at random, without
	// repeats while the league has enough agents.
	Uniform Matchmaking = "uniform"
	// PFSP is prioritised fictitious self-play (AlphaStar): the target
	// agent plays every game, its seat rotating with the game index, and
	// each other seat's opponent is drawn with weight (1−p)², where p is
	// the target's win rate against that opponent (PFSPWinRate).
	PFSP Matchmaking = "pfsp"
)

// Matchmakings lists the methods, for flags and errors.
var Matchmakings = []Matchmaking{RoundRobin, Uniform, PFSP}

// BatchGames is the size of the blocks of game indices a run works in:
// PFSP's win rates for game i count the games with index below i rounded
// down to a multiple of BatchGames, so that every game of a block is
// matched from the same, finished history whatever the worker count and
// wherever a run was interrupted. Match data files hold one block each.
const BatchGames = 64

// PFSPWinRate returns the target's win rate against an opponent after wins,
// draws and games together, with a prior of one drawn game: (wins +
// draws/2 + 1/2) / (games + 1). An unplayed opponent gets 0.5, and no
// opponent ever reaches 0 or 1.
func PFSPWinRate(wins, draws, games int) float64 {
	return (float64(wins) + float64(draws)/2 + 0.5) / (float64(games) + 1)
}

// PFSPWeight is AlphaStar's "hard" weighting, (1−p)²: opponents the target
// beats least are drawn most.
func PFSPWeight(p float64) float64 { return (1 - p) * (1 - p) }

// pairRecord counts the target's results against one opponent.
type pairRecord struct{ wins, draws, games int }

// matchmaker picks the agents of game index i.
type matchmaker struct {
	method Matchmaking
	seed   uint64
	agents []Agent
	seats  int
	pairs  [][2]int
	target int // PFSP: index of the target in agents
	// record is the target's results against each opponent by name (PFSP),
	// counted from the games observed.
	record map[string]*pairRecord
}

func newMatchmaker(method Matchmaking, seed uint64, agents []Agent, seats int, target string) (*matchmaker, error) {
	if len(agents) < 2 {
		return nil, kindError{ErrTooFewAgents, fmt.Errorf("a league run needs at least 2 agents, the league has %d (add some with `botarena league add`)", len(agents))}
	}
	m := &matchmaker{method: method, seed: seed, agents: agents, seats: seats, target: -1, record: map[string]*pairRecord{}}
	switch method {
	case RoundRobin:
		m.pairs = roundRobinPairs(len(agents))
	case Uniform:
	case PFSP:
		for i, a := range agents {
			if a.Name == target {
				m.target = i
			}
		}
		if target == "" {
			return nil, invalidf("--match pfsp needs --target NAME, the agent to find opponents for")
		}
		if m.target < 0 {
			return nil, fmt.Errorf("--target %s: %w", clipQuote(target), ErrUnknownAgent)
		}
	default:
		return nil, invalidf("--match %s: want one of %s", clipQuote(string(method)), matchmakingList())
	}
	if method != PFSP && target != "" {
		return nil, invalidf("--target is for --match pfsp, not %s", method)
	}
	return m, nil
}

func matchmakingList() string {
	s := make([]string, len(Matchmakings))
	for i, m := range Matchmakings {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}

// observe counts a finished game into the PFSP record. Games must come in
// index order.
func (m *matchmaker) observe(res Result) {
	if m.method != PFSP {
		return
	}
	target := m.agents[m.target].Name
	seats := map[int]string{}
	for _, s := range res.Leaderboard {
		seats[s.Seat] = s.Agent
	}
	for _, p := range pairScores(res) {
		if seats[int(p[0])] != target {
			continue
		}
		opp := seats[int(p[1])]
		r := m.record[opp]
		if r == nil {
			r = &pairRecord{}
			m.record[opp] = r
		}
		r.games++
		switch p[2] {
		case 1:
			r.wins++
		case 0.5:
			r.draws++
		}
	}
}

// rng returns the generator of game i's draws.
func (m *matchmaker) rng(i int64) *rand.Rand {
	return rand.New(rand.NewPCG(m.seed^0x6c65616775650a, uint64(i)))
}

// pick returns the indices (into agents) of game i's seats. For PFSP the
// record must hold exactly the games below i rounded down to BatchGames.
func (m *matchmaker) pick(i int64) []int {
	n := len(m.agents)
	out := make([]int, m.seats)
	switch m.method {
	case RoundRobin:
		cycle := int64(len(m.pairs))
		p := m.pairs[i%cycle]
		rest := make([]int, 0, n)
		for a := range n {
			if a != p[0] && a != p[1] {
				rest = append(rest, a)
			}
		}
		for s := range m.seats {
			switch {
			case s < 2:
				out[s] = p[s]
			case len(rest) == 0:
				out[s] = p[s%2]
			default:
				out[s] = rest[(int(i/cycle)+s-2)%len(rest)]
			}
		}
	case Uniform:
		perm := m.rng(i).Perm(n)
		for s := range out {
			out[s] = perm[s%n]
		}
	case PFSP:
		rng := m.rng(i)
		opps := make([]int, 0, n-1)
		w := make([]float64, 0, n-1)
		for a, ag := range m.agents {
			if a == m.target {
				continue
			}
			r := m.record[ag.Name]
			if r == nil {
				r = &pairRecord{}
			}
			opps = append(opps, a)
			w = append(w, PFSPWeight(PFSPWinRate(r.wins, r.draws, r.games)))
		}
		floats.CumSum(w, w)
		total := w[len(w)-1]
		ts := int(i % int64(m.seats))
		for s := range out {
			if s == ts {
				out[s] = m.target
				continue
			}
			x := rng.Float64() * total
			k := sort.SearchFloat64s(w, x)
			for k < len(w)-1 && w[k] <= x {
				k++
			}
			out[s] = opps[min(k, len(opps)-1)]
		}
	}
	return out
}

// roundRobinPairs returns every ordered pair of n agents once: the circle
// method's n−1 rounds (n rounds with a bye when n is odd), the home seat
// alternating, then the same rounds with the seats swapped.
func roundRobinPairs(n int) [][2]int {
	m := n + n%2
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	var first [][2]int
	for r := range m - 1 {
		for k := range m / 2 {
			a, b := idx[k], idx[m-1-k]
			if a == n || b == n {
				continue // the bye
			}
			if (r+k)%2 == 1 {
				a, b = b, a
			}
			first = append(first, [2]int{a, b})
		}
		// Keep idx[0]; rotate the rest by one.
		last := idx[m-1]
		copy(idx[2:], idx[1:m-1])
		idx[1] = last
	}
	pairs := make([][2]int, 0, 2*len(first))
	pairs = append(pairs, first...)
	for _, p := range first {
		pairs = append(pairs, [2]int{p[1], p[0]})
	}
	return pairs
}
