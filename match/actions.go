package match

import (
	"encoding/json"
	"fmt"

	"github.com/botarena/botarena/env"
)

// ActionKinder is implemented by the envs of games that sort their actions
// into kinds for behaviour figures (moves, bombs, shots, mines, ...), so
// that a bot that never bombs or never moves shows in its results. Each
// game declares its kinds in its own package (env/<game>/actionkinds.go).
// [Match.Run] counts every seat's actions by kind into
// [Standing.Actions]; a league's pools count them with a [Counter].
type ActionKinder interface {
	// ActionKinds names the kinds, the do-nothing kind (that of action 0)
	// first. It returns the same slice every time; callers must not
	// modify it.
	ActionKinds() []string
	// ActionKind returns the kind of action, an index into ActionKinds,
	// for any action, in range or not (those out of range are the kind
	// the game treats them as), whether or not the rules let it take
	// effect in the current state: it classifies the command, not its
	// outcome. It must not allocate.
	ActionKind(action int32) int
}

// Actions are numbers by action kind, in the game's order of kinds
// ([ActionKinder]): one seat's actions of one game, or their mean over
// games. Its JSON form is an object from kind to number, in that order:
// {"nothing":3,"move":40,"bomb":2,"trigger":0}. The zero value is none.
type Actions struct {
	Kinds []string
	N     []float64
}

// IsZero reports whether a has no kinds.
func (a Actions) IsZero() bool { return len(a.Kinds) == 0 }

// Get returns the number of kind, 0 for a kind a does not have.
func (a Actions) Get(kind string) float64 {
	for i, k := range a.Kinds {
		if k == kind {
			return a.N[i]
		}
	}
	return 0
}

// Add returns a plus b kind by kind: the kinds of a (of b when a is
// zero), with b's number of each added.
func (a Actions) Add(b Actions) Actions {
	if a.IsZero() {
		return Actions{Kinds: b.Kinds, N: append([]float64(nil), b.N...)}
	}
	out := Actions{Kinds: a.Kinds, N: append([]float64(nil), a.N...)}
	for i, k := range out.Kinds {
		out.N[i] += b.Get(k)
	}
	return out
}

// Scale returns a with every number multiplied by f (1/games for a mean).
func (a Actions) Scale(f float64) Actions {
	out := Actions{Kinds: a.Kinds, N: make([]float64, len(a.N))}
	for i, n := range a.N {
		out.N[i] = n * f
	}
	return out
}

// String returns the kinds and numbers as "nothing 3, move 40, bomb 2.5",
// numbers with at most one decimal; "" for none.
func (a Actions) String() string {
	var b []byte
	for i, k := range a.Kinds {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%s %s", k, trimFloat(a.N[i]))
	}
	return string(b)
}

// trimFloat formats v with one decimal, without a trailing ".0".
func trimFloat(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// MarshalJSON writes the object from kind to number, in order.
func (a Actions) MarshalJSON() ([]byte, error) {
	fields := make([]Field, len(a.Kinds))
	for i, k := range a.Kinds {
		fields[i] = Field{Name: k, Value: a.N[i]}
	}
	return appendObject(nil, fields)
}

// UnmarshalJSON reads the object from kind to number, keeping its order.
func (a *Actions) UnmarshalJSON(data []byte) error {
	*a = Actions{}
	return readObject(data, func(key string, raw json.RawMessage) error {
		var n float64
		if err := json.Unmarshal(raw, &n); err != nil {
			return fmt.Errorf("actions: %s: %w", key, err)
		}
		a.Kinds, a.N = append(a.Kinds, key), append(a.N, n)
		return nil
	})
}

// Counter counts the actions of every seat of one game by kind. Count
// allocates nothing. A Counter is not safe for concurrent use.
type Counter struct {
	kinder ActionKinder
	kinds  []string
	n      []float64 // seat*len(kinds) + kind
}

// NewCounter returns a counter of the actions of games of e, or nil when
// e's game does not sort its actions into kinds (not an [ActionKinder]).
// A nil *Counter counts nothing.
func NewCounter(e env.Env) *Counter {
	k, ok := e.(ActionKinder)
	if !ok {
		return nil
	}
	kinds := k.ActionKinds()
	return &Counter{kinder: k, kinds: kinds, n: make([]float64, e.Spec().Seats*len(kinds))}
}

// Reset sets every count to 0, for a new game.
func (c *Counter) Reset() {
	if c != nil {
		clear(c.n)
	}
}

// Count counts one round: actions holds every seat's action. It panics if
// the game gives an action a kind out of range (a bug of the game's
// ActionKind).
func (c *Counter) Count(actions []int32) {
	if c == nil {
		return
	}
	k := len(c.kinds)
	for seat, a := range actions {
		kind := c.kinder.ActionKind(a)
		if kind < 0 || kind >= k {
			panic(fmt.Sprintf("match: action %d has kind %d; the game has %d kinds", a, kind, k))
		}
		c.n[seat*k+kind]++
	}
}

// Seat returns seat's counts so far, a copy; zero for a nil Counter.
func (c *Counter) Seat(seat int) Actions {
	if c == nil {
		return Actions{}
	}
	k := len(c.kinds)
	return Actions{Kinds: c.kinds, N: append([]float64(nil), c.n[seat*k:(seat+1)*k]...)}
}

// Fill sets the Actions of every standing of r from the counts.
func (c *Counter) Fill(r *Result) {
	if c == nil {
		return
	}
	for i := range r.Leaderboard {
		if s := r.Leaderboard[i].Seat; s >= 0 && (s+1)*len(c.kinds) <= len(c.n) {
			r.Leaderboard[i].Actions = c.Seat(s)
		}
	}
}
