package battleships

import (
	"fmt"
	"sync"

	"github.com/botarena/botarena/env"
)

// grid is the side of the centre grid of the command actions: N + 2·Margin.
func grid(n int) int { return n + 2*Margin }

// NumActions returns the size of the action space on an n×n map:
// 1 + 8·G² command actions (G = n + 2·Margin) + 4·n² placement actions.
func NumActions(n int) int { g := grid(n); return 1 + 8*g*g + 4*n*n }

// CommandAction returns the action of command code (1–8) centred on (x, y);
// coordinates beyond Margin cells off the map are clamped to Margin cells
// off, which changes nothing the engine does. Code 0 (or any other) gives 0.
func CommandAction(n, code, x, y int) int32 {
	if code < CodeSingle || code > CodeShield {
		return 0
	}
	g := grid(n)
	x, y = clampCentre(x, n), clampCentre(y, n)
	return int32(1 + (code-1)*g*g + (x+Margin)*g + y + Margin)
}

func clampCentre(v, n int) int { return min(max(v, -Margin), n-1+Margin) }

// PlaceAction returns the action placing the seat's next ship at (x, y)
// facing d; (x, y) must be on the map.
func PlaceAction(n, x, y int, d Direction) int32 {
	g := grid(n)
	return int32(1 + 8*g*g + (x*n+y)*4 + int(d))
}

// failPlacement is an always-illegal placement (South from (0,0) leaves the
// map for every ship): what ParseCommand returns for a place.txt the
// engine would reject at execution.
func failPlacement(n int) int32 { return PlaceAction(n, 0, 0, South) }

// decoded is an action split into its parts.
type decoded struct {
	kind uint8 // actNothing, actCommand, actPlace, actBad
	code int
	x, y int
	dir  Direction
}

const (
	actNothing = iota
	actCommand
	actPlace
	actBad // out of range
)

// decode splits action a of an n×n game.
func decode(n int, a int32) decoded {
	g := grid(n)
	switch {
	case a == 0:
		return decoded{kind: actNothing}
	case a < 0 || int(a) >= NumActions(n):
		return decoded{kind: actBad}
	case int(a) <= 8*g*g && n < len(gridRecips):
		// The divisions by G² and G as multiplications by their
		// reciprocals (gridRecips): exact, and a step decodes an action
		// per seat.
		i, gg, r := uint64(a)-1, uint64(g*g), &gridRecips[n]
		c := i * r[1] >> 32
		i -= c * gg
		x := i * r[0] >> 32
		return decoded{kind: actCommand, code: int(c) + 1, x: int(x) - Margin, y: int(i-x*uint64(g)) - Margin}
	case int(a) <= 8*g*g:
		i, gg := uint32(a)-1, uint32(g*g)
		c := i / gg
		i -= c * gg
		return decoded{kind: actCommand, code: int(c) + 1, x: int(i/uint32(g)) - Margin, y: int(i%uint32(g)) - Margin}
	}
	i := int(a) - 1 - 8*g*g
	return decoded{kind: actPlace, x: i / 4 / n, y: i / 4 % n, dir: Direction(i % 4)}
}

// gridRecips holds, per map side n (up to MaxSize), ⌈2³²/G⌉ and ⌈2³²/G²⌉
// (G = grid(n)). For i < 2³²/d and m = ⌈2³²/d⌉, i·m>>32 is ⌊i/d⌋: m·d =
// 2³² + e with e < d, so i·m/2³² = i/d + i·e/(d·2³²) and i·e < 2³²
// keeps it below the next integer. Every command action has i < 8·G²,
// so i·G² < 8·G⁴ < 2³² (G ≤ 20) (TestGridRecips checks them all).
var gridRecips = func() (t [MaxSize + 1][2]uint64) {
	for n := range t {
		g := uint64(grid(n))
		t[n] = [2]uint64{(1<<32 + g - 1) / g, (1<<32 + g*g - 1) / (g * g)}
	}
	return t
}()

var (
	specMu    sync.Mutex
	specCache = map[[2]any]*env.Spec{}
)

// RewardDefinition states the reward.
const RewardDefinition = "terminal +1 for the winner, −1 for the loser by the original's leaderboard " +
	"(alive, points, first landed hit, failed placements), 0 to both on a complete tie (the original would name A); " +
	"plus points_reward × Δpoints per step when configured"

