package battlebots

import (
	"fmt"
	"testing"
)

// pos is a cell (x, y).
type pos struct{ x, y int }

// play is one round of a rule test: bot1's and bot2's commands as the bots
// print them, and the checks after the round.
type play struct {
	b1, b2 string
	want   []check
}

// check is one expectation about the state after a round.
type check func(g *Game) error

func at(seat, x, y int) check {
	return func(g *Game) error {
		if b := g.Bot(seat); b.X != x || b.Y != y {
			return fmt.Errorf("bot%d at (%d,%d), want (%d,%d)", seat+1, b.X, b.Y, x, y)
		}
		return nil
	}
}

func hp(h1, h2 int) check {
	return func(g *Game) error {
		if a, b := g.Bot(0).HP, g.Bot(1).HP; a != h1 || b != h2 {
			return fmt.Errorf("HP %d/%d, want %d/%d", a, b, h1, h2)
		}
		return nil
	}
}

// bullets checks the bullets in flight, in order.
func bullets(cells ...pos) check {
	return projectiles("bullet", (*Game).NumBullets, (*Game).BulletAt, cells)
}

// missiles checks the missiles in flight, in order.
func missiles(cells ...pos) check {
	return projectiles("missile", (*Game).NumMissiles, (*Game).MissileAt, cells)
}

// projectiles checks that the projectiles of one kind in flight (num of
// them, the i-th at(i)) stand on cells, in order.
func projectiles(kind string, num func(*Game) int, at func(*Game, int) Projectile, cells []pos) check {
	return func(g *Game) error {
		if n := num(g); n != len(cells) {
			return fmt.Errorf("%d %ss, want %d", n, kind, len(cells))
		}
		for i, c := range cells {
			if p := at(g, i); p.X != c.x || p.Y != c.y {
				return fmt.Errorf("%s %d at (%d,%d), want (%d,%d)", kind, i, p.X, p.Y, c.x, c.y)
			}
		}
		return nil
	}
}

// mines checks the landmines (row-major) and whether each is dead.
func mines(want ...Mine) check {
	return func(g *Game) error {
		got := g.Mines(nil)
		if len(got) != len(want) {
			return fmt.Errorf("mines %+v, want %+v", got, want)
		}
		for i := range got {
			if got[i].X != want[i].X || got[i].Y != want[i].Y || got[i].Dead != want[i].Dead {
				return fmt.Errorf("mines %+v, want %+v", got, want)
			}
		}
		return nil
	}
}

func paralysed(n int) check {
	return func(g *Game) error {
		if g.Paralysed() != n {
			return fmt.Errorf("paralysis counter %d, want %d", g.Paralysed(), n)
		}
		return nil
	}
}

// newBout returns a default bout with bot1 and bot2 placed.
func newBout(t testing.TB, b1, b2 pos) *Game {
	t.Helper()
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	g.bots[0].X, g.bots[0].Y = b1.x, b1.y
	g.bots[1].X, g.bots[1].Y = b2.x, b2.y
	return g
}

// runPlays plays the rounds on g, parsing each command as the control
// program does, and reports every failed check.
func runPlays(t *testing.T, g *Game, plays []play) {
	t.Helper()
	acts := make([]int32, 2)
	rewards := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	for r, p := range plays {
		acts[0], _ = g.ParseCommand(0, []byte(p.b1))
		acts[1], _ = g.ParseCommand(1, []byte(p.b2))
		g.Step(acts, rewards, term, trunc)
		for _, c := range p.want {
			if err := c(g); err != nil {
				t.Errorf("round %d (%q / %q): %v", r, p.b1, p.b2, err)
			}
		}
	}
}

// far is where a bot the spec's scenario does not mention stands: bot2's
// start, out of every path used below.
var far = pos{8, 8}

