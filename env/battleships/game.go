package battleships

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// New returns a game for cfg, validated, reset with seed 0. Its registry
// name is "battleships".
func New(cfg *Config) (*Game, error) { return newGame("battleships", cfg) }

func newGame(name string, cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: *cfg}
	if g.cfg.Size == "" {
		g.cfg.Size = SizeMedium
	}
	if g.cfg.Placement == "" {
		g.cfg.Placement = PlacementRandom
	}
	g.cfg.Names = append([]string(nil), cfg.Names...)
	g.n = g.cfg.MapSize()
	g.names = [Seats]string{g.cfg.name(0), g.cfg.name(1)}
	g.learn = g.cfg.Placement == PlacementLearn
	g.planes = NumPlanes
	if g.cfg.DensityPlane {
		g.planes++
	}
	g.spec = newSpec(name, &g.cfg)
	g.r = rand.New(&g.rng)
	g.Reset(0)
	return g, nil
}

// Spec returns the game's spec; it is shared and must not be modified.
func (g *Game) Spec() *env.Spec { return g.spec }

// Reset starts a new game from seed: round 0, phase 1, both fleets
// unplaced, starting energy one round's grant. With a built-in placer
// (Config.Placement "random" or "reference") phase 1 is played at once
// with fleets drawn from the env's generator, seeded with seed, so the
// game is then at phase 2, round 1. Reset does not allocate.
func (g *Game) Reset(seed uint64) {
	g.stateChanged()
	g.rng.Seed(seed, seed^0x9e3779b97f4a7c15)
	g.round, g.phase, g.steps = 0, 1, 0
	g.done, g.truncEnd, g.roundOpen, g.legacy = false, false, false, false
	g.maxRound = g.n*g.n + 5
	if g.cfg.MaxRounds > 0 && g.cfg.MaxRounds-1 < g.maxRound {
		g.maxRound = g.cfg.MaxRounds - 1
	}
	clear(g.invalid[:])
	g.seen = [Seats]tracker{}
	g.densOK = [Seats]bool{}
	g.moves = [Seats]moveRecord{}
	for s := range Seats {
		p := &g.players[s]
		cells := &p.cells
		*p = Player{Name: p.Name, FirstShotLanded: -1}
		clear(cells[:])
		p.Name = g.names[s]
		p.Energy = energyPerRound(g.n)
		g.pend[s] = pending{}
	}
	if !g.learn {
		g.placerRound()
	}
}

// Done reports whether the game is over.
func (g *Game) Done() bool { return g.done }

// Steps returns the steps taken since Reset (in learn mode a phase-1 round
// takes up to five steps), or the round counter after LoadNative.
func (g *Game) Steps() int { return g.steps }
