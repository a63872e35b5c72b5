package league

import (
	"maps"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/botarena/botarena/match"
)

// Glicko-2 constants (Glickman, "Example of the Glicko-2 system", 2013).
const (
	// InitialRating, InitialRD and InitialVolatility are a new agent's
	// Glicko-2 rating, rating deviation and volatility.
	InitialRating     = 1500.0
	InitialRD         = 350.0
	InitialVolatility = 0.06
	// Tau constrains the change of volatility (the paper suggests 0.3 to
	// 1.2).
	Tau = 0.5
	// glickoScale converts ratings to the Glicko-2 scale.
	glickoScale = 173.7178
	// volatilityEps is the convergence tolerance of the volatility update.
	volatilityEps = 1e-6
	// InitialElo is a new agent's Elo rating and EloK the K-factor of one
	// game between two seats.
	InitialElo = 1500.0
	EloK       = 32.0
)

// Rating is an agent's standing in the league: Glicko-2 rating, deviation
// and volatility, a plain Elo rating, and its game counts. A win is rank 1
// in a game without a draw; a draw is a share of a tied top; anything else
// is a loss.
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	Elo        float64 `json:"elo"`
	Games      int     `json:"games"`
	Wins       int     `json:"wins"`
	Draws      int     `json:"draws"`
	Losses     int     `json:"losses"`
}

// NewRating returns a new agent's rating.
func NewRating() Rating {
	return Rating{Rating: InitialRating, RD: InitialRD, Volatility: InitialVolatility, Elo: InitialElo}
}

// Outcome is one seat's result against one opponent: 1 win, 0.5 draw, 0
// loss, with the opponent's rating before the game.
type Outcome struct {
	Opponent Rating
	Score    float64
}

// Glicko2 returns r after a rating period with the given outcomes (the
// Glicko-2 algorithm, steps 2 to 8). With no outcomes only the deviation
// grows, by the volatility. The sums over opponents use gonum's floats.
func Glicko2(r Rating, outcomes []Outcome) Rating {
	mu := (r.Rating - InitialRating) / glickoScale
	phi := r.RD / glickoScale
	sigma := r.Volatility
	if len(outcomes) == 0 {
		r.RD = math.Min(math.Sqrt(phi*phi+sigma*sigma)*glickoScale, InitialRD)
		return r
	}
	n := len(outcomes)
	g := make([]float64, n)    // g(φj)
	e := make([]float64, n)    // E(μ, μj, φj)
	info := make([]float64, n) // g² E (1-E)
	diff := make([]float64, n) // sj - E
	for j, o := range outcomes {
		muJ := (o.Opponent.Rating - InitialRating) / glickoScale
		phiJ := o.Opponent.RD / glickoScale
		g[j] = 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e[j] = 1 / (1 + math.Exp(-g[j]*(mu-muJ)))
		info[j] = g[j] * g[j] * e[j] * (1 - e[j])
		diff[j] = o.Score - e[j]
	}
	v := 1 / floats.Sum(info)
	sumGD := floats.Dot(g, diff)
	delta := v * sumGD

	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > volatilityEps && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma = math.Exp(A / 2)

	// Steps 6 to 8.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sumGD
	r.Rating = mu*glickoScale + InitialRating
	r.RD = phi * glickoScale
	r.Volatility = sigma
	return r
}

// EloExpected returns the Elo expected score of a rating a against b.
func EloExpected(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// pairScores returns, for a game's result, each seat's outcome against every
// other seat played by a different agent: 1 when it ranks above, 0 below,
// 0.5 when both share a drawn top. It returns the pairs (seat, opponent
// seat, score).
func pairScores(res Result) [][3]float64 {
	top := map[int]bool{}
	if res.Draw && len(res.Leaderboard) > 0 {
		for _, s := range res.Leaderboard[:match.TiedTop(res.Leaderboard)] {
			top[s.Seat] = true
		}
	}
	var out [][3]float64
	for i, a := range res.Leaderboard {
		for j, b := range res.Leaderboard {
			if i == j || a.Agent == b.Agent {
				continue
			}
			score := 0.0
			switch {
			case top[a.Seat] && top[b.Seat]:
				score = 0.5
			case i < j:
				score = 1
			}
			out = append(out, [3]float64{float64(a.Seat), float64(b.Seat), score})
		}
	}
	return out
}

// RatePeriod applies one rating period, the finished games in index
// order, to ratings (by agent name; missing agents start at [NewRating])
// and returns the new ratings of the agents that played.
//
// Glicko-2: every seat is rated against every other seat played by a
// different agent (1 above it, 0 below it, ½ for a shared drawn top), and
// all of an agent's outcomes of the period, over its games and seats, make
// one update against the opponents' ratings from before the period. Agents
// that did not play are left alone (their deviation does not grow). Elo
// moves game by game: EloK times (score − expected) per pair of seats,
// divided by the number of opponents, from the ratings before the game. The
// game counts go to each seat's agent.
func RatePeriod(ratings map[string]Rating, games []Result) map[string]Rating {
	cur := map[string]Rating{}
	for _, res := range games {
		for _, s := range res.Leaderboard {
			if _, ok := cur[s.Agent]; ok {
				continue
			}
			r, ok := ratings[s.Agent]
			if !ok {
				r = NewRating()
			}
			cur[s.Agent] = r
		}
	}
	before := maps.Clone(cur)
	outcomes := map[string][]Outcome{}
	for _, res := range games {
		agentOf := map[int]string{}
		elo := map[int]float64{} // Elo before the game, by seat
		for _, s := range res.Leaderboard {
			agentOf[s.Seat] = s.Agent
			elo[s.Seat] = cur[s.Agent].Elo
		}
		gain := map[int]float64{}
		opponents := map[int]int{}
		for _, p := range pairScores(res) {
			seat, opp := int(p[0]), int(p[1])
			name := agentOf[seat]
			outcomes[name] = append(outcomes[name], Outcome{Opponent: before[agentOf[opp]], Score: p[2]})
			gain[seat] += p[2] - EloExpected(elo[seat], elo[opp])
			opponents[seat]++
		}
		top := 0
		if res.Draw && len(res.Leaderboard) > 0 {
			top = match.TiedTop(res.Leaderboard)
		}
		for rank, s := range res.Leaderboard {
			r := cur[s.Agent]
			if opponents[s.Seat] > 0 {
				r.Elo += EloK * gain[s.Seat] / float64(opponents[s.Seat])
			}
			r.Games++
			switch {
			case res.Draw && rank < top:
				r.Draws++
			case !res.Draw && rank == 0:
				r.Wins++
			default:
				r.Losses++
			}
			cur[s.Agent] = r
		}
	}
	for name, r := range cur {
		if o := outcomes[name]; len(o) > 0 {
			g := Glicko2(before[name], o)
			r.Rating, r.RD, r.Volatility = g.Rating, g.RD, g.Volatility
		}
		cur[name] = r
		ratings[name] = r
	}
	return cur
}
