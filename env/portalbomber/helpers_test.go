package portalbomber

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// bare returns a game on the spec's scenario board: no random soft blocks,
// only the forced ones at (3,1), (1,3), (9,7) and (7,9). Each of set that
// is not nil changes the config first.
func bare(t testing.TB, set ...func(*Config)) *Game {
	t.Helper()
	cfg := DefaultConfig()
	cfg.SoftDensity = 0
	for _, f := range set {
		if f != nil {
			f(cfg)
		}
	}
	return testutil.MustNew(t, New, cfg)
}

// mover plays scripted moves per seat in the engine's turn order, padding
// with waits. rewards holds the last step's rewards.
type mover struct {
	t       testing.TB
	g       *Game
	scripts [Seats][]Action
	rewards [Seats]float32
}

// step plays one move of the seat to move.
func (m *mover) step() {
	m.t.Helper()
	seat := m.g.ToMove()
	a := Wait
	if len(m.scripts[seat]) > 0 {
		a = m.scripts[seat][0]
		m.scripts[seat] = m.scripts[seat][1:]
	}
	var acts [Seats]int32
	acts[seat] = int32(a)
	var te, tr [Seats]bool
	m.g.Step(acts[:], m.rewards[:], te[:], tr[:])
}

// rounds plays until k more rounds have ended (or the game is over).
func (m *mover) rounds(k int) {
	m.t.Helper()
	m.roundsEach(k, func() {})
}

// roundsEach plays as rounds does, calling after after every step.
func (m *mover) roundsEach(k int, after func()) {
	m.t.Helper()
	target := m.g.Rounds() + k
	for m.g.Rounds() < target && !m.g.Done() {
		m.step()
		after()
	}
}

func play(t testing.TB, g *Game, p0, p1 []Action) *mover {
	return &mover{t: t, g: g, scripts: [Seats][]Action{p0, p1}}
}

func (g *Game) placeAt(seat, x, y int) {
	g.players[seat].X, g.players[seat].Y = int32(x), int32(y)
}

// shootFrom moves seat's player to (x, y), facing, and shoots its portal
// of colour from there: it stays there, facing that way.
func (g *Game) shootFrom(seat, x, y, facing, colour int) {
	g.placeAt(seat, x, y)
	g.players[seat].Orientation = int32(facing)
	g.shootPortal(seat, colour)
}

func trailOwners(g *Game, x, y int) (owners []int) {
	for _, o := range []int{0, 1, FireOwner} {
		if g.TrailOf(x, y, o).Type != NoTrail {
			owners = append(owners, o)
		}
	}
	return owners
}
