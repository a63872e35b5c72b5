package bomberman

import (
	"github.com/botarena/botarena/env"
)

// New returns a game for cfg, validated, with the map of seed 0; call Reset
// to start another. The registry name in its Spec is "bomberman".
func New(cfg *Config) (*Game, error) { return newGame("bomberman", cfg) }

func newGame(name string, cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: *cfg, nPlayers: cfg.Players}
	g.cfg.Names = append([]string(nil), cfg.Names...)
	g.cfg.ConsoleSeats = append([]int(nil), cfg.ConsoleSeats...)
	if g.cfg.PowerUps == "" {
		g.cfg.PowerUps = PowerUpsAuto
	}
	for seat := range g.nPlayers {
		g.names[seat] = g.cfg.name(seat)
	}
	if g.cfg.SafeMask {
		g.safety = NewHunter() // WriteMask's scratch
	}
	g.spec = newSpec(name, &g.cfg)
	g.allocObs(g.sharedPlaneCount() * g.cfg.Side() * g.cfg.Side())
	g.Reset(0)
	return g, nil
}

// Config returns a copy of the game's config.
func (g *Game) Config() Config { return g.cfg }

// Spec returns the game's spec; it is shared and must not be modified.
func (g *Game) Spec() *env.Spec { return g.spec }

// MapSeedFor returns the game seed (MapSeed) an env seed maps to: the seed
// modulo 2^31, so that seeds below 2^31 are the original's seeds as they are.
func MapSeedFor(seed uint64) int32 { return int32(seed % (1 << 31)) }

// Reset starts a new game: the map of game seed [MapSeedFor](seed), round 0.
// The collision rolls the original drew from the clock are drawn from a
// generator seeded with seed.
func (g *Game) Reset(seed uint64) {
	g.beginDelta(true)
	g.round = 0
	g.done = false
	g.truncatedEnd = false
	g.blasts = true // the map is new: clear any marks at the first round
	// The new map has no blast and no destroy mark (generateMap clears
	// the cells and the marks it uses), so the empty lists are exact.
	g.blastsListed = true
	g.scratch.nBlast, g.scratch.nMarked = 0, 0
	g.noBounty = false
	g.mapSeed = MapSeedFor(seed)
	g.rng.Seed(seed, seed^0x9e3779b97f4a7c15)
	clear(g.invalid[:])
	clear(g.players[:g.nPlayers]) // the seats past nPlayers stay zero
	clear(g.killedBy[:])
	g.generateMap(g.mapSeed)
	g.setMaxRound()
	g.remapped()
}

// setMaxRound derives the last round to process from the map size and
// MaxRounds.
func (g *Game) setMaxRound() {
	g.maxRound = g.width * g.height // rounds 0..W·H, as coded
	if g.cfg.MaxRounds > 0 && g.cfg.MaxRounds-1 < g.maxRound {
		g.maxRound = g.cfg.MaxRounds - 1
	}
}

// Done reports whether the game is over: fewer than two players alive, or
// the round cap reached.
func (g *Game) Done() bool { return g.done }

// Steps returns the number of rounds processed: CurrentRound.
func (g *Game) Steps() int { return g.round }
