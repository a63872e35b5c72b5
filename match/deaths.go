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
	// DeathCauses names the causes, the survivor's ("alive") first. It
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
