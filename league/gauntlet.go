package league

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

// Gauntlet is a tournament of agents of one game, without a store
// (`botarena tournament GAME --agents A,B,...`): every pairing of two of
// its agents plays every seating of the pair, Games games each, and
// [PlayGauntlet] sums the games up per pairing in a [GauntletTable].
//
// Pairings are the unordered pairs of distinct agents, in the order of
// Agents: (0,1), (0,2), ..., (1,2), ... A seating puts the pair's two agents
// in the game's seats: with 2 seats, both orders (A,B) and (B,A); with more,
// the other seats are filled by the pair's agents too, alternately, so a
// seating is a rotation of A,B,A,B,... or of B,A,B,A,... and every distinct
// rotation is played ([GauntletSeatings]: 2 seatings for an even number of
// seats, A,B,A,B and B,A,B,A; 2n for an odd n, so that both agents play
// every seat equally often). A game is won by the agent of the winning
// seat; when the top of the standings is tied, by the agent that holds
// every tied seat if one does (both of its seats share the top), and
// otherwise it is a draw.
//
// Game k (from 0) of seating s of pairing p has index i = (p·S + s)·Games + k,
// S being the number of seatings, and seed [GameSeed](Seed, i), the league's
// and the pools' seed derivation, so every game has a fresh seed, a game can
// be played again alone (`botarena play GAME --seed` with the same agents
// in the same seats), and the table depends on nothing but the gauntlet:
// not on the worker count, nor on where a game was played.
//
// With Lone set, a seating puts one agent of the pairing alone in one seat
// and the other in every other seat, the lone agent in each seat in turn
// ([LoneSeatings]: one seating per seat), so that its wins are its first
// places against a full table of the other (`botarena tournament --lone`:
// one policy against three hunters in 4-player Bomberman). The lone agent
// is the one named in Focus when exactly one of the pair is, else the
// pairing's first. With 2 seats Lone changes nothing.
//
// With Focus set, only the pairings that involve an agent named in Focus
// are played (`botarena tournament --focus NAME`: one agent against the rest);
// the others are skipped, but every game keeps its index, and so its seed,
// in the whole gauntlet, so a focused gauntlet's games are the same games
// as the full one's.
type Gauntlet struct {
	// Game is the registry name ("bomberman/2p") and Config its JSON
	// config (nil: the defaults).
	Game   string
	Config json.RawMessage
	// Agents are the agents, at least 2, with distinct names.
	Agents []Entrant
	// Games is the number of games per pairing and seating, 1 or more.
	Games int
	// Seed is the gauntlet's seed.
	Seed uint64
	// MaxRounds, when positive, ends every game after that many rounds
	// (the standings at that point are its result); 0 plays to the end.
	MaxRounds int
	// Focus, when not empty, names the agents whose pairings alone are
	// played; each must be one of Agents.
	Focus []string
	// Lone plays one agent of each pairing against a full table of the
	// other (see above) instead of the alternating seatings.
	Lone bool
}

// GauntletSeatings returns the seatings of a pairing in a game of seats
// seats, as [Gauntlet] describes them: one entry per seating, each holding
// per seat 0 for the pairing's first agent or 1 for its second. For 2
// seats it is [[0 1] [1 0]]; for 4, [[0 1 0 1] [1 0 1 0]]; for 3, the six
// rotations of 0,1,0 and of 1,0,1. It panics if seats is below 2.
func GauntletSeatings(seats int) [][]int {
	if seats < 2 {
		panic(fmt.Sprintf("league: GauntletSeatings(%d): want 2 seats or more", seats))
	}
	var out [][]int
	for first := range 2 {
		for r := range seats {
			s := make([]int, seats)
			for seat := range s {
				s[seat] = ((seat+r)%seats + first) % 2
			}
			if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, s) }) {
				out = append(out, s)
			}
		}
	}
	return out
}

