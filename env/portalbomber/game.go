package portalbomber

import (
	"math"
	"sync"

	"github.com/botarena/botarena/env"
)

// New returns a game for cfg, validated, reset with seed 0. The registry
// name in its Spec is "portalbomber".
func New(cfg *Config) (*Game, error) { return newGame("portalbomber", cfg) }

func newGame(name string, cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{}
	g.setConfig(cfg)
	if g.cfg.SafeMask {
		g.safety = &Raider{} // WriteMask's scratch
	}
	g.spec = newSpec(name, &g.cfg)
	n := g.cfg.Size
	g.layout = layoutOf(n)
	for i := range n * n {
		g.values[i] = uint8(BlockValue(n, i%n, i/n))
	}
	g.Reset(0)
	return g, nil
}

// setConfig sets the game's config, and the copies of its fields that a
// step reads (see Game.maxRounds).
func (g *Game) setConfig(cfg *Config) {
	g.cfg = *cfg
	g.truncAt = math.MaxInt32
	if m := cfg.MaxRounds; m > 0 && m < math.MaxInt32/2 {
		g.truncAt = int32(2 * m)
	}
	g.apocalypseAfter = int32(cfg.ApocalypseAfter) // at most 100000 (Validate)
	g.simultaneous = cfg.Simultaneous
	g.coinsReward, g.dangerReward = cfg.CoinsReward, cfg.DangerReward
}

// Config returns a copy of the game's config.
func (g *Game) Config() Config { return g.cfg }

// Spec returns the game's spec; it is shared and must not be modified.
func (g *Game) Spec() *env.Spec { return g.spec }

// Reset starts a new game: the board from seed (soft blocks drawn from a PCG
// generator seeded with seed, where the original called the unseeded
// Math.random), the players at their start cells, moveNumber 0. It never
// allocates.
func (g *Game) Reset(seed uint64) {
	g.n = g.cfg.Size
	g.rng.Seed(seed, seed^0x6a09e667f3bcc909)
	g.generate()
	g.boardChanged()
	g.marksChanged()
	for s := range Seats {
		g.players[s] = player{
			X: 1, Y: 1, BombCount: StartBombCount, BombRange: StartRange, BombPierce: StartPierce, Alive: true,
		}
	}
	g.portals = [Seats][2]Portal{}
	g.players[1].X, g.players[1].Y = int32(g.n-2), int32(g.n-2)
	g.killedBy = [Seats]uint8{}
	g.moveOrder = [Seats]uint8{0, 1}
	g.moveIterator, g.moveNumber = 0, 0
	g.state, g.winner = stateInProgress, -2
	g.steps = 0
	g.invalid = [Seats]int32{}
	g.fireX, g.fireY, g.fireDir = fireHeads(g.n, 0)
	g.idHash, g.idsLoaded = env.SplitMix64(seed), false // the ids, when asked for (ids)
}

// clearBoard empties every cell of the current size and the bomb, marked
// and fire lists.
func (g *Game) clearBoard() {
	clear(g.cells[:g.n*g.n])
	g.nBombs, g.nMarked, g.nFire, g.nFireSoft, g.seatTrails = 0, 0, 0, 0, 0
	g.seq = 0
}

// generate lays out the original's board (spec §2) on an empty board of
// the configured size: hard blocks on the border and where x and y are
// both even; soft blocks with the configured chance on every other cell
// except the cleared start corners, drawn in the original's order (x outer,
// y inner; one draw per non-hard, non-cleared cell); then the forced soft
// blocks. The bomb, marked and fire lists are emptied.
func (g *Game) generate() {
	n, l := g.n, g.layout
	copy(g.cells[:n*n], l.cells[:n*n])
	g.nBombs, g.nMarked, g.nFire, g.nFireSoft, g.seatTrails = 0, 0, 0, 0, 0
	g.seq = 0
	limit := uint64(g.cfg.SoftDensity) << 53 / 100 // value > limit is "Math.random() > 0.7"
	for _, i := range l.draws {
		if g.rng.Uint64()>>11 <= limit {
			g.cells[i].soft = true
		}
	}
	for _, p := range [4][2]int{{3, 1}, {1, 3}, {n - 2, n - 4}, {n - 4, n - 2}} {
		g.cells[g.idx(p[0], p[1])].soft = true
	}
}

