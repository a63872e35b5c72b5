package match

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/botarena/botarena/env"
)

// Result is the outcome of a match: the one result type of botarena.
// [Match.Run] returns it; `botarena play --json` prints it, a recording's
// last line holds it ({"result": R}), the viewer shows it and the league
// keeps the standings of its games from it. docs/recording-format.md
// describes its JSON form, which is that of play --json:
//
//	{"game","seed","rounds","winner","draw","leaderboard":[...],"forfeit":{...},"faults":[...],"fingerprint"}
//
// with "forfeit", "faults" and "fingerprint" absent when there are none.
type Result struct {
	// Game is the env's registry name (env.Spec.Game) and Seed the
	// match's seed.
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
	// Rounds is the number of rounds (steps) played: the game's length.
	Rounds int `json:"rounds"`
	// Winner is the winning seat, or -1 (JSON null) when the game has no
	// winner.
	Winner Seat `json:"winner"`
	// Draw reports that the top of the standings is tied on every
	// ranking key (env.Result.Draw).
	Draw bool `json:"draw"`
	// Leaderboard lists every seat, best first, with the failure policy
	// applied: a forfeiting seat is last.
	Leaderboard []Standing `json:"leaderboard"`
	// Forfeit is the seat whose agent forfeited (it panicked; see the
	// failure policy in the package documentation), or nil.
	Forfeit *Forfeit `json:"forfeit,omitempty"`
	// Faults holds, for each seat whose agent counts its faults
	// ([FaultCounter]: external bots), the rounds it faulted in and took
	// the original's penalty, by kind, in seat order; nil when no agent of
	// the match counts faults.
	Faults []SeatFaults `json:"faults,omitempty"`
	// Fingerprint is [Fingerprint] of the final state when the match
	// asked for it ([Match.Fingerprint]), else 0 (absent in JSON, where it
	// is a decimal string: it does not fit a JSON number's 53 bits).
	Fingerprint uint64 `json:"fingerprint,omitempty,string"`
}

// Seat is a seat index, or -1 for none. Its JSON form is the index, or
// null for none.
type Seat int

// MarshalJSON writes the seat, or null for none.
func (s Seat) MarshalJSON() ([]byte, error) {
	if s < 0 {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(s), 10), nil
}

// UnmarshalJSON reads a seat, null (or a negative number) being none.
func (s *Seat) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*s = -1
		return nil
	}
	var v int
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("seat: %w", err)
	}
	*s = Seat(max(v, -1))
	return nil
}

// Standing is one seat's entry of a [Result]'s leaderboard. Its JSON form
// is {"rank","seat","agent","name","score","alive"}, then "death" where the
// game says how its players ended, then the game's own fields (Extra),
// then "actions" where the game counts them.
type Standing struct {
	Rank int `json:"rank"` // 1 for the first entry; tied entries still get distinct ranks
	Seat int `json:"seat"`
	// Agent is the seat's agent as the match named it ([Match.Names]:
	// the agent spec or league name), "" when unnamed.
	Agent string  `json:"agent"`
	Name  string  `json:"name"`  // the player's name in the game
	Score float64 `json:"score"` // the game's own points
	Alive bool    `json:"alive"`
	// Death says how the seat's player ended, in the game's words
	// ([DeathCauser]): "alive" for a survivor, else what killed it
	// (Bomberman: "own bomb", "opponent's bomb", ...); "" (absent in JSON)
	// for a game that does not say.
	Death string `json:"-"`
	// Extra holds the game's own leaderboard fields (its kit's, asked by
	// `botarena play`), in order; play fills them. Read back from JSON, they hold
	// the fields this type does not know, their values as json.RawMessage.
	Extra []Field `json:"-"`
	// Actions counts the seat's actions by kind, where the game sorts its
	// actions into kinds ([ActionKinder]); zero (absent in JSON) for a
	// game that does not.
	Actions Actions `json:"-"`
}

// TiedTop returns how many entries of lb, a leaderboard best first, share
// the first's score and alive flag. These are the top the failure policy
// declares drawn (when more than one of the seats left is in it) and the
// seats the league's ratings count as drawn in a result that is a draw
// ([Result.Draw]). It returns 0 for an empty lb.
func TiedTop(lb []Standing) int {
	n := 0
	for _, s := range lb {
		if s.Score == lb[0].Score && s.Alive == lb[0].Alive {
			n++
		}
	}
	return n
}

// Field is one field of a JSON object this package writes in order: a
// leaderboard entry's extra field, or an action count.
type Field struct {
	Name  string
	Value any // a value encoding/json can write
}

// ownFields are the standing's own fields in their JSON order, the death
// cause and the actions last, each Value pointing into s: what
// MarshalJSON writes and UnmarshalJSON reads into.
func (s *Standing) ownFields() [8]Field {
	return [8]Field{{"rank", &s.Rank}, {"seat", &s.Seat}, {"agent", &s.Agent}, {"name", &s.Name},
		{"score", &s.Score}, {"alive", &s.Alive}, {"death", &s.Death}, {"actions", &s.Actions}}
}