// LoneSeatings returns the seatings of a pairing whose agent lone (0 for
// the first, 1 for the second) plays alone, as [Gauntlet] describes them
// with Lone: seating k puts lone in seat k and the other agent in every
// other seat. For 4 seats and lone 0: [[0 1 1 1] [1 0 1 1] [1 1 0 1]
// [1 1 1 0]]. It panics if seats is below 2 or lone is not 0 or 1.
func LoneSeatings(seats, lone int) [][]int {
	if seats < 2 || lone < 0 || lone > 1 {
		panic(fmt.Sprintf("league: LoneSeatings(%d, %d): want 2 seats or more and lone 0 or 1", seats, lone))
	}
	out := make([][]int, seats)
	for k := range out {
		out[k] = make([]int, seats)
		for seat := range out[k] {
			out[k][seat] = 1 - lone
		}
		out[k][k] = lone
	}
	return out
}

// Seatings returns the seatings of pairing p (indices into Agents) in a
// game of seats seats: [GauntletSeatings], or with Lone and more than 2
// seats [LoneSeatings] of the pairing's lone agent. Every pairing has the
// same number of seatings.
func (g *Gauntlet) Seatings(seats int, p [2]int) [][]int {
	if !g.Lone || seats == 2 {
		return GauntletSeatings(seats)
	}
	lone := 0
	if in := func(a int) bool { return slices.Contains(g.Focus, g.Agents[a].Name) }; in(p[1]) && !in(p[0]) {
		lone = 1
	}
	return LoneSeatings(seats, lone)
}

// Matches returns the gauntlet's games for a game of seats seats, in index
// order (see [Gauntlet]): the matches of pairing 0, seating 0 first. Every
// match asks for its fingerprint (Match.Fingerprint).
func (g *Gauntlet) Matches(seats int) []Match {
	var out []Match
	for pi, p := range gauntletPairs(len(g.Agents)) {
		if !g.plays(p) {
			continue
		}
		seatings := g.Seatings(seats, p)
		for si, seating := range seatings {
			for k := range g.Games {
				i := int64((pi*len(seatings)+si)*g.Games + k)
				m := Match{Index: i, Seed: GameSeed(g.Seed, i), Game: g.Game, Config: g.Config, MaxRounds: g.MaxRounds, Fingerprint: true}
				for _, side := range seating {
					m.Seats = append(m.Seats, g.Agents[p[side]])
				}
				out = append(out, m)
			}
		}
	}
	return out
}

// gauntletPairs returns the pairings of n agents, (0,1), (0,2), ...
func gauntletPairs(n int) [][2]int {
	var out [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			out = append(out, [2]int{a, b})
		}
	}
	return out
}

// plays reports whether g plays the pairing p: every pairing, or with
// Focus set, those that involve an agent named in Focus.
func (g *Gauntlet) plays(p [2]int) bool {
	return len(g.Focus) == 0 || slices.Contains(g.Focus, g.Agents[p[0]].Name) || slices.Contains(g.Focus, g.Agents[p[1]].Name)
}

// check returns what is wrong with g, or nil.
func (g *Gauntlet) check() error {
	if len(g.Agents) < 2 {
		return invalidf("a gauntlet needs at least 2 agents, got %d", len(g.Agents))
	}
	for i, a := range g.Agents {
		if strings.TrimSpace(a.Name) == "" || strings.TrimSpace(a.Spec) == "" {
			return invalidf("agent %d: want a name and a spec, got %q and %q", i, a.Name, a.Spec)
		}
		if slices.ContainsFunc(g.Agents[:i], func(b Entrant) bool { return b.Name == a.Name }) {
			return invalidf("agent %q listed twice: give each entry its own name", a.Name)
		}
	}
	for _, name := range g.Focus {
		if !slices.ContainsFunc(g.Agents, func(a Entrant) bool { return a.Name == name }) {
			return invalidf("focus %q is not one of the agents", name)
		}
	}
	if g.Games < 1 {
		return invalidf("games per pairing and seating: want 1 or more, got %d", g.Games)
	}
	if g.MaxRounds < 0 {
		return invalidf("max rounds: want 0 (to the end) or more, got %d", g.MaxRounds)
	}
	return nil
}

