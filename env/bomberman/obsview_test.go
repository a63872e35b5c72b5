package bomberman

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
)

// viewPair returns two games of players seats played alike from seed for
// rounds steps (see play), one with view radius r and one without, so
// that their states are the same.
func viewPair(t *testing.T, players, r int, seed uint64, rounds int) (view, full *Game) {
	t.Helper()
	view = playConfig(t, &Config{Players: players, ViewRadius: r}, seed, 11, rounds)
	full = playConfig(t, &Config{Players: players}, seed, 11, rounds)
	return view, full
}

// TestViewShowsTheMapAroundTheSeat checks the player-centred window
// against the whole-map observation of the same state, cell by cell:
// window cell (u, v) is map cell (px-r+u, py-r+v), the own player sits
// at (r, r), off-map cells are indestructible walls (1 in that plane, 0
// elsewhere), and the scalars are those of the whole-map observation.
func TestViewShowsTheMapAroundTheSeat(t *testing.T) {
	for _, tc := range []struct {
		name            string
		players, radius int
		seed            uint64
		rounds          int
	}{
		{"centred_on_the_seat", 2, 10, 3, 12},
		{"off_map_is_wall_at_the_start_corner", 2, 10, 5, 0},
		{"four_player_seats_each_centred_on_themselves", 4, 10, 7, 15},
		{"small_window", 2, 3, 9, 20},
		{"window_wider_than_the_map", 2, 25, 4, 8},
		{"eight_players_on_31x31", 8, 10, 2, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			view, full := viewPair(t, tc.players, tc.radius, tc.seed, tc.rounds)
			d := 2*tc.radius + 1
			vObs, fObs := view.Spec().NewObsBuffers(), full.Spec().NewObsBuffers()
			if got, want := view.Spec().Obs[0].Shape, []int{NumPlanes, d, d}; !slices.Equal(got, want) {
				t.Fatalf("planes shape %v, want %v", got, want)
			}
			w, h := full.Width(), full.Height()
			for seat := range tc.players {
				view.WriteObs(seat, vObs)
				full.WriteObs(seat, fObs)
				p := full.Player(seat)
				if !p.Killed && vObs[0][PlaneSelf*d*d+tc.radius*d+tc.radius] != 1 {
					t.Errorf("seat %d: own player not at the window's centre", seat)
				}
				offMap := 0
				for c := range NumPlanes {
					for v := range d {
						for u := range d {
							x, y := p.X-tc.radius+u, p.Y-tc.radius+v
							var want byte
							if x < 1 || x > w || y < 1 || y > h {
								offMap++
								want = flag(c == PlaneIndestructible)
							} else {
								want = plane(full, fObs[0], c, x, y)
							}
							if got := vObs[0][c*d*d+v*d+u]; got != want {
								t.Fatalf("seat %d plane %d window (%d,%d) = map (%d,%d): got %d, want %d", seat, c, u, v, x, y, got, want)
							}
						}
					}
				}
				if tc.radius >= 2 && offMap == 0 {
					t.Errorf("seat %d at (%d,%d): no window cell off the map; the case checks nothing off it", seat, p.X, p.Y)
				}
				if !bytes.Equal(vObs[1], fObs[1]) {
					t.Errorf("seat %d: scalars differ from the whole-map observation", seat)
				}
			}
		})
	}
}

// TestViewDefaultIsTheWholeMap checks that without view_radius the spec's
// planes cover the whole map as before, with the shared planes declared.
func TestViewDefaultIsTheWholeMap(t *testing.T) {
	for _, players := range []int{2, 4, 8} {
		g, err := New(&Config{Players: players})
		if err != nil {
			t.Fatal(err)
		}
		side := SideFor(players)
		planes := g.Spec().Obs[0]
		if !slices.Equal(planes.Shape, []int{NumPlanes, side, side}) || len(planes.Shared) == 0 {
			t.Errorf("%d players: planes %v shared %v, want [%d %d %d] with shared planes", players, planes.Shape, planes.Shared, NumPlanes, side, side)
		}
	}
	if r := DefaultConfig().ViewRadius; r != 0 {
		t.Errorf("default view_radius %d, want 0", r)
	}
}

// TestViewRadiusOutOfRangeIsRefused checks the config's bounds.
func TestViewRadiusOutOfRangeIsRefused(t *testing.T) {
	for _, r := range []int{-1, MaxSide} {
		_, err := New(&Config{Players: 2, ViewRadius: r})
		var ce *env.ConfigError
		if !errors.As(err, &ce) || ce.Field != "view_radius" {
			t.Errorf("view_radius %d: got %v, want a config error naming view_radius", r, err)
		}
	}
}
