package bomberman

import (
	"fmt"
	"strings"
	"testing"
)

// Test fixtures in the style of the original's GameRoundProcessorTest: small
// maps of any size, built from ASCII boards, with helpers that drive them
// one processed round at a time.
//
// Board symbols: '.' empty, '#' indestructible wall, '+' destructible wall,
// 'A'–'L' the player of seat 0–11, '&' bomb-bag, '!' radius and '$' super
// power-up. Players get bag 1 and radius 1; PlayerBounty is 100; every seat
// is a console seat, so the do-nothing rule stays out of the way.

// board builds a fixture Game from rows of the board, row y=1 first.
func board(t testing.TB, rows ...string) *Game {
	t.Helper()
	h := len(rows)
	if h == 0 || h > MaxSide {
		t.Fatalf("board: %d rows", h)
	}
	w := len(rows[0])
	g := &Game{width: w, height: h, bounty: playerPointsBase, maxRound: 1 << 30}
	g.rng.Seed(1, 2)
	var seatAt [MaxPlayers][2]int
	for y, row := range rows {
		if len(row) != w {
			t.Fatalf("board: row %d has %d cells, want %d", y+1, len(row), w)
		}
		for x := range w {
			c := &g.cells[g.index(x+1, y+1)]
			switch ch := row[x]; {
			case ch == '.':
			case ch == '#':
				c.Entity = IndestructibleWall
			case ch == '+':
				c.Entity = DestructibleWall
			case ch == '&':
				c.PowerUp = BombBagPowerUp
			case ch == '!':
				c.PowerUp = BombRadiusPowerUp
			case ch == '$':
				c.PowerUp = SuperPowerUp
			case ch >= 'A' && ch < 'A'+MaxPlayers:
				s := int(ch - 'A')
				seatAt[s] = [2]int{x + 1, y + 1}
				g.nPlayers = max(g.nPlayers, s+1)
			default:
				t.Fatalf("board: unknown symbol %q", ch)
			}
		}
	}
	if g.nPlayers == 0 {
		t.Fatal("board: no players")
	}
	g.cfg = Config{Players: g.nPlayers, PowerUps: PowerUpsAuto}
	for s := range g.nPlayers {
		g.cfg.ConsoleSeats = append(g.cfg.ConsoleSeats, s)
	}
	g.spec = newSpec("bomberman", &g.cfg)
	for s := range g.nPlayers {
		if seatAt[s] == [2]int{} {
			t.Fatalf("board: seat %c missing", 'A'+s)
		}
		g.players[s] = Player{Name: g.cfg.name(s), Key: byte('A' + s), BombBag: 1, BombRadius: 1}
		g.placePlayer(s, seatAt[s][0], seatAt[s][1])
	}
	g.recountUsable()
	return g
}

// emptyFixture is the §9 fixture: an empty 5×5 map, A at (1,1), B at (5,5).
func emptyFixture(t testing.TB) *Game {
	t.Helper()
	return board(t,
		"A....",
		".....",
		".....",
		".....",
		"....B",
	)
}

// recountUsable sets usable to the number of cells that are not
// indestructible walls.
func (g *Game) recountUsable() {
	g.usable = 0
	for i := range g.width * g.height {
		if g.cells[i].Entity != IndestructibleWall {
			g.usable++
		}
	}
}

// render draws the board in the symbols [board] reads, plus a bomb as its
// timer digit (or '9' for more), and '*' for an exploding cell with nothing
// else on it.
func render(g *Game) []string {
	rows := make([]string, g.height)
	for y := 1; y <= g.height; y++ {
		var sb strings.Builder
		for x := 1; x <= g.width; x++ {
			c := g.At(x, y)
			switch {
			case c.Entity == PlayerEntity:
				sb.WriteByte('A' + c.Player)
			case c.bomb != 0:
				sb.WriteByte(byte('0' + min(9, g.bombs[c.bomb-1].Timer)))
			case c.Entity == IndestructibleWall:
				sb.WriteByte('#')
			case c.Entity == DestructibleWall:
				sb.WriteByte('+')
			case c.reached != 0:
				sb.WriteByte('*')
			case c.PowerUp == BombBagPowerUp:
				sb.WriteByte('&')
			case c.PowerUp == BombRadiusPowerUp:
				sb.WriteByte('!')
			case c.PowerUp == SuperPowerUp:
				sb.WriteByte('$')
			default:
				sb.WriteByte('.')
			}
		}
		rows[y-1] = sb.String()
	}
	return rows
}