// layout is the part of a new board that depends only on its side: the
// cells with their hard blocks, and the cells that draw a soft block, in
// the order they draw.
type layout struct {
	cells [MaxCells]cell
	draws []uint16
}

var (
	layouts    [MaxSize + 1]*layout
	layoutOnce [MaxSize + 1]sync.Once
)

// layoutOf returns the layout of an n×n board, made on first use and
// shared, read-only, by every game of that size.
func layoutOf(n int) *layout {
	layoutOnce[n].Do(func() {
		l := &layout{}
		for x := range n {
			for y := range n {
				if x == 0 || y == 0 || x == n-1 || y == n-1 || (x%2 == 0 && y%2 == 0) {
					l.cells[y*n+x].hard = true
				}
			}
		}
		for x := range n {
			for y := range n {
				if (x == 1 || y == 1) && x <= 2 && y <= 2 {
					continue
				}
				if (x == n-2 || y == n-2) && x >= n-3 && y >= n-3 {
					continue
				}
				if !l.cells[y*n+x].hard {
					l.draws = append(l.draws, uint16(y*n+x))
				}
			}
		}
		layouts[n] = l
	})
	return layouts[n]
}

// fireHeads returns apocalypse head 1 (cell and direction) after steps
// apocalypse steps on an n×n board (spec §8). Head 2 is its mirror image
// through the centre.
func fireHeads(n, steps int) (x, y, dir int) {
	x, y, dir = 0, n-1, Up
	if steps == 0 {
		return x, y, dir
	}
	var burnt [MaxCells]bool
	for range steps {
		burnt[y*n+x] = true
		burnt[(n-1-y)*n+(n-1-x)] = true
		dir = fireTurn(n, x, y, dir, func(cx, cy int) bool { return burnt[cy*n+cx] })
		x, y = fireAdvance(n, x, y, dir)
	}
	return x, y, dir
}

// fireTurn turns head 1 right while the cell ahead is off the board or
// already burning, at most four times (the original has no guard; on a
// fully burnt board it would spin, where botarena keeps the direction).
func fireTurn(n, x, y, dir int, burning func(x, y int) bool) int {
	for range 4 {
		nx, ny := x+dirDX[dir], y+dirDY[dir]
		if nx >= 0 && ny >= 0 && nx < n && ny < n && !burning(nx, ny) {
			return dir
		}
		dir = (dir + 1) % 4
	}
	return dir
}

// fireAdvance moves head 1 one cell in dir, staying put at the edge.
func fireAdvance(n, x, y, dir int) (int, int) {
	nx, ny := x+dirDX[dir], y+dirDY[dir]
	if nx < 0 || ny < 0 || nx >= n || ny >= n {
		return x, y
	}
	return nx, ny
}

// hexID writes a Mongo-style 24-hex-digit id derived from h.
func hexID(dst *[24]byte, h uint64) {
	const digits = "0123456789abcdef"
	h2 := env.SplitMix64(h)
	for i := range 16 {
		dst[i] = digits[(h>>(4*i))&15]
	}
	for i := 16; i < 24; i++ {
		dst[i] = digits[(h2>>(4*(i-16)))&15]
	}
}

// Done reports whether the game is over.
func (g *Game) Done() bool { return g.state != stateInProgress || g.truncated() }

// truncated reports whether the round cap has ended the game: moveNumber/2
// has reached cfg.MaxRounds, at the start of a round.
func (g *Game) truncated() bool {
	return g.moveNumber >= int(g.truncAt) && g.moveIterator == 0
}

// Steps returns the env steps taken since Reset; after LoadNative, the
// moveNumber (alternating) or the rounds (simultaneous) of the state.
func (g *Game) Steps() int { return int(g.steps) }

// Rounds returns the original's completed rounds: moveNumber / 2.
func (g *Game) Rounds() int { return g.moveNumber / 2 }