// TestConformance is the scenario table of the spec (§9), each row a named
// test, run on the same round order as the control program's main().
func TestConformance(t *testing.T) {
	tests := []struct {
		name   string
		b1, b2 pos
		plays  []play
	}{
		{"same_target_cell", pos{3, 3}, pos{5, 3}, []play{
			{"E", "W", []check{at(0, 4, 3), at(1, 5, 3)}},
		}},
		{"swap", pos{3, 3}, pos{4, 3}, []play{
			{"E", "W", []check{at(0, 3, 3), at(1, 4, 3)}},
		}},
		{"bot1_follows_bot2", pos{3, 3}, pos{4, 3}, []play{
			{"E", "E", []check{at(0, 4, 3), at(1, 5, 3)}},
		}},
		{"bot2_follows_bot1", pos{4, 3}, pos{3, 3}, []play{
			{"E", "E", []check{at(0, 5, 3), at(1, 4, 3)}},
		}},
		{"left_edge", pos{1, 5}, far, []play{
			{"W", "NO", []check{at(0, 1, 5)}},
			{"NW", "NO", []check{at(0, 1, 5)}},
			{"N", "NO", []check{at(0, 1, 4)}},
		}},
		{"right_edge", pos{8, 5}, far, []play{
			{"E", "NO", []check{at(0, 9, 5)}},
			{"E", "NO", []check{at(0, 9, 5)}},
		}},
		{"bullet_adjacent", pos{3, 3}, pos{4, 3}, []play{
			{"B E", "NO", []check{hp(10, 9), bullets()}},
		}},
		{"bullet_distance_3", pos{3, 3}, pos{6, 3}, []play{
			{"B E", "NO", []check{hp(10, 9), bullets()}},
		}},
		{"bullet_distance_4", pos{3, 3}, pos{7, 3}, []play{
			{"B E", "NO", []check{hp(10, 10), bullets(pos{6, 3})}},
			{"NO", "NO", []check{hp(10, 9), bullets()}},
		}},
		{"bullet_to_the_wall", pos{3, 3}, far, []play{
			{"B E", "NO", []check{bullets(pos{6, 3})}},
			{"NO", "NO", []check{bullets(pos{9, 3})}},
			{"NO", "NO", []check{bullets(), hp(10, 10)}},
		}},
		{"target_walks_into_bullets_next_cells", pos{1, 3}, pos{6, 3}, []play{
			{"B E", "NO", []check{bullets(pos{4, 3}), hp(10, 10)}},
			{"NO", "W", []check{at(1, 5, 3), hp(10, 9), bullets()}},
		}},
		{"target_steps_sideways_into_path", pos{1, 3}, pos{6, 4}, []play{
			{"B E", "NO", []check{bullets(pos{4, 3})}},
			{"NO", "N", []check{at(1, 6, 3), hp(10, 9), bullets()}},
		}},
		{"target_steps_onto_bullets_cell_escapes", pos{1, 3}, pos{5, 4}, []play{
			{"B E", "NO", []check{bullets(pos{4, 3})}},
			{"NO", "NW", []check{at(1, 4, 3), hp(10, 10), bullets(pos{7, 3})}},
		}},
		{"missile_adjacent", pos{3, 3}, pos{4, 3}, []play{
			{"M E", "NO", []check{hp(9, 7), missiles()}},
		}},
		{"missile_distance_2", pos{3, 3}, pos{5, 3}, []play{
			{"M E", "NO", []check{hp(10, 7), missiles()}},
		}},
		{"missile_distance_3", pos{3, 3}, pos{6, 3}, []play{
			{"M E", "NO", []check{missiles(pos{5, 3}), hp(10, 10)}},
			{"NO", "NO", []check{hp(10, 7), missiles()}},
		}},
		{"missile_into_wall_from_8_5", pos{8, 5}, far, []play{
			{"M E", "NO", []check{hp(9, 10), missiles()}},
		}},
		{"missile_into_wall_from_the_edge_splashes_twice", pos{9, 5}, far, []play{
			{"M E", "NO", []check{hp(8, 10), missiles()}},
		}},
		{"mine_under_a_standing_enemy", pos{3, 3}, pos{4, 3}, []play{
			{"L E", "NO", []check{mines(Mine{X: 4, Y: 3}), hp(10, 10)}},
			{"NO", "NO", []check{hp(9, 8), mines()}},
		}},
		{"mine_under_an_enemy_that_leaves", pos{3, 3}, pos{4, 3}, []play{
			{"L E", "NO", []check{mines(Mine{X: 4, Y: 3})}},
			{"NO", "E", []check{hp(10, 10), at(1, 5, 3), mines(Mine{X: 4, Y: 3})}},
		}},
		{"layer_walks_onto_own_mine", pos{3, 3}, far, []play{
			{"L E", "NO", nil},
			{"E", "NO", []check{at(0, 4, 3), hp(8, 10), mines()}},
		}},
		{"mines_laid_by_both_onto_one_cell", pos{3, 3}, pos{5, 3}, []play{
			{"L E", "L W", []check{hp(9, 9), mines(Mine{X: 4, Y: 3, Dead: true})}},
			{"NO", "NO", []check{hp(9, 9), mines()}},
		}},
		{"dead_mine_fires_once_more", pos{3, 3}, pos{5, 3}, []play{
			{"L E", "L W", []check{hp(9, 9), mines(Mine{X: 4, Y: 3, Dead: true})}},
			{"E", "NO", []check{at(0, 4, 3), hp(7, 8), mines()}},
		}},
		{"mine_laid_at_x_0", pos{1, 3}, far, []play{
			{"L W", "NO", []check{mines()}},
		}},
		{"emp", pos{3, 3}, pos{6, 6}, []play{
			{"P", "E", []check{at(1, 7, 6), hp(9, 10), paralysed(2)}},
			{"E", "E", []check{at(0, 3, 3), at(1, 7, 6), paralysed(1)}},
			{"E", "E", []check{at(0, 3, 3), at(1, 7, 6), paralysed(0)}},
			{"E", "E", []check{at(0, 4, 3), at(1, 8, 6)}},
		}},
		{"emp_by_both", pos{3, 3}, pos{6, 6}, []play{
			{"P", "P", []check{hp(9, 10), paralysed(2)}},
		}},
		{"emp_skips_the_landmine_check", pos{3, 3}, pos{4, 3}, []play{
			{"L E", "P", []check{hp(10, 9), mines(Mine{X: 4, Y: 3})}},
			{"NO", "NO", []check{hp(10, 9), mines(Mine{X: 4, Y: 3})}},
			{"NO", "NO", []check{hp(10, 9), mines(Mine{X: 4, Y: 3})}},
			{"NO", "NO", []check{hp(9, 7), mines()}},
		}},
		{"junk_actions", pos{3, 3}, pos{6, 6}, []play{
			{"B", "M X", []check{at(0, 3, 3), at(1, 6, 6), bullets(), missiles(), mines(), hp(10, 10)}},
			{"L", "b e", []check{at(0, 3, 3), at(1, 6, 6), bullets(), missiles(), mines(), hp(10, 10)}},
			{"", "n", []check{at(0, 3, 3), at(1, 6, 6), bullets(), missiles(), mines(), hp(10, 10), paralysed(0)}},
			{"B  E", "NO", []check{bullets(pos{6, 3})}},
		}},
		{"start_to_contact", pos{1, 1}, pos{8, 8}, []play{
			{"SE", "NO", []check{at(0, 2, 2)}},
			{"SE", "NO", []check{at(0, 3, 3)}},
			{"SE", "NO", []check{at(0, 4, 4)}},
			{"SE", "NO", []check{at(0, 5, 5)}},
			{"SE", "NO", []check{at(0, 6, 6)}},
			{"SE", "NO", []check{at(0, 7, 7)}},
			{"SE", "NO", []check{at(0, 7, 7), at(1, 8, 8)}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runPlays(t, newBout(t, tt.b1, tt.b2), tt.plays)
		})
	}
}
