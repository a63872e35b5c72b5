package battleships

import (
	"testing"
)

// fleetAt builds a fleet from (type, x, y, dir) entries; missing ships stay
// unplaced.
type placed struct {
	t    ShipType
	x, y int
	d    Direction
}

// setFleet places ships directly on seat's map (test helper).
func setFleet(g *Game, seat int, ships ...placed) {
	p := &g.players[seat]
	clear(p.cells[:])
	p.Ships = [NumShips]Ship{}
	for _, s := range ships {
		sh := Ship{X: int8(s.x), Y: int8(s.y), Dir: s.d, Placed: true}
		p.Ships[s.t] = sh
		for a := range s.t.Len() {
			p.cells[(s.x+dirDX[s.d]*a)*g.n+s.y+dirDY[s.d]*a].Ship = uint8(s.t) + 1
		}
	}
}

// weaponFixture is the original WeaponFixture (spec §9, setup W): 10×10,
// phase 2, shooter A with 50 energy.
func weaponFixture(t *testing.T) *Game {
	t.Helper()
	g, err := New(&Config{Placement: PlacementLearn})
	if err != nil {
		t.Fatal(err)
	}
	g.phase, g.round = 2, 1
	setFleet(g, 0, placed{Carrier, 0, 0, North}, placed{Cruiser, 1, 0, North}, placed{Battleship, 2, 0, North},
		placed{Submarine, 3, 0, North}, placed{Destroyer, 4, 0, North})
	setFleet(g, 1, placed{Battleship, 1, 0, East}, placed{Carrier, 0, 0, North})
	g.players[0].Energy = 50
	return g
}

type xy struct{ x, y int }

func TestOriginalWeaponFixture(t *testing.T) {
	tests := []struct {
		name       string
		code, x, y int
		hit, miss  []xy
		energy     int
	}{
		{"single_shot_hit", 1, 0, 0, []xy{{0, 0}}, nil, 49},
		{"single_shot_missed", 1, 5, 5, nil, []xy{{5, 5}}, 49},
		{"double_shot_vert_hit", 2, 0, 1, []xy{{0, 0}, {0, 2}}, nil, 26},
		{"double_shot_vert_miss", 2, 2, 2, nil, []xy{{2, 1}, {2, 3}}, 26},
		{"double_shot_hori_hit", 3, 1, 0, []xy{{0, 0}, {2, 0}}, nil, 26},
		{"double_shot_hori_miss", 3, 2, 2, nil, []xy{{1, 2}, {3, 2}}, 26},
		{"corner_shot_hit_and_miss", 4, 1, 1, []xy{{0, 2}, {2, 0}, {0, 0}}, []xy{{2, 2}}, 20},
		{"diagonal_cross_shot_hit_and_miss", 5, 1, 1, []xy{{0, 2}, {2, 0}, {0, 0}}, []xy{{2, 2}, {1, 1}}, 14},
		{"vertical_cross_shot_hit_and_miss", 6, 1, 1, []xy{{1, 0}, {0, 1}}, []xy{{1, 2}, {2, 1}, {1, 1}}, 8},
		{"seeker_missile_hit", 7, 1, 1, []xy{{0, 1}}, []xy{{1, 0}}, 14},
		{"seeker_missile_miss", 7, 3, 3, nil, []xy{{3, 3}}, 14},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := weaponFixture(t)
			if !g.fire(0, tc.code, tc.x, tc.y) {
				t.Fatal("fire failed")
			}
			for _, c := range tc.hit {
				if cell := g.At(1, c.x, c.y); !cell.Hit || !cell.Occupied() {
					t.Errorf("(%d,%d) not damaged: %+v", c.x, c.y, cell)
				}
			}
			for _, c := range tc.miss {
				cell := g.At(1, c.x, c.y)
				if tc.code == 7 && tc.name == "seeker_missile_hit" {
					if cell.Hit {
						t.Errorf("(%d,%d) hit, want untouched", c.x, c.y)
					}
					continue
				}
				if !cell.Hit || cell.Occupied() {
					t.Errorf("(%d,%d) not missed: %+v", c.x, c.y, cell)
				}
			}
			if e := g.players[0].Energy; e != tc.energy {
				t.Errorf("energy %d, want %d", e, tc.energy)
			}
			if g.players[0].ShotsFired != 1 {
				t.Errorf("ShotsFired %d, want 1", g.players[0].ShotsFired)
			}
		})
	}
}