// assertBoard fails unless g renders as want.
func assertBoard(t testing.TB, g *Game, want ...string) {
	t.Helper()
	got := render(g)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("board:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// stepResult is one Step's output.
type stepResult struct {
	rewards    []float32
	terminated []bool
	truncated  []bool
}

// step processes one round with the given actions (missing seats do
// nothing) and returns the rewards and flags.
func step(t testing.TB, g *Game, actions ...Action) stepResult {
	t.Helper()
	n := g.nPlayers
	if len(actions) > n {
		t.Fatalf("step: %d actions for %d seats", len(actions), n)
	}
	acts := make([]int32, n)
	for s, a := range actions {
		acts[s] = int32(a)
	}
	r := stepResult{make([]float32, n), make([]bool, n), make([]bool, n)}
	g.Step(acts, r.rewards, r.terminated, r.truncated)
	return r
}

// act processes one round in which only seat acts.
func act(t testing.TB, g *Game, seat int, a Action) stepResult {
	t.Helper()
	acts := make([]Action, g.nPlayers)
	acts[seat] = a
	return step(t, g, acts...)
}

// idle processes n rounds in which nobody acts.
func idle(t testing.TB, g *Game, n int) {
	t.Helper()
	for range n {
		step(t, g)
	}
}

// teleport puts seat's player on (x, y) directly, as the original's tests
// do with SetEntity: the old cell is cleared and the new one counts as
// touched.
func teleport(t testing.TB, g *Game, seat, x, y int) {
	t.Helper()
	p := g.players[seat]
	if g.InBounds(p.X, p.Y) {
		if c := &g.cells[g.index(p.X, p.Y)]; c.Entity == PlayerEntity && int(c.Player) == seat {
			c.Entity = NoEntity
		}
	}
	if c := g.cells[g.index(x, y)]; c.Entity != NoEntity {
		t.Fatalf("teleport: (%d,%d) holds %v", x, y, c.Entity)
	}
	g.placePlayer(seat, x, y)
}

// lift takes seat's player off the map without killing it, as the
// original's tests do with SetEntity(null).
func lift(g *Game, seat int) {
	p := g.players[seat]
	if c := &g.cells[g.index(p.X, p.Y)]; c.Entity == PlayerEntity && int(c.Player) == seat {
		c.Entity = NoEntity
	}
}

// walk moves seat's player to (x, y) one processed round per step along a
// shortest path over empty cells, as the original's MovePlayerToLocation
// does (it may start on its own bomb).
func walk(t testing.TB, g *Game, seat, x, y int) {
	t.Helper()
	for range g.width * g.height {
		p := g.players[seat]
		if p.X == x && p.Y == y {
			return
		}
		a := firstStep(g, p.X, p.Y, x, y)
		if a == DoNothing {
			t.Fatalf("walk: no path for %c from (%d,%d) to (%d,%d)", 'A'+seat, p.X, p.Y, x, y)
		}
		act(t, g, seat, a)
		if q := g.players[seat]; q.X == p.X && q.Y == p.Y {
			t.Fatalf("walk: %c did not move %v from (%d,%d)", 'A'+seat, a, p.X, p.Y)
		}
	}
	t.Fatal("walk: too long")
}

// firstStep returns the first move of a shortest path from (fx, fy) to
// (tx, ty) through cells with no entity and no bomb, or DoNothing.
func firstStep(g *Game, fx, fy, tx, ty int) Action {
	var first [MaxSide * MaxSide]Action
	var seen [MaxSide * MaxSide]bool
	queue := []int{g.index(fx, fy)}
	seen[queue[0]] = true
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		x, y := i%g.width+1, i/g.width+1
		if x == tx && y == ty {
			return first[i]
		}
		for _, a := range [4]Action{MoveRight, MoveLeft, MoveDown, MoveUp} {
			nx, ny := x+moveDelta[a][0], y+moveDelta[a][1]
			if !g.InBounds(nx, ny) {
				continue
			}
			j := g.index(nx, ny)
			if seen[j] || g.cells[j].Entity != NoEntity || g.cells[j].bomb != 0 {
				continue
			}
			seen[j] = true
			first[j] = first[i]
			if i == g.index(fx, fy) {
				first[j] = a
			}
			queue = append(queue, j)
		}
	}
	return DoNothing
}

// plant processes a round in which seat places a bomb, then sets the new
// bomb's timer to timer: the original's tests' PlaceBombCommand(10) gives a
// timer of 10 whatever the bag. timer 0 keeps the engine's timer.
func plant(t testing.TB, g *Game, seat, timer int) {
	t.Helper()
	act(t, g, seat, PlaceBomb)
	p := g.players[seat]
	c := g.cells[g.index(p.X, p.Y)]
	if c.bomb == 0 || g.bombs[c.bomb-1].Owner != seat {
		t.Fatalf("plant: %c has no bomb at (%d,%d)", 'A'+seat, p.X, p.Y)
	}
	if timer > 0 {
		g.bombs[c.bomb-1].Timer = timer
	}
}

// runUntilNoBombs processes idle rounds until no bomb is left on the map.
func runUntilNoBombs(t testing.TB, g *Game) {
	t.Helper()
	for range 100 {
		if countBombs(g) == 0 {
			return
		}
		step(t, g)
	}
	t.Fatal("bombs never exploded")
}

func countBombs(g *Game) int {
	n := 0
	for _, b := range g.bombs {
		if b.live {
			n++
		}
	}
	return n
}

// pts is the §9 "pts": Points − coverage.
func pts(g *Game, seat int) int { return g.players[seat].Counter }

func (r stepResult) String() string {
	return fmt.Sprintf("rewards %v terminated %v truncated %v", r.rewards, r.terminated, r.truncated)
}

// addBomb puts a bomb of owner on (x, y) directly, as a plant would, and
// invalidates what the observations derive from the state.
func addBomb(t testing.TB, g *Game, owner, x, y, radius, timer int) {
	t.Helper()
	b := g.freeBombSlot()
	if b < 0 || g.cells[g.index(x, y)].bomb != 0 {
		t.Fatalf("addBomb: no room at (%d,%d)", x, y)
	}
	g.putBomb(b, Bomb{Owner: owner, X: x, Y: y, Radius: radius, Timer: timer})
	g.stateChanged()
}
