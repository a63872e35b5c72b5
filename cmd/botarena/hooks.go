package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

// This file holds what `botarena play` takes from a game's [env.Kit]:
// flags that set its config fields (Kit.Flags), extra leaderboard fields
// (Kit.Leaderboard, in play.go) and its replay layout (Kit.Replay). The
// event stream (--events) is the native format named eventsFormat.

// eventsFormat is the native format `play --events` prints after every
// round: JSON Lines, the events of that round (the initial ones at round 0).
const eventsFormat = "events"

// gameKit returns the kit of the registry name game in reg; a game without
// one gets the empty kit.
func gameKit(reg *env.Registry, game string) *env.Kit {
	if e, err := reg.Lookup(game); err == nil && e.Kit != nil {
		return e.Kit
	}
	return &env.Kit{}
}

// extraFields returns the function that gives the game's extra leaderboard
// fields of a seat (its Kit.Leaderboard in env.Default, the registry play
// uses), or nil when it has none.
func extraFields(game string) func(e env.Env, seat int) []env.Field {
	return gameKit(env.Default, game).Leaderboard
}

// gameFlag is a game's `play` flag (see [env.Flag]) with the base game it
// belongs to.
type gameFlag struct {
	env.Flag
	Game string // base game, e.g. "battlecube"
}

// gameFlags returns the flags of every game of reg, by base game and then
// as listed. The registry has checked that a name shared by several games
// has one type.
func gameFlags(reg *env.Registry) []gameFlag {
	var flags []gameFlag
	seen := map[string]bool{} // base games
	for _, name := range reg.Names() {
		base := env.BaseGame(name)
		if seen[base] {
			continue
		}
		seen[base] = true
		for _, f := range gameKit(reg, name).Flags {
			flags = append(flags, gameFlag{Flag: f, Game: base})
		}
	}
	return flags
}

// gameFlagValue holds a game flag's value as parsed.
type gameFlagValue struct {
	str     string
	num     int
	changed bool
}

// addGameFlags adds every game flag of reg to fs, once per name, and
// returns where their values land.
func addGameFlags(fs *pflag.FlagSet, reg *env.Registry) map[string]*gameFlagValue {
	flags := gameFlags(reg)
	values := map[string]*gameFlagValue{}
	byName := map[string][]string{}
	for _, f := range flags {
		byName[f.Name] = append(byName[f.Name], f.Game+" "+f.Usage)
	}
	for _, f := range flags {
		if _, done := values[f.Name]; done {
			continue
		}
		v := &gameFlagValue{}
		values[f.Name] = v
		usage := strings.Join(byName[f.Name], "; ")
		if f.Int {
			fs.IntVar(&v.num, f.Name, 0, usage)
		} else {
			fs.StringVar(&v.str, f.Name, "", usage)
		}
	}
	return values
}

// applyGameFlags puts the values of the game flags given on the command
// line into set, as config fields of game. A flag of another game is an
// error.
func applyGameFlags(reg *env.Registry, game string, values map[string]*gameFlagValue, set map[string]any) error {
	flags := gameFlags(reg)
	base := env.BaseGame(game)
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := values[name]
		if !v.changed {
			continue
		}
		i := slices.IndexFunc(flags, func(f gameFlag) bool { return f.Name == name && f.Game == base })
		if i < 0 {
			var games []string
			for _, f := range flags {
				if f.Name == name {
					games = append(games, f.Game)
				}
			}
			return fmt.Errorf("--%s applies to %s, not %s", name, strings.Join(games, ", "), game)
		}
		if f := flags[i]; f.Int {
			set[f.Field] = v.num
		} else {
			set[f.Field] = v.str
		}
	}
	return nil
}

// summary accumulates the results of a batch of games (--games N): wins
// and total score per agent (or seat), and the champion by most wins, then
// total score (Battle³'s batch rule, sensible for every game).
type summary struct {
	games  int
	wins   map[string]int
	scores map[string]float64
	draws  int
	rounds int
	keys   []string // wins keys, sorted
}

// winKey names a seat for the summary: its agent, or seat and agent when
// several seats play the same agent.
func winKey(res match.Result, seat int) string {
	agent := ""
	same := 0
	for _, s := range res.Leaderboard {
		if s.Seat == seat {
			agent = s.Agent
		}
	}
	for _, s := range res.Leaderboard {
		if s.Agent == agent {
			same++
		}
	}
	if same == 1 && agent != "" {
		return agent
	}
	return fmt.Sprintf("seat %d (%s)", seat, agent)
}

func (s *summary) add(res match.Result) {
	if s.wins == nil {
		s.wins = map[string]int{}
		s.scores = map[string]float64{}
		for _, st := range res.Leaderboard {
			k := winKey(res, st.Seat)
			if _, ok := s.wins[k]; !ok {
				s.wins[k] = 0
				s.keys = append(s.keys, k)
			}
		}
		sort.Strings(s.keys)
	}
	s.games++
	s.rounds += res.Rounds
	for _, st := range res.Leaderboard {
		s.scores[winKey(res, st.Seat)] += st.Score
	}
	switch {
	case res.Draw || res.Winner < 0:
		s.draws++
	default:
		s.wins[winKey(res, int(res.Winner))]++
	}
}

// champion returns the key with the most wins, then the highest total
// score; ties keep the first in sorted order.
func (s *summary) champion() string {
	best := ""
	for _, k := range s.keys {
		if best == "" || s.wins[k] > s.wins[best] || (s.wins[k] == s.wins[best] && s.scores[k] > s.scores[best]) {
			best = k
		}
	}
	return best
}

// print writes the summary: the DESIGN's last JSON line, or a table.
func (s *summary) print(c *cli, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(c.stdout).Encode(struct {
			Summary    bool               `json:"summary"`
			Games      int                `json:"games"`
			Wins       map[string]int     `json:"wins"`
			Scores     map[string]float64 `json:"scores"`
			Draws      int                `json:"draws"`
			Champion   string             `json:"champion"`
			MeanRounds float64            `json:"mean_rounds"`
		}{true, s.games, s.wins, s.scores, s.draws, s.champion(), float64(s.rounds) / float64(s.games)})
	}
	fmt.Fprintf(c.stdout, "\n%d games, %.1f rounds on average, %d drawn; champion (most wins, then total score): %s\n\n",
		s.games, float64(s.rounds)/float64(s.games), s.draws, s.champion())
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "WINS\tRATE\tTOTAL SCORE\tAGENT")
	for _, k := range s.keys {
		fmt.Fprintf(w, "%d\t%.0f%%\t%g\t%s\n", s.wins[k], 100*float64(s.wins[k])/float64(s.games), s.scores[k], k)
	}
	return w.Flush()
}