// GauntletTable is the outcome of a [Gauntlet]: one [GauntletPair] per
// pairing, in the gauntlet's order. It is what `botarena tournament
// --json` prints.
type GauntletTable struct {
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
	// Seats is the game's number of seats.
	Seats int `json:"seats"`
	// GamesPerSeating is the number of games of each pairing in each
	// seating (--games).
	GamesPerSeating int `json:"games_per_seating"`
	// MaxRounds is the round cap of every game, 0 for none.
	MaxRounds int `json:"max_rounds"`
	// Focus names the agents whose pairings alone were played (--focus),
	// none when every pairing was.
	Focus []string `json:"focus,omitempty"`
	// Lone is set when each pairing played one agent against a full table
	// of the other (--lone; [Gauntlet]).
	Lone bool `json:"lone,omitempty"`
	// Partial is set on the table of an interrupted tournament: some
	// games were not finished, and each seating's Games counts those that
	// were (fewer than GamesPerSeating).
	Partial bool           `json:"partial,omitempty"`
	Agents  []Entrant      `json:"agents"`
	Pairs   []GauntletPair `json:"pairs"`
}

// GauntletPair is the record of one pairing: the games of all its
// seatings together, and per seating.
type GauntletPair struct {
	// Agents names the pairing's two agents, A and B, in the gauntlet's
	// order; Sides holds their records in the same order.
	Agents [2]string       `json:"agents"`
	Games  int             `json:"games"`
	Draws  int             `json:"draws"`
	Sides  [2]GauntletSide `json:"sides"`
	// DistinctEndings is the number of distinct final states of the
	// pairing's games (by match.Fingerprint: every seat's final
	// observation, the step count and the standings): 1 for a pairing
	// whose every game went the same way, Games when no two games ended
	// alike.
	DistinctEndings int `json:"distinct_endings"`
	// MeanRounds is the mean length of the games in the game's own rounds
	// (env.Result.Rounds).
	MeanRounds float64 `json:"mean_rounds"`
	// Seatings holds the games of each seating, in the order of
	// [Gauntlet.Seatings].
	Seatings []GauntletSeating `json:"seatings"`
}

// GauntletSide is one agent's record in a pairing.
type GauntletSide struct {
	Agent  string `json:"agent"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// WinRate is Wins/Games (a draw is not a win), and WinRate95 its 95%
	// Wilson score interval ([WilsonInterval]).
	WinRate   float64    `json:"win_rate"`
	WinRate95 [2]float64 `json:"win_rate_95"`
	// MeanPoints is the mean of the game's own points (env.Standing.Score:
	// Bomberman's points, Battleships' points, BattleBots' HP, portal
	// Bomberman's coins, ...) over the agent's seats in all the pairing's
	// games.
	MeanPoints float64 `json:"mean_points"`
	// Faults is the number of rounds in which the agent, an external bot,
	// timed out, crashed or answered garbage or an illegal move and took
	// the original's penalty, summed over its seats and games, as the bot
	// reports them (match.FaultCounter: command-line bots, Entelect bot
	// folders, HTTP bots and UPE seats do); 0 for built-in agents and
	// policies. It is FaultKinds.Total().
	Faults int `json:"faults"`
	// FaultKinds splits Faults by kind: {"timed_out":N,"crashed":N,
	// "invalid":N}.
	FaultKinds match.Faults `json:"fault_kinds"`
	// Forfeits is the number of games the agent lost by panicking (the
	// match runner's failure policy).
	Forfeits int `json:"forfeits"`
	// MeanActions is the mean number of actions of each kind the agent
	// chose per game and seat (match.Standing.Actions, averaged over its
	// seats in all the pairing's games): {"nothing":3.5,"move":120,
	// "bomb":0,...}, so that an agent that never bombs or never moves
	// shows. Absent for a game that does not sort its actions into kinds.
	MeanActions match.Actions `json:"mean_actions,omitzero"`
	// SeatGames is the number of seats the agent played in the pairing's
	// games: Games with 2 seats.
	SeatGames int `json:"seat_games"`
	// Deaths counts the agent's seats in all the pairing's games by how
	// its player died (match.Standing.Death), every cause of the game in
	// its order, 0s included: {"own bomb":14,"opponent's bomb":3,...};
	// SeatGames less Deaths.Total() survived. Absent for a game that does
	// not say how its players end.
	Deaths match.Deaths `json:"deaths,omitzero"`
	// LoserDeaths counts, in the games the agent won, the other agent's
	// seats by how they died, in the losers' words: "own bomb" there is a
	// win by the opponent's own bomb, "opponent's bomb" one by the agent's
	// bomb. Absent as Deaths is.
	LoserDeaths match.Deaths `json:"loser_deaths,omitzero"`
}

// GauntletSeating is the record of one seating of a pairing.
type GauntletSeating struct {
	// Seats names the agent of each seat.
	Seats []string `json:"seats"`
	Games int      `json:"games"`
	// Wins holds the wins of the pairing's A and B in this seating.
	Wins  [2]int `json:"wins"`
	Draws int    `json:"draws"`
	// DistinctEndings counts the distinct final states of the seating's
	// games, as GauntletPair.DistinctEndings.
	DistinctEndings int `json:"distinct_endings"`
	// FirstIndex is the index of the seating's first game: game k of the
	// seating has index FirstIndex+k and seed GameSeed(Seed, FirstIndex+k).
	// FirstSeed is the first game's seed, to play it again (`botarena play
	// GAME --seed FirstSeed --agents` the seating's agents).
	FirstIndex int64  `json:"first_index"`
	FirstSeed  uint64 `json:"first_seed"`
}

