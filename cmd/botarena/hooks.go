package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

// This file holds what `botarena play` asks a game's kit (its registry
// entry's Kit) for: flags that set its config fields ([playFlagger]),
// extra leaderboard fields ([leaderboarder], in play.go) and its replay
// layout (replay.Layout). The event stream (--events) is the native format
// named eventsFormat.

// eventsFormat is the native format `play --events` prints after every
// round: JSON Lines, the events of that round (the initial ones at round 0).
const eventsFormat = "events"

// leaderboarder is implemented by the kit of a game whose leaderboard
// entries carry fields of its own.
type leaderboarder interface {
	// Leaderboard calls field with each field the game adds to seat's
	// entry of the leaderboard of e, after the common ones (rank, seat,
	// agent, name, score, alive), in order: its JSON name and a value
	// encoding/json can write. It adds none for a seat out of range or an
	// env of another game. It reads e and does not modify it.
	Leaderboard(e env.Env, seat int, field func(name string, value any))
}

// extraFields returns the extra leaderboard fields of seat in e, a game of
// the registry name game in env.Default (the registry play uses); nil for
// a game whose kit adds none.
func extraFields(game string, e env.Env, seat int) []match.Field {
	entry, _ := env.Default.Lookup(game)
	l, ok := entry.Kit.(leaderboarder)
	if !ok {
		return nil
	}
	var fields []match.Field
	l.Leaderboard(e, seat, func(name string, value any) { fields = append(fields, match.Field{Name: name, Value: value}) })
	return fields
}

// playFlagger is implemented by the kit of a game with `botarena play`
// flags of its own.
type playFlagger interface {
	// PlayFlags returns the game's flags, each setting one field of its
	// config: by flag name (lower case letters, digits and '-', without
	// the dashes: "max-ticks"), the JSON name of an integer or string
	// field ("max_ticks"). The flag's type is the field's and its help the
	// field's doc. A flag name may be shared by several games with the
	// same type; each maps it to its own field.
	PlayFlags() map[string]string
}

// gameFlag is a game's `play` flag with the base game it belongs to.
type gameFlag struct {
	Name  string // without dashes ("max-ticks")
	Field string // the config field's JSON name
	Usage string // the config field's doc
	Int   bool   // an integer field; else a string field
	Game  string // base game, e.g. "battlecube"
}

// flagNameRE is the form of a flag name.
var flagNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// gameFlags returns the flags of every game of reg, by base game and then
// by name. A malformed flag name, a flag for a field the config lacks or
// that is neither an integer nor a string, and a name that is an integer
// flag in one game and a string flag in another are errors.
func gameFlags(reg *env.Registry) ([]gameFlag, error) {
	var flags []gameFlag
	seen := map[string]bool{} // base games
	for _, name := range reg.Names() {
		base := env.BaseGame(name)
		entry, _ := reg.Lookup(name)
		p, ok := entry.Kit.(playFlagger)
		if seen[base] || !ok {
			continue
		}
		seen[base] = true
		fields, err := env.ConfigSchema(entry.NewConfig())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		byFlag := p.PlayFlags()
		for _, flag := range slices.Sorted(maps.Keys(byFlag)) {
			j := slices.IndexFunc(fields, func(c env.ConfigField) bool { return c.Name == byFlag[flag] })
			if !flagNameRE.MatchString(flag) || j < 0 || (fields[j].Type != "integer" && fields[j].Type != "string") {
				return nil, fmt.Errorf("%s: flag --%s: want a name of lower case letters, digits and '-' for an integer or string field of the config, got field %q", base, flag, byFlag[flag])
			}
			f := gameFlag{Name: flag, Field: fields[j].Name, Usage: fields[j].Doc, Int: fields[j].Type == "integer", Game: base}
			if i := slices.IndexFunc(flags, func(g gameFlag) bool { return g.Name == f.Name && g.Int != f.Int }); i >= 0 {
				kind := map[bool]string{false: "a string", true: "an integer"}
				return nil, fmt.Errorf("%s: flag --%s: %s field, but %s field in %s", base, f.Name, kind[f.Int], kind[flags[i].Int], flags[i].Game)
			}
			flags = append(flags, f)
		}
	}
	return flags, nil
}

// gameFlagValue holds a game flag's value as parsed.
type gameFlagValue struct {
	str     string
	num     int
	changed bool
}

// addGameFlags adds every game flag of reg to fs, once per name, and
// returns where their values land. It panics if a game's flags are wrong
// (see gameFlags), a programming error of the game that the tests catch.
func addGameFlags(fs *pflag.FlagSet, reg *env.Registry) map[string]*gameFlagValue {
	flags, err := gameFlags(reg)
	if err != nil {
		panic("botarena: " + err.Error())
	}
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
	flags, err := gameFlags(reg)
	if err != nil {
		return err
	}
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
