package bomberman

import (
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// loadBoard fills r's node arrays from an ASCII board, bypassing a game:
// '#' an indestructible wall, '+' a destructible wall, 'A' the bot, 'P'
// another player, 'b' a bomb of radius 1, '!' a power-up, '*' a super
// power-up, 'x' an exploding empty cell, ' ' an empty cell. It returns the
// bot's node.
func loadBoard(t *testing.T, r *Reference, rows ...string) (start int) {
	t.Helper()
	r.w, r.h = len(rows[0]), len(rows)
	clear(r.kind[:])
	clear(r.bomb[:])
	clear(r.exploding[:])
	clear(r.inRange[:])
	r.nNodes = 0
	start = -1
	for y := 1; y < r.h; y++ {
		for x := 1; x < r.w; x++ {
			ch := rows[y-1][x-1]
			if ch == '#' {
				continue
			}
			i := r.idx(x, y)
			r.nodes[r.nNodes] = int32(i)
			r.nNodes++
			r.kind[i] = map[byte]nodeKind{' ': nodeEmpty, 'x': nodeEmpty, '+': nodeWall, 'A': nodePlayer, 'P': nodePlayer,
				'b': nodeBomb, '!': nodePowerUp, '*': nodeSuperPowerUp}[ch]
			r.bomb[i] = ch == 'b'
			r.exploding[i] = ch == 'x'
			if ch == 'A' {
				start = i
			}
		}
	}
	for y := 1; y < r.h; y++ {
		for x := 1; x < r.w; x++ {
			if rows[y-1][x-1] == 'b' {
				r.markRange(x, y, 1)
			}
		}
	}
	return start
}

func (r *Reference) at(i int) [2]int { x, y := r.xy(i); return [2]int{x, y} }

func TestReferenceTarget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		board []string
		want  [2]int
	}{
		{
			// The x-only distance: (2,5) is 3 away but has dx 0; (3,2) has dx 1.
			name:  "power_up_x_only_distance",
			board: []string{"#######", "#A!   #", "# # # #", "#     #", "#!    #", "#######"},
			want:  [2]int{2, 5},
		},
		{
			name:  "power_up_ties_first_in_row_major",
			board: []string{"#######", "#A  * #", "# # # #", "#   ! #", "#     #", "#######"},
			want:  [2]int{5, 2},
		},
		{
			// The farthest wall by dx, the last of the ties in row-major order.
			name:  "farthest_wall_last_of_ties",
			board: []string{"#######", "#A  + #", "# # # #", "#   + #", "# +   #", "#######"},
			want:  [2]int{5, 4},
		},
		{
			// The last column (x = W) holds no nodes, so its wall is unseen.
			name:  "no_nodes_in_last_column",
			board: []string{"######", "#A + +", "# # ##", "######"},
			want:  [2]int{4, 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReference()
			start := loadBoard(t, r, tc.board...)
			px, _ := r.xy(start)
			if got := r.at(r.target(px)); got != tc.want {
				t.Errorf("target = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReferenceRememberedTarget(t *testing.T) {
	r := NewReference()
	loadBoard(t, r, "#######", "#A  + #", "# # # #", "#+    #", "#######")
	if got := r.at(r.target(2)); got != [2]int{5, 2} {
		t.Fatalf("first target = %v, want (5,2)", got)
	}
	// A farther wall appears, but the remembered cell still holds something
	// (here a player): the bot keeps it.
	loadBoard(t, r, "#######", "#A  P+#", "# # # #", "#+    #", "#######")
	if got := r.at(r.target(2)); got != [2]int{5, 2} {
		t.Errorf("remembered target = %v, want (5,2)", got)
	}
	// Once the cell is empty it picks (and remembers) a new farthest wall.
	loadBoard(t, r, "#######", "#A    #", "# # # #", "#+  + #", "#######")
	if got := r.at(r.target(2)); got != [2]int{5, 4} || r.memX != 5 || r.memY != 4 {
		t.Errorf("new target = %v (memory %d,%d), want (5,4)", got, r.memX, r.memY)
	}
}

func TestReferenceSearch(t *testing.T) {
	r := NewReference()
	// The straight way right is exploding: the path goes around below.
	start := loadBoard(t, r, "#######", "#Ax  !#", "# ### #", "#     #", "#######")
	end := r.idx(6, 2)
	if !r.search(start, end) {
		t.Fatal("end not reached")
	}
	next := end
	for int(r.parent[next]) != start {
		next = int(r.parent[next])
	}
	if got := r.at(next); got != [2]int{2, 3} {
		t.Errorf("first step = %v, want (2,3)", got)
	}
	// Walled in by exploding cells: unreachable.
	start = loadBoard(t, r, "######", "#Ax !#", "#x####", "######")
	if r.search(start, r.idx(5, 2)) {
		t.Error("reached a target behind exploding cells")
	}
}

func TestReferenceWrongGamePanics(t *testing.T) {
	testutil.WantPanic(t, "Reset with another game", "reference bot cannot play", func() { NewReference().Reset(struct{ env.Env }{}, 0, 1) })
}

// newBomberman returns a fresh game of n players and map seed.
func newBomberman(t testing.TB, n int, seed uint64) *Game {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Players = n
	g := mustNew(t, cfg)
	g.Reset(seed)
	return g
}

func TestReferenceFirstMoves(t *testing.T) {
	for _, n := range []int{2, 4, 8, 12} {
		for seed := range uint64(5) {
			g := newBomberman(t, n, seed)
			r := NewReference()
			for seat := range n {
				if a := r.act(g, seat); a < 0 || a >= NumActions {
					t.Errorf("%dp seed %d seat %d: action %d out of range", n, seed, seat, a)
				}
			}
		}
	}
}

func TestReferenceNoAllocs(t *testing.T) {
	g := newBomberman(t, 4, 1)
	r := NewReference()
	if n := testing.AllocsPerRun(50, func() { r.act(g, 0) }); n != 0 {
		t.Errorf("Reference.act allocates %v times per call", n)
	}
}