// TestOriginalDomainTests covers the Domain fixtures of spec §9 that have a
// counterpart in botarena (directions, placement, ships).
func TestOriginalDomainTests(t *testing.T) {
	t.Run("direction_offsets_and_opposites", func(t *testing.T) {
		want := [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
		for d := range Direction(4) {
			if dirDX[d] != want[d][0] || dirDY[d] != want[d][1] {
				t.Errorf("%v = (%d,%d)", d, dirDX[d], dirDY[d])
			}
			o := (d + 2) % 4
			if dirDX[o] != -dirDX[d] || dirDY[o] != -dirDY[d] {
				t.Errorf("%v's opposite is not %v", d, o)
			}
		}
	})
	t.Run("ship_lengths", func(t *testing.T) {
		for ty, want := range map[ShipType]int{Carrier: 5, Battleship: 4, Cruiser: 3, Submarine: 3, Destroyer: 2} {
			if ty.Len() != want {
				t.Errorf("%v length %d, want %d", ty, ty.Len(), want)
			}
		}
	})
	t.Run("place_ship_all_directions", func(t *testing.T) {
		for d := range Direction(4) {
			var f [NumShips]Ship
			if !legalNext(&f, int(Destroyer), Ship{X: 2, Y: 2, Dir: d}, 5) {
				t.Errorf("destroyer at (2,2) %v does not fit 5×5", d)
			}
		}
	})
	t.Run("out_of_bounds_placement_leaves_no_trace", func(t *testing.T) {
		g := weaponFixture(t)
		f := RandomFleet(g.r, g.n)
		f[Carrier] = Ship{X: 8, Y: 0, Dir: East}
		if g.place(0, &f) {
			t.Fatal("placement off the map succeeded")
		}
		for x := range g.n {
			for y := range g.n {
				if g.At(0, x, y).Occupied() {
					t.Fatalf("(%d,%d) occupied after a failed placement", x, y)
				}
			}
		}
	})
	t.Run("overlap_fails", func(t *testing.T) {
		var f [NumShips]Ship
		f[Submarine] = Ship{X: 2, Y: 2, Dir: East}
		if legalNext(&f, 1, Ship{X: 2, Y: 2, Dir: East}, 5) {
			t.Error("overlap accepted")
		}
	})
	t.Run("cell_count", func(t *testing.T) {
		g := weaponFixture(t)
		b, _ := g.AppendNative(nil, FormatStateJSON, 0)
		if c := countOf(string(b), `"Occupied"`); c != 100+17 {
			t.Errorf("%d own cell objects, want 100 map cells + 17 ship cells", c)
		}
	})
	t.Run("ship_not_destroyed_until_round_end", func(t *testing.T) {
		g := weaponFixture(t)
		g.players[0].Energy = 100
		g.fire(0, 1, 0, 0)
		g.fire(0, 1, 1, 0)
		g.fire(0, 1, 2, 0)
		g.fire(0, 1, 3, 0)
		g.fire(0, 1, 4, 0)
		if g.players[1].Ships[Battleship].Destroyed {
			t.Error("Destroyed set before the round ends")
		}
		g.updateDestroyed()
		if !g.players[1].Ships[Battleship].Destroyed {
			t.Error("Destroyed not set at round end")
		}
	})
	t.Run("player_can_shoot_after_all_cells_hit", func(t *testing.T) {
		g := weaponFixture(t)
		setFleet(g, 0, placed{Cruiser, 0, 0, East}, placed{Battleship, 0, 1, East}, placed{Carrier, 0, 2, East},
			placed{Destroyer, 0, 3, East}, placed{Submarine, 0, 4, East})
		for i := range g.players[0].cells {
			if g.players[0].cells[i].Ship != 0 {
				g.players[0].cells[i].Hit = true
			}
		}
		if !g.fire(0, 1, 0, 0) {
			t.Error("single shot refused while the flags are stale")
		}
	})
}

func countOf(s, sub string) int {
	n := 0
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			n++
		}
	}
	return n
}