func newSpec(name string, cfg *Config) *env.Spec {
	n := cfg.MapSize()
	key := [2]any{name, *cfgKey(cfg)}
	specMu.Lock()
	defer specMu.Unlock()
	if s, ok := specCache[key]; ok {
		return s
	}
	names := make([]string, NumActions(n))
	names[0] = "nothing"
	for c := CodeSingle; c <= CodeShield; c++ {
		for x := -Margin; x < n+Margin; x++ {
			for y := -Margin; y < n+Margin; y++ {
				names[CommandAction(n, c, x, y)] = fmt.Sprintf("%d,%d,%d", c, x, y)
			}
		}
	}
	for x := range n {
		for y := range n {
			for d := range Direction(4) {
				names[PlaceAction(n, x, y, d)] = fmt.Sprintf("place %d %d %s", x, y, d)
			}
		}
	}
	s := &env.Spec{
		Game:  name,
		Seats: Seats,
		Obs: []env.Tensor{
			{Name: "planes", DType: env.Uint8, Shape: []int{numPlanes(cfg), n, n}, Layout: "[C,H,W]: index = c*N*N + y*N + x (y = 0 first)"},
			{Name: "scalars", DType: env.Float32, Shape: []int{NumScalars}, Layout: "[K]: see the package documentation"},
		},
		Actions:     NumActions(n),
		ActionNames: names,
		MaxSteps:    maxSteps(cfg),
		Reward:      RewardDefinition,
		Factors:     factors(n),
	}
	specCache[key] = s
	return s
}

// commandNames are the commands of the factored action space (see
// factors): do nothing, the eight command.txt codes, and placing the next
// ship facing North, East, South or West.
var commandNames = []string{"nothing", "single", "double vertical", "double horizontal", "corner", "diagonal cross", "cross", "seeker", "shield",
	"place North", "place East", "place South", "place West"}

// factors splits the actions of an n×n game into 13 commands and the G×G
// centre cells (G = n + 2·Margin, cell (x+Margin)·G + y+Margin, the order of
// CommandAction's centres): do nothing (command 0, cell 0), code 1–8 at its
// centre (command = code), and placement facing d at its cell (command 9 +
// d), so that a placement and a shot at the same (x, y) share a cell.
func factors(n int) *env.ActionFactors {
	g := grid(n)
	f := &env.ActionFactors{Commands: commandNames, Cells: g * g, Command: make([]int32, NumActions(n)), Cell: make([]int32, NumActions(n))}
	for a := range NumActions(n) {
		d := decode(n, int32(a))
		switch d.kind {
		case actCommand:
			f.Command[a] = int32(d.code)
			f.Cell[a] = int32((d.x+Margin)*g + d.y + Margin)
		case actPlace:
			f.Command[a] = int32(NumCodes + int(d.dir))
			f.Cell[a] = int32((d.x+Margin)*g + d.y + Margin)
		}
	}
	return f
}

// cfgKey is the part of the config the spec depends on.
func cfgKey(cfg *Config) *struct {
	n         int
	learn     bool
	maxRounds int
	density   bool
} {
	return &struct {
		n         int
		learn     bool
		maxRounds int
		density   bool
	}{cfg.MapSize(), cfg.Placement == PlacementLearn, cfg.MaxRounds, cfg.DensityPlane}
}

// numPlanes is the number of observation planes of a game with cfg:
// NumPlanes, and PlaneOppDensity with Config.DensityPlane.
func numPlanes(cfg *Config) int {
	if cfg.DensityPlane {
		return NumPlanes + 1
	}
	return NumPlanes
}

// maxPhase1Rounds bounds the phase-1 rounds of a game: each failed round
// charges one player, and a player is killed off after 5 failures.
const maxPhase1Rounds = 2*PlacementFailureLimit + 1

// maxSteps is the most steps an episode lasts: the rounds to the cap, plus
// in learn mode four more steps for each phase-1 round.
func maxSteps(cfg *Config) int {
	n := cfg.MapSize()
	rounds := n*n + 6
	if cfg.MaxRounds > 0 && cfg.MaxRounds < rounds {
		rounds = cfg.MaxRounds
	}
	if cfg.Placement == PlacementLearn {
		return rounds + (NumShips-1)*maxPhase1Rounds
	}
	return rounds - 1 // phase 1 is played in Reset
}