// MarshalJSON writes the standing's fields in order: the common ones, the
// death cause when there is one, the game's extra fields, and the actions
// last when there are some.
func (s Standing) MarshalJSON() ([]byte, error) {
	own := s.ownFields()
	n := len(own)
	fields := append(make([]Field, 0, n+len(s.Extra)), own[:n-2]...)
	if s.Death != "" {
		fields = append(fields, own[n-2])
	}
	fields = append(fields, s.Extra...)
	if !s.Actions.IsZero() {
		fields = append(fields, own[n-1])
	}
	return appendObject(nil, fields)
}

// UnmarshalJSON reads a standing, keeping the fields it does not know in
// Extra, in order.
func (s *Standing) UnmarshalJSON(data []byte) error {
	*s = Standing{}
	own := s.ownFields()
	return readObject(data, func(key string, raw json.RawMessage) error {
		i := slices.IndexFunc(own[:], func(f Field) bool { return f.Name == key })
		if i < 0 {
			s.Extra = append(s.Extra, Field{Name: key, Value: raw})
			return nil
		}
		if err := json.Unmarshal(raw, own[i].Value); err != nil {
			return fmt.Errorf("standing: %s: %w", key, err)
		}
		return nil
	})
}

// Forfeit is the seat that forfeited a match, and why.
type Forfeit struct {
	Seat  int    `json:"seat"`
	Agent string `json:"agent,omitempty"` // as Standing.Agent
	// Round is the number of rounds played when the seat forfeited.
	Round int `json:"round"`
	// Reason is Err's text without the "forfeit: " prefix.
	Reason string `json:"reason"`
	// Err is the forfeit's error, wrapping [ErrForfeit]; nil in a result
	// read back from JSON.
	Err error `json:"-"`
}

// SeatFaults is the fault count of one seat's external bot:
// {"seat","agent","timed_out","crashed","invalid"}.
type SeatFaults struct {
	Seat  int    `json:"seat"`
	Agent string `json:"agent,omitempty"` // as Standing.Agent
	Faults
}

// ForfeitSeat returns the seat that forfeited, or -1 when none did.
func (r *Result) ForfeitSeat() int {
	if r.Forfeit == nil {
		return -1
	}
	return r.Forfeit.Seat
}

// SeatFaultsOf returns the faults of seat's agent, zero when it does not
// count faults.
func (r *Result) SeatFaultsOf(seat int) Faults {
	for _, f := range r.Faults {
		if f.Seat == seat {
			return f.Faults
		}
	}
	return Faults{}
}

// Env returns the result as env.Result (rounds, winner, draw and each
// standing's seat, rank, name, score and alive flag): what the env's own
// Result would say with the failure policy applied.
func (r *Result) Env() env.Result {
	out := env.Result{Rounds: r.Rounds, Winner: int(r.Winner), Draw: r.Draw, Standings: make([]env.Standing, len(r.Leaderboard))}
	for i, s := range r.Leaderboard {
		out.Standings[i] = env.Standing{Seat: s.Seat, Rank: s.Rank, Name: s.Name, Score: s.Score, Alive: s.Alive}
	}
	return out
}

// ResultOf returns the result of the game in e as it stands (env.Result,
// without a forfeit or faults), of seed, its seats' agents named by names
// (none when short), with the actions c counted (none for a nil c) and
// each seat's death cause where the game says it ([DeathCauser]): what
// [Match.Run] returns for a game played elsewhere, such as on a vecenv
// pool.
func ResultOf(e env.Env, seed uint64, names []string, c *Counter) Result {
	r := newResult(e.Spec(), seed, e.Result(), names)
	c.Fill(&r)
	fillDeaths(e, &r)
	return r
}

// newResult returns the result of the game of spec's env, judged er with
// the failure policy applied, its seats' agents named by names (none when
// short).
func newResult(spec *env.Spec, seed uint64, er env.Result, names []string) Result {
	r := Result{Game: spec.Game, Seed: seed, Rounds: er.Rounds, Winner: Seat(max(er.Winner, -1)), Draw: er.Draw,
		Leaderboard: make([]Standing, len(er.Standings))}
	for i, s := range er.Standings {
		r.Leaderboard[i] = Standing{Rank: s.Rank, Seat: s.Seat, Agent: nameOf(names, s.Seat), Name: s.Name, Score: s.Score, Alive: s.Alive}
	}
	return r
}

// nameOf returns names[seat], or "" when there is none.
func nameOf(names []string, seat int) string {
	if seat >= 0 && seat < len(names) {
		return names[seat]
	}
	return ""
}

// appendObject appends the JSON object of fields, in order, to b.
func appendObject(b []byte, fields []Field) ([]byte, error) {
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// readObject calls field with every key and value of the JSON object in
// data, in order.
func readObject(data []byte, field func(key string, raw json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("want a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := field(t.(string), raw); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}
