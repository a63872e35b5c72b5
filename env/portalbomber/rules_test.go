package portalbomber

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestScenarioTable is the spec's §11 table, one named case per row.
func TestScenarioTable(t *testing.T) {
	t.Run("S1_suicide_bomb_on_the_start_cell", func(t *testing.T) {
		g := bare(t)
		m := play(t, g, []Action{PlaceBomb}, nil)
		m.rounds(4)
		if _, tick, ok := g.Bomb(1, 1); !ok || tick != 1 {
			t.Fatalf("after round 4: bomb tick %d ok %v, want 1", tick, ok)
		}
		m.rounds(1)
		for _, c := range [][2]int{{1, 1}, {0, 1}, {1, 0}, {2, 1}, {3, 1}, {1, 2}, {1, 3}} {
			if !slices.Equal(trailOwners(g, c[0], c[1]), []int{0}) {
				t.Errorf("no trail of player 0 at %v", c)
			}
		}
		if g.HasTrail(4, 1) || g.HasTrail(1, 4) {
			t.Error("the arms went past the soft blocks")
		}
		p := g.Player(0)
		if p.Alive || p.X != -1 || p.Coins != 6 || g.MoveNumber() != 10 || !g.Done() {
			t.Errorf("player 0 %+v, moveNumber %d, done %v; want dead at (-1,-1) with 6 coins, 10, true", p, g.MoveNumber(), g.Done())
		}
		if w, d := g.Outcome(); w != 1 || d {
			t.Errorf("outcome %d %v, want 1", w, d)
		}
	})
	t.Run("S2_the_intended_opening", func(t *testing.T) {
		g := bare(t)
		m := play(t, g, []Action{MoveRight, PlaceBomb, MoveLeft, MoveDown}, nil)
		m.rounds(5)
		if _, tick, ok := g.Bomb(2, 1); !ok || tick != 1 {
			t.Fatalf("bomb at (2,1): tick %d ok %v, want 1 after round 5", tick, ok)
		}
		m.rounds(1)
		for _, c := range [][2]int{{2, 1}, {1, 1}, {0, 1}, {2, 0}, {3, 1}, {2, 2}} {
			if !g.HasTrail(c[0], c[1]) {
				t.Errorf("no trail at %v", c)
			}
		}
		if g.TrailOf(2, 1, 0).Type != TrailOrigin {
			t.Error("(2,1) is not the origin")
		}
		p := g.Player(0)
		if !p.Alive || p.X != 1 || p.Y != 2 || p.Coins != 3 || p.BombCount != 1 || g.Soft(3, 1) {
			t.Errorf("player 0 %+v, soft (3,1) %v", p, g.Soft(3, 1))
		}
		m.rounds(1)
		for i := range g.n * g.n {
			if g.cells[i].trailSeq != 0 {
				t.Errorf("a trail is left at (%d,%d) after round 7", i%g.n, i/g.n)
			}
		}
	})
	t.Run("S3_walking_through_portals", func(t *testing.T) {
		g := bare(t)
		m := play(t, g, []Action{TurnRight, OrangePortal, TurnDown, BluePortal, MoveRight, MoveRight, MoveDown}, nil)
		for range 4 {
			m.step()
			m.step()
		}
		if o, c, ok := g.PortalAt(3, 1, Left); !ok || o != 0 || c != Orange {
			t.Fatalf("orange portal: %d %d %v", o, c, ok)
		}
		if o, c, ok := g.PortalAt(1, 3, Up); !ok || o != 0 || c != Blue {
			t.Fatalf("blue portal: %d %d %v", o, c, ok)
		}
		for g.Player(0).X != 2 || g.Player(0).Y != 1 {
			m.step()
		}
		for len(m.scripts[0]) == 2 {
			m.step()
		}
		if p := g.Player(0); p.X != 1 || p.Y != 2 || p.Orientation != Up {
			t.Errorf("after mr into orange: %+v, want (1,2) facing up", p)
		}
		for len(m.scripts[0]) == 1 {
			m.step()
		}
		if p := g.Player(0); p.X != 2 || p.Y != 1 || p.Orientation != Left {
			t.Errorf("after md into blue: %+v, want (2,1) facing left", p)
		}
	})
	portals := func(t *testing.T) *Game {
		g := bare(t)
		m := play(t, g, []Action{TurnRight, OrangePortal, TurnDown, BluePortal}, nil)
		m.rounds(4)
		if _, _, ok := g.PortalAt(1, 3, Up); !ok {
			t.Fatal("no blue portal")
		}
		return g
	}
	t.Run("S4_blast_through_a_portal_keeps_its_owner", func(t *testing.T) {
		g := portals(t)
		g.placeAt(0, 2, 1)
		m := play(t, g, []Action{PlaceBomb, MoveLeft}, nil)
		m.rounds(5)
		if !slices.Equal(trailOwners(g, 1, 2), []int{0}) || !slices.Equal(trailOwners(g, 1, 1), []int{0}) {
			t.Errorf("trails (1,2) %v (1,1) %v, want owner 0 on both", trailOwners(g, 1, 2), trailOwners(g, 1, 1))
		}
		if g.HasTrail(3, 1) || !g.Soft(3, 1) || g.HasTrail(0, 1) {
			t.Errorf("(3,1) trail %v soft %v; (0,1) trail %v", g.HasTrail(3, 1), g.Soft(3, 1), g.HasTrail(0, 1))
		}
		if w, _ := g.Outcome(); g.Player(0).Alive || w != 1 {
			t.Errorf("player 0 alive %v, winner %d", g.Player(0).Alive, w)
		}
	})
	t.Run("S5_portal_blast_on_a_soft_block_pays_the_owner", func(t *testing.T) {
		g := portals(t)
		g.cells[g.idx(1, 2)].soft = true
		g.addBomb(2, 1, 0)
		g.players[0].BombCount = 0
		g.placeAt(0, 5, 5)
		m := play(t, g, nil, nil)
		m.rounds(5)
		if g.Soft(1, 2) || g.Player(0).Coins != BlockValue(11, 1, 2) || g.Done() {
			t.Errorf("soft (1,2) %v, coins %d (want %d), done %v", g.Soft(1, 2), g.Player(0).Coins, BlockValue(11, 1, 2), g.Done())
		}
	})
	for pierce, want := range [][][2]int{{{4, 2}}, {{4, 2}, {4, 1}}, {{4, 2}, {4, 1}, {4, 0}}} {
		t.Run("S7_pierce_"+strconv.Itoa(pierce), func(t *testing.T) {
			g := bare(t)
			g.placeAt(0, 7, 7)
			g.placeAt(1, 4, 1)
			g.players[0].BombPierce = int32(pierce)
			g.addBomb(4, 3, 0)
			m := play(t, g, nil, nil)
			m.rounds(5)
			var got [][2]int
			for y := 0; y < 3; y++ {
				if g.HasTrail(4, y) {
					got = append(got, [2]int{4, y})
				}
			}
			slices.SortFunc(got, func(a, b [2]int) int { return b[1] - a[1] })
			if !slices.Equal(got, want) {
				t.Errorf("up arm covers %v, want %v", got, want)
			}
			if alive := g.Player(1).Alive; alive != (pierce == 0) {
				t.Errorf("player 1 alive %v", alive)
			}
		})
	}
	t.Run("S8_a_player_shields_the_cells_behind", func(t *testing.T) {
		g := bare(t)
		g.placeAt(0, 3, 3)
		g.placeAt(1, 4, 3)
		g.addBomb(5, 3, 0)
		play(t, g, nil, nil).rounds(5)
		if !g.Player(0).Alive || g.Player(1).Alive || g.HasTrail(3, 3) {
			t.Errorf("p0 alive %v, p1 alive %v, trail at (3,3) %v", g.Player(0).Alive, g.Player(1).Alive, g.HasTrail(3, 3))
		}
		if w, _ := g.Outcome(); w != 0 {
			t.Errorf("winner %d", w)
		}
	})
	t.Run("S9_both_die_a_tie", func(t *testing.T) {
		g := bare(t)
		g.placeAt(0, 3, 3)
		g.placeAt(1, 7, 3)
		g.addBomb(5, 3, 0)
		play(t, g, nil, nil).rounds(5)
		if w, d := g.Outcome(); w != -1 || !d || !g.Done() || g.state != stateComplete {
			t.Errorf("outcome %d %v done %v", w, d, g.Done())
		}
		if res := g.Result(); res.Winner != -1 || !res.Draw || res.Rounds != 5 {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("S10_a_player_on_a_bomb_survives_a_trail", func(t *testing.T) {
		g := bare(t)
		g.placeAt(0, 3, 3)
		g.placeTrail(1, 3, 3, TrailH)
		g.cells[g.idx(3, 3)].trails[1].Tick = 1
		play(t, g, []Action{PlaceBomb}, nil).rounds(1)
		if !g.Player(0).Alive || g.HasTrail(3, 3) {
			t.Errorf("alive %v, trail left %v", g.Player(0).Alive, g.HasTrail(3, 3))
		}
	})
	t.Run("S12_blocked_moves_invalid_and_out_of_turn", func(t *testing.T) {
		g := bare(t)
		g.placeAt(1, 2, 1)
		before, _ := g.AppendNative(nil, FormatStateJSON, 0)
		// Out of turn: player 1 submits while player 0 is to move; the
		// step is player 0's wait, player 1's move is refused.
		var r [2]float32
		var te, tr [2]bool
		g.Step([]int32{int32(Wait), int32(MoveLeft)}, r[:], te[:], tr[:])
		if g.Invalid(1) != 1 || g.Player(1).X != 2 || g.Player(1).Orientation != Left-0 {
			t.Errorf("out of turn: invalid %d, player 1 %+v", g.Invalid(1), g.Player(1))
		}
		g2 := bare(t)
		g2.placeAt(1, 2, 1)
		m := play(t, g2, []Action{MoveRight, InvalidMove}, []Action{MoveLeft})
		m.step()
		if p := g2.Player(0); p.X != 1 || p.Y != 1 || p.Orientation != Right {
			t.Errorf("mr into player 1: %+v", p)
		}
		m.step()
		if p := g2.Player(1); p.X != 2 || p.Y != 1 || p.Orientation != Left {
			t.Errorf("ml into player 0: %+v", p)
		}
		m.step()
		m.step()
		if g2.Invalid(0) != 1 || g2.MoveNumber() != 4 {
			t.Errorf("invalid move: counted %d, moveNumber %d", g2.Invalid(0), g2.MoveNumber())
		}
		_ = before
	})
}

// fireTable is spec §8: the round at which each cell catches fire, by row.
const fireTable = `
211 212 213 214 215 216 217 218 219 220 201
210 229 230 231 232 233 234 235 236 221 202
209 228 243 244 245 246 247 248 237 222 203
208 227 242 253 254 255 256 249 238 223 204
207 226 241 252 259 260 257 250 239 224 205
206 225 240 251 258 261 258 251 240 225 206
205 224 239 250 257 260 259 252 241 226 207
204 223 238 249 256 255 254 253 242 227 208
203 222 237 248 247 246 245 244 243 228 209
202 221 236 235 234 233 232 231 230 229 210
201 220 219 218 217 216 215 214 213 212 211`

// TestApocalypseTiming is scenario A1: both players kept off the board,
// alive, every move a wait; each cell catches fire at the round of §8.
func TestApocalypseTiming(t *testing.T) {
	g := bare(t)
	g.placeAt(0, -1, -1)
	g.placeAt(1, -1, -1)
	var burnt [11][11]int
	m := play(t, g, nil, nil)
	for r := 1; r <= 262; r++ {
		m.rounds(1)
		for y := range 11 {
			for x := range 11 {
				if burnt[y][x] == 0 && g.TrailOf(x, y, FireOwner).Type == TrailFire {
					burnt[y][x] = r
				}
			}
		}
	}
	for y, line := range strings.Split(strings.TrimSpace(fireTable), "\n") {
		for x, f := range strings.Fields(line) {
			want, _ := strconv.Atoi(f)
			if burnt[y][x] != want {
				t.Errorf("(%d,%d) burns at round %d, want %d", x, y, burnt[y][x], want)
			}
		}
	}
	if g.Done() {
		t.Error("players off the board died")
	}
}

// TestApocalypseEndsEveryGame checks that the fire kills players who wait
// at their start cells, at round 229, in a tie.
func TestApocalypseEndsEveryGame(t *testing.T) {
	g := bare(t)
	play(t, g, nil, nil).rounds(300)
	if !g.Done() || g.Rounds() != 229 {
		t.Fatalf("done %v at round %d, want round 229", g.Done(), g.Rounds())
	}
	if w, d := g.Outcome(); w != -1 || !d {
		t.Errorf("outcome %d %v, want a tie", w, d)
	}
}