// wilsonZ is the standard normal quantile of 0.975: a 95% two-sided
// interval.
const wilsonZ = 1.959963984540054

// WilsonInterval returns the 95% Wilson score interval of a proportion
// after successes out of n trials:
//
//	(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n),  p = successes/n, z = 1.96
//
// clamped to [0, 1]. Unlike the normal approximation it stays inside
// [0, 1] and is not empty at 0 or n successes: 0 of 10 gives [0, 0.278].
// It returns [0, 1] for n = 0.
func WilsonInterval(successes, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(successes) / float64(n)
	nf := float64(n)
	z2 := wilsonZ * wilsonZ
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := wilsonZ / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, center-half), min(1, center+half)
}

// PlayGauntlet plays g's games with runner on at most workers goroutines
// (a [PoolRunner] plays those of in-process agents on pools, those with
// external bots alone) and returns the table. reg makes the envs (nil
// means env.Default); progress, when not nil, is called after every game
// with the number finished and the total, from one goroutine at a time.
// It returns the first error of a game (an agent that cannot be made, a
// bad config) and no table. When ctx ends first (an interrupted
// tournament), it returns ctx's error with the table of the games that
// were finished by then (Partial set, each seating's Games counting its
// finished games), or no table when none was.
func PlayGauntlet(ctx context.Context, g Gauntlet, runner BatchRunner, reg *env.Registry, workers int, progress func(done, total int)) (*GauntletTable, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	if reg == nil {
		reg = env.Default
	}
	probe, err := reg.Make(g.Game, g.Config)
	if err != nil {
		return nil, markBad(err)
	}
	seats := probe.Spec().Seats
	var causes []string
	if d, ok := probe.(match.DeathCauser); ok {
		causes = d.DeathCauses()
	}
	matches := g.Matches(seats)
	results := make([]Result, len(matches))
	finished := make([]bool, len(matches))
	var (
		mu       sync.Mutex
		firstErr error
		errIndex = int64(math.MaxInt64)
		done     int
	)
	runner.PlayBatch(ctx, matches, max(workers, 1), func(j int, r Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			// Report the error of the lowest-indexed game that failed,
			// context errors last.
			if firstErr == nil || (matches[j].Index < errIndex && !isCtxErr(err)) {
				firstErr, errIndex = err, matches[j].Index
			}
			return
		}
		results[j] = r
		finished[j] = true
		done++
		if progress != nil {
			progress(done, len(matches))
		}
	})
	if err := ctx.Err(); err != nil && (done != len(matches) || firstErr != nil) {
		if done == 0 {
			return nil, err
		}
		return g.table(seats, causes, matches, results, finished), err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if done != len(matches) {
		return nil, fmt.Errorf("league: gauntlet: %d of %d games were played", done, len(matches))
	}
	return g.table(seats, causes, matches, results, finished), nil
}

