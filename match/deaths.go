package match

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// DeathCauser is implemented by the envs of games that know how each
// player ended: alive, or killed by what (Bomberman: its own bomb, an
// opponent's, both). Wins by the opponent's own mistake are then visible:
// a bot whose wins are mostly its opponent blowing itself up has not
// found a strategy. Each game declares its causes in its own package
// (env/<game>/deaths.go). [Match.Run] and [ResultOf] put each seat's
// cause in [Standing.Death] at the end of the game.
type DeathCauser interface {
	// DeathCauses names the causes, the survivor's, "alive", first. It
	// returns the same slice every time; callers must not modify it.
	DeathCauses() []string
	// DeathCause returns how seat's player stands now, an index into
	// DeathCauses: 0 while it is alive. It must not allocate.
	DeathCause(seat int) int
}

// fillDeaths sets the Death of every standing of r from e, when e's game
// says how its players ended ([DeathCauser]); otherwise it leaves them
// empty. It panics if the game gives a cause out of range (a bug of the
// game's DeathCause).
func fillDeaths(e env.Env, r *Result) {
	d, ok := e.(DeathCauser)
	if !ok {
		return
	}
	causes, seats := d.DeathCauses(), e.Spec().Seats
	for i := range r.Leaderboard {
		s := r.Leaderboard[i].Seat
		if s < 0 || s >= seats {
			continue
		}
		c := d.DeathCause(s)
		if c < 0 || c >= len(causes) {
			panic(fmt.Sprintf("match: %s gives seat %d death cause %d; the game has %d causes", e.Spec().Game, s, c, len(causes)))
		}
		r.Leaderboard[i].Death = causes[c]
	}
}

// Deaths counts seats by how their players died ([Standing.Death]), cause
// by cause in the game's order: the deaths of one agent over a
// tournament's games, say. "alive" and "" (a game that does not say) are
// not deaths and are not counted. Its JSON form is an object from cause to
// count, in order: {"own bomb":3,"opponent's bomb":1}. The zero value is
// none.
type Deaths struct {
	Causes []string
	N      []int
}

// NewDeaths returns no deaths of each cause of causes (a game's
// [DeathCauser.DeathCauses]), "alive" left out, so that a count of 0
// shows too.
func NewDeaths(causes []string) Deaths {
	var d Deaths
	for _, c := range causes {
		if c != "" && c != "alive" {
			d.Causes, d.N = append(d.Causes, c), append(d.N, 0)
		}
	}
	return d
}

// IsZero reports whether d has no causes.
func (d Deaths) IsZero() bool { return len(d.Causes) == 0 }

// Add counts one death by cause, a cause d does not have going last; it
// counts nothing for "alive" or "".
func (d *Deaths) Add(cause string) {
	if cause == "" || cause == "alive" {
		return
	}
	for i, c := range d.Causes {
		if c == cause {
			d.N[i]++
			return
		}
	}
	d.Causes, d.N = append(d.Causes, cause), append(d.N, 1)
}

// Get returns the number of deaths by cause.
func (d Deaths) Get(cause string) int {
	for i, c := range d.Causes {
		if c == cause {
			return d.N[i]
		}
	}
	return 0
}

// Total returns the number of deaths.
func (d Deaths) Total() int {
	n := 0
	for _, k := range d.N {
		n += k
	}
	return n
}

// String returns the causes with deaths and their numbers, as "own bomb
// 14, opponent's bomb 3"; "none" when no seat died.
func (d Deaths) String() string {
	var b []byte
	for i, c := range d.Causes {
		if d.N[i] == 0 {
			continue
		}
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%s %d", c, d.N[i])
	}
	if len(b) == 0 {
		return "none"
	}
	return string(b)
}

// MarshalJSON writes the object from cause to count, in order.
func (d Deaths) MarshalJSON() ([]byte, error) {
	a := Actions{Kinds: d.Causes, N: make([]float64, len(d.N))}
	for i, n := range d.N {
		a.N[i] = float64(n)
	}
	return a.MarshalJSON()
}

// UnmarshalJSON reads the object from cause to count, keeping its order.
func (d *Deaths) UnmarshalJSON(data []byte) error {
	var a Actions
	if err := a.UnmarshalJSON(data); err != nil {
		return fmt.Errorf("deaths: %w", err)
	}
	*d = Deaths{Causes: a.Kinds, N: make([]int, len(a.N))}
	for i, n := range a.N {
		if n != float64(int(n)) || n < 0 {
			return fmt.Errorf("deaths: %s: want a count, got %v", a.Kinds[i], n)
		}
		d.N[i] = int(n)
	}
	return nil
}
