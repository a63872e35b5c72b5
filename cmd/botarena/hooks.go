package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

// This file holds the hooks through which a game adds to `botarena play`
// what only it needs, each registered from an init function in
// cmd/botarena/<game>.go: flags that set its config fields (gameFlags),
// extra leaderboard fields (extraFields, in play.go), and its replay layout
// (replayWriters). The event stream (--events) is the native format named
// eventsFormat.

// eventsFormat is the native format `play --events` prints after every
// round: JSON Lines, the events of that round (the initial ones at round 0).
const eventsFormat = "events"

// gameFlag is a `play` flag that sets one config field of one game, such as
// --edge for battlecube or --size for battleships. Its flag name is shared by
// every game that registers it; each game maps it to its own field.
type gameFlag struct {
	Game  string // base game, e.g. "battlecube"
	Name  string // flag name without dashes, e.g. "edge"
	Field string // the game config's JSON field, e.g. "edge"
	Usage string
	Int   bool // an integer flag; otherwise a string
}

var gameFlags []gameFlag

// registerGameFlag adds a game-specific `play` flag. It panics if the same
// game registers a name twice or a name is registered as both int and
// string.
func registerGameFlag(f gameFlag) {
	for _, g := range gameFlags {
		if g.Name == f.Name && (g.Game == f.Game || g.Int != f.Int) {
			panic(fmt.Sprintf("botarena: game flag --%s registered twice or with two types", f.Name))
		}
	}
	gameFlags = append(gameFlags, f)
}

// gameFlagValue holds a game flag's value as parsed.
type gameFlagValue struct {
	str     string
	num     int
	changed bool
}

// addGameFlags adds every registered game flag to fs, once per name, and
// returns where their values land.
func addGameFlags(fs *pflag.FlagSet) map[string]*gameFlagValue {
	values := map[string]*gameFlagValue{}
	byName := map[string][]string{}
	for _, f := range gameFlags {
		byName[f.Name] = append(byName[f.Name], f.Game+" "+f.Usage)
	}
	for _, f := range gameFlags {
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
func applyGameFlags(game string, values map[string]*gameFlagValue, set map[string]any) error {
	base := agents.BaseGame(game)
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
		i := slices.IndexFunc(gameFlags, func(f gameFlag) bool { return f.Name == name && f.Game == base })
		if i < 0 {
			var games []string
			for _, f := range gameFlags {
				if f.Name == name {
					games = append(games, f.Game)
				}
			}
			return fmt.Errorf("--%s applies to %s, not %s", name, strings.Join(games, ", "), game)
		}
		if f := gameFlags[i]; f.Int {
			set[f.Field] = v.num
		} else {
			set[f.Field] = v.str
		}
	}
	return nil
}

// replayWriters holds, per base game, the maker of a writer of the
// original's replay layout: made once per match with the match's folder
// (DIR/<seed>) and its agents, the writer is called with the state at the
// start of every round, and a last time with the final state once the env
// is Done; it may keep what it needs between calls. Games without one get
// DIR/<seed>/<round>/<native format files>.
var replayWriters = map[string]func(dir string, seats []env.Agent) func(e env.Env, round int) error{}

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
func winKey(res result, seat int) string {
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

func (s *summary) add(res result) {
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
	case res.Draw || res.Winner == nil:
		s.draws++
	default:
		s.wins[winKey(res, *res.Winner)]++
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