// isCtxErr reports whether err is a context's error.
func isCtxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// table sums the finished results (of matches, in index order) up; a
// table with a game not finished is Partial. causes are the game's death
// causes (match.DeathCauser), nil when it does not say them.
func (g *Gauntlet) table(seats int, causes []string, matches []Match, results []Result, finished []bool) *GauntletTable {
	t := &GauntletTable{Game: g.Game, Seed: g.Seed, Seats: seats, GamesPerSeating: g.Games, MaxRounds: g.MaxRounds, Focus: g.Focus, Lone: g.Lone && seats > 2, Agents: g.Agents}
	j := 0
	for _, p := range gauntletPairs(len(g.Agents)) {
		if !g.plays(p) {
			continue
		}
		seatings := g.Seatings(seats, p)
		pair := GauntletPair{Agents: [2]string{g.Agents[p[0]].Name, g.Agents[p[1]].Name}}
		endings := map[uint64]bool{}
		var rounds float64
		var points [2]float64
		var actions [2]match.Actions
		var seatsPlayed [2]int
		var deaths, loserDeaths [2]match.Deaths
		if causes != nil {
			deaths = [2]match.Deaths{match.NewDeaths(causes), match.NewDeaths(causes)}
			loserDeaths = [2]match.Deaths{match.NewDeaths(causes), match.NewDeaths(causes)}
		}
		for _, seating := range seatings {
			st := GauntletSeating{FirstIndex: matches[j].Index, FirstSeed: matches[j].Seed}
			seatingEndings := map[uint64]bool{}
			for _, side := range seating {
				st.Seats = append(st.Seats, pair.Agents[side])
			}
			for range g.Games {
				r, ok := results[j], finished[j]
				j++
				if !ok {
					t.Partial = true
					continue
				}
				st.Games++
				endings[r.Fingerprint] = true
				seatingEndings[r.Fingerprint] = true
				rounds += float64(r.Rounds)
				winner := winningSide(r, seating)
				switch winner {
				case -1:
					st.Draws++
					for s := range pair.Sides {
						pair.Sides[s].Draws++
					}
				default:
					st.Wins[winner]++
					pair.Sides[winner].Wins++
					pair.Sides[1-winner].Losses++
				}
				for _, s := range r.Leaderboard {
					if s.Seat >= 0 && s.Seat < seats {
						side := seating[s.Seat]
						points[side] += s.Score
						actions[side] = actions[side].Add(s.Actions)
						seatsPlayed[side]++
						deaths[side].Add(s.Death)
						if winner == 1-side {
							loserDeaths[winner].Add(s.Death)
						}
						pair.Sides[side].FaultKinds = pair.Sides[side].FaultKinds.Add(r.SeatFaultsOf(s.Seat))
					}
				}
				if f := r.ForfeitSeat(); f >= 0 && f < seats {
					pair.Sides[seating[f]].Forfeits++
				}
			}
			st.DistinctEndings = len(seatingEndings)
			pair.Games += st.Games
			pair.Draws += st.Draws
			pair.Seatings = append(pair.Seatings, st)
		}
		for s := range pair.Sides {
			side := &pair.Sides[s]
			side.Agent = pair.Agents[s]
			side.Faults = side.FaultKinds.Total()
			if pair.Games > 0 {
				side.WinRate = float64(side.Wins) / float64(pair.Games)
			}
			side.WinRate95[0], side.WinRate95[1] = WilsonInterval(side.Wins, pair.Games)
			side.SeatGames, side.Deaths, side.LoserDeaths = seatsPlayed[s], deaths[s], loserDeaths[s]
			if seatsPlayed[s] > 0 {
				side.MeanPoints = points[s] / float64(seatsPlayed[s])
				if !actions[s].IsZero() {
					side.MeanActions = actions[s].Scale(1 / float64(seatsPlayed[s]))
				}
			}
		}
		pair.DistinctEndings = len(endings)
		if pair.Games > 0 {
			pair.MeanRounds = rounds / float64(pair.Games)
		}
		t.Pairs = append(t.Pairs, pair)
	}
	return t
}

// winningSide returns the side (0 or 1) of seating that won the game of
// r, or -1 for a draw: the winner's side; when the top of the standings is
// tied (r.Draw, or no winner), the side that holds every tied seat (the
// seats whose score and alive flag equal rank 1's, as [Result.Draw] says),
// if one side holds them all, as in a game of more than 2 seats where both
// of an agent's seats share the top.
func winningSide(r Result, seating []int) int {
	if w := int(r.Winner); !r.Draw && w >= 0 && w < len(seating) {
		return seating[w]
	}
	if len(r.Leaderboard) == 0 {
		return -1
	}
	top, side := r.Leaderboard[0], -1
	for _, s := range r.Leaderboard {
		if s.Score != top.Score || s.Alive != top.Alive {
			continue
		}
		if s.Seat < 0 || s.Seat >= len(seating) || (side >= 0 && seating[s.Seat] != side) {
			return -1
		}
		side = seating[s.Seat]
	}
	return side
}

// WriteText writes t as text: per pairing a header line (games, distinct
// endings, mean length), one line per agent (W/D/L, win rate with its 95%
// interval, mean points, faults, forfeits, its mean actions per game by
// kind where the game counts them, and where the game says how its players
// end, its deaths out of its seats by cause, "14 of 60: own bomb 14", and
// how the losers of its wins died, "own bomb 9, opponent's bomb 2": wins by
// the opponent's own bomb and by the agent's) and one line per seating (its first
// game's seed, wins, draws, distinct endings); then, with more than two
// agents, the matrix of win rates, row against column.
func (t *GauntletTable) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, p := range t.Pairs {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "%s vs %s: %d games, distinct endings %d, mean length %.1f rounds\n", p.Agents[0], p.Agents[1], p.Games, p.DistinctEndings, p.MeanRounds)
		deaths := !p.Sides[0].Deaths.IsZero() || !p.Sides[1].Deaths.IsZero()
		header := "agent\tW/D/L\twin rate\t95% interval\tmean points\tfaults\tforfeits\tactions per game"
		if deaths {
			header += "\tdied\tits wins' losers died by"
		}
		fmt.Fprintln(tw, header)
		for _, s := range p.Sides {
			fmt.Fprintf(tw, "%s\t%d/%d/%d\t%.1f%%\t[%.1f%%, %.1f%%]\t%.2f\t%d\t%d\t%s", s.Agent, s.Wins, s.Draws, s.Losses,
				100*s.WinRate, 100*s.WinRate95[0], 100*s.WinRate95[1], s.MeanPoints, s.Faults, s.Forfeits, s.MeanActions)
			if deaths {
				losers := "-"
				if s.Wins > 0 {
					losers = s.LoserDeaths.String()
				}
				fmt.Fprintf(tw, "\t%d of %d: %s\t%s", s.Deaths.Total(), s.SeatGames, s.Deaths, losers)
			}
			fmt.Fprintln(tw)
		}
		for _, st := range p.Seatings {
			fmt.Fprintf(tw, "  seats %s: %d games (first seed %d): %s %d, %s %d, draws %d, distinct endings %d\n", strings.Join(st.Seats, ","), st.Games,
				st.FirstSeed, p.Agents[0], st.Wins[0], p.Agents[1], st.Wins[1], st.Draws, st.DistinctEndings)
		}
	}
	if len(t.Agents) > 2 {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "win rate, row against column:")
		m := t.WinRates()
		cells := make([]string, len(t.Agents)+1)
		for c, a := range t.Agents {
			cells[c+1] = a.Name
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
		for r, a := range t.Agents {
			cells[0] = a.Name
			for c := range t.Agents {
				if math.IsNaN(m[r][c]) {
					cells[c+1] = "-"
				} else {
					cells[c+1] = fmt.Sprintf("%.1f%%", 100*m[r][c])
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	return tw.Flush()
}

// WinRates returns the matrix of win rates: entry [r][c] is the win rate
// of Agents[r] against Agents[c] (its wins over their games), NaN on the
// diagonal and for pairings not played (Focus).
func (t *GauntletTable) WinRates() [][]float64 {
	idx := map[string]int{}
	for i, a := range t.Agents {
		idx[a.Name] = i
	}
	m := make([][]float64, len(t.Agents))
	for r := range m {
		m[r] = make([]float64, len(t.Agents))
		for c := range m[r] {
			m[r][c] = math.NaN()
		}
	}
	for _, p := range t.Pairs {
		a, b := idx[p.Agents[0]], idx[p.Agents[1]]
		m[a][b], m[b][a] = p.Sides[0].WinRate, p.Sides[1].WinRate
	}
	return m
}
