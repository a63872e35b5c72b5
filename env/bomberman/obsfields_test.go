package bomberman

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestTouchedPlanesShowTheCellsOccupied checks the two planes
// Config.TouchedPlanes adds against the state, cell by cell, from every
// seat's perspective: PlaneSelfTouched is 1 exactly where the seat's own
// player has stood, PlaneOpponentsTouched exactly where some other seat's
// has, in the whole-map layout and in the view_radius window (0 off the
// map); and the 12 planes and the scalars are those the game writes
// without the option. Random play seldom crosses paths, so the crossed
// cases mark the middle row touched by every seat (as if each had walked
// it) after the play.
func TestTouchedPlanesShowTheCellsOccupied(t *testing.T) {
	for _, tc := range []struct {
		name            string
		players, radius int
		seed            uint64
		rounds          int
		crossed         bool
	}{
		{"whole_map_at_the_start", 2, 0, 3, 0, false},
		{"whole_map_two_players", 2, 0, 3, 120, false},
		{"whole_map_paths_crossed", 2, 0, 3, 120, true},
		{"whole_map_four_players", 4, 0, 7, 90, false},
		{"whole_map_eight_players_on_31x31", 8, 0, 2, 60, true},
		{"window_centred_on_the_seat", 2, 10, 3, 120, false},
		{"window_paths_crossed", 4, 10, 3, 40, true},
		{"small_window", 4, 3, 9, 70, false},
		{"window_wider_than_the_map", 2, 25, 4, 80, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			with := playConfig(t, &Config{Players: tc.players, ViewRadius: tc.radius, TouchedPlanes: true}, tc.seed, 11, tc.rounds)
			without := playConfig(t, &Config{Players: tc.players, ViewRadius: tc.radius}, tc.seed, 11, tc.rounds)
			if tc.crossed {
				for _, g := range []*Game{with, without} {
					y := (g.height + 1) / 2
					for x := 1; x <= g.width; x++ {
						g.cells[g.index(x, y)].touched |= 1<<tc.players - 1
					}
					g.stateChanged()
				}
			}
			side := with.Width()
			d := side
			if tc.radius > 0 {
				d = 2*tc.radius + 1
			}
			if got, want := with.Spec().Obs[0].Shape, []int{NumPlanesTouched, d, d}; !slices.Equal(got, want) {
				t.Fatalf("planes shape %v, want %v", got, want)
			}
			obs, base := with.Spec().NewObsBuffers(), without.Spec().NewObsBuffers()
			selfCells, shared := 0, 0
			for seat := range tc.players {
				with.WriteObs(seat, obs)
				without.WriteObs(seat, base)
				if !bytes.Equal(obs[0][:len(base[0])], base[0]) || !bytes.Equal(obs[1], base[1]) {
					t.Fatalf("seat %d: the 12 planes or the scalars differ from the observation without touched_planes", seat)
				}
				p := with.Player(seat)
				x0, y0 := 1, 1
				if tc.radius > 0 {
					x0, y0 = p.X-tc.radius, p.Y-tc.radius
				}
				for v := range d {
					for u := range d {
						x, y := x0+u, y0+v
						var self, others byte
						if with.InBounds(x, y) {
							c := with.At(x, y)
							self = flag(c.Touched(seat))
							for s := range tc.players {
								if s != seat && c.Touched(s) {
									others = 1
								}
							}
							selfCells += int(self)
							shared += int(self & others)
						}
						if got := obs[0][PlaneSelfTouched*d*d+v*d+u]; got != self {
							t.Fatalf("seat %d cell (%d,%d): self touched %d, want %d", seat, x, y, got, self)
						}
						if got := obs[0][PlaneOpponentsTouched*d*d+v*d+u]; got != others {
							t.Fatalf("seat %d cell (%d,%d): opponents touched %d, want %d", seat, x, y, got, others)
						}
					}
				}
				if tc.radius == 0 && plane(with, obs[0], PlaneSelfTouched, p.X, p.Y) != 1 {
					t.Errorf("seat %d: its own cell (%d,%d) is not touched", seat, p.X, p.Y)
				}
			}
			if selfCells < tc.players {
				t.Errorf("only %d touched cells in all seats' views; the case checks little", selfCells)
			}
			if tc.crossed && shared == 0 {
				t.Error("no cell touched by the seat and an opponent in any seat's view; the case checks little")
			}
		})
	}
}

// TestOpponentScalarsShowTheStrongestOpponent checks the three scalars
// Config.OpponentScalars adds: the bag, radius and points/100 of the other
// seat alive with the most points, the lowest seat on a tie, 0s when no
// other seat is alive; the 8 before them are unchanged.
func TestOpponentScalarsShowTheStrongestOpponent(t *testing.T) {
	type player struct {
		counter, bag, radius int
		killed               bool
	}
	for _, tc := range []struct {
		name    string
		players []player
		seat    int
		want    [3]float32
	}{
		{"the_one_opponent", []player{{0, 1, 1, false}, {30, 2, 4, false}}, 0, [3]float32{2, 4, 0.3}},
		{"the_one_with_the_most_points", []player{{0, 1, 1, false}, {20, 1, 2, false}, {70, 3, 8, false}, {40, 2, 1, false}}, 0, [3]float32{3, 8, 0.7}},
		{"even_when_the_seat_has_more", []player{{10, 2, 2, false}, {500, 1, 1, false}, {5, 4, 2, false}}, 1, [3]float32{2, 2, 0.1}},
		{"the_lowest_seat_on_a_tie", []player{{50, 1, 1, false}, {50, 2, 2, false}, {50, 3, 4, false}}, 2, [3]float32{1, 1, 0.5}},
		{"dead_opponents_do_not_count", []player{{0, 1, 1, false}, {900, 5, 16, true}, {10, 2, 2, false}}, 0, [3]float32{2, 2, 0.1}},
		{"negative_points", []player{{0, 1, 1, false}, {-40, 3, 1, false}, {-60, 1, 1, false}}, 0, [3]float32{3, 1, -0.4}},
		{"zeros_when_no_opponent_is_alive", []player{{0, 1, 1, false}, {300, 4, 4, true}}, 0, [3]float32{0, 0, 0}},
		{"a_dead_seat_still_sees_them", []player{{0, 1, 1, true}, {30, 2, 4, false}}, 0, [3]float32{2, 4, 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.players)
			with, err := New(&Config{Players: n, OpponentScalars: true})
			if err != nil {
				t.Fatal(err)
			}
			without, err := New(&Config{Players: n})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range []*Game{with, without} {
				g.Reset(5)
				for s, pl := range tc.players {
					p := &g.players[s]
					p.Counter, p.Coverage, p.BombBag, p.BombRadius, p.Killed = pl.counter, 0, pl.bag, pl.radius, pl.killed
				}
				g.stateChanged()
			}
			if got := with.Spec().Obs[1].Shape; !slices.Equal(got, []int{NumScalarsOpponent}) {
				t.Fatalf("scalars shape %v, want [%d]", got, NumScalarsOpponent)
			}
			obs, base := with.Spec().NewObsBuffers(), without.Spec().NewObsBuffers()
			with.WriteObs(tc.seat, obs)
			without.WriteObs(tc.seat, base)
			if !bytes.Equal(obs[0], base[0]) || !bytes.Equal(obs[1][:4*NumScalars], base[1]) {
				t.Fatal("the planes or the first 8 scalars differ from the observation without opponent_scalars")
			}
			got := [3]float32{scalar(obs[1], ScalarOpponentBombBag), scalar(obs[1], ScalarOpponentBombRadius), scalar(obs[1], ScalarOpponentPoints)}
			if got != tc.want {
				t.Errorf("opponent bag, radius, points/100 = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestObservationFieldsChangeOnlyTheirShapes checks the spec with each
// option: the planes or scalars grow by the new entries, the layout text
// names them, the planes the seats share stay the 8 of the whole map (the
// touched planes are per seat), and both options are off by default.
func TestObservationFieldsChangeOnlyTheirShapes(t *testing.T) {
	plain, err := New(&Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name            string
		cfg             Config
		planes, scalars []int
		layout          string // in the planes' or the scalars' layout
	}{
		{"touched_planes", Config{Players: 2, TouchedPlanes: true}, []int{14, 21, 21}, []int{8}, "planes 12 and 13"},
		{"touched_planes_in_a_window", Config{Players: 2, TouchedPlanes: true, ViewRadius: 11}, []int{14, 23, 23}, []int{8}, "0 off the map"},
		{"opponent_scalars", Config{Players: 2, OpponentScalars: true}, []int{12, 21, 21}, []int{11}, "strongest opponent"},
		{"both", Config{Players: 4, TouchedPlanes: true, OpponentScalars: true}, []int{14, 21, 21}, []int{11}, "ever occupied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(&tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			planes, scalars := g.Spec().Obs[0], g.Spec().Obs[1]
			if !slices.Equal(planes.Shape, tc.planes) || !slices.Equal(scalars.Shape, tc.scalars) {
				t.Errorf("shapes %v and %v, want %v and %v", planes.Shape, scalars.Shape, tc.planes, tc.scalars)
			}
			if !strings.Contains(planes.Layout+scalars.Layout, tc.layout) {
				t.Errorf("layouts %q and %q do not say %q", planes.Layout, scalars.Layout, tc.layout)
			}
			wantShared := plain.Spec().Obs[0].Shared
			if tc.cfg.ViewRadius > 0 {
				wantShared = nil
			}
			if !slices.Equal(planes.Shared, wantShared) {
				t.Errorf("shared planes %v, want %v", planes.Shared, wantShared)
			}
		})
	}
	if c := DefaultConfig(); c.TouchedPlanes || c.OpponentScalars {
		t.Errorf("default touched_planes %v, opponent_scalars %v; want both false", c.TouchedPlanes, c.OpponentScalars)
	}
}

// TestObsDigestObservationFields pins, as TestObsDigest does for the
// other configs, every byte the game writes for the pool with the touched
// planes and the opponent scalars (digests taken at 6cd78da, where
// TestTouchedPlanesShowTheCellsOccupied and
// TestOpponentScalarsShowTheStrongestOpponent check them against the
// state), so that a faster encoding that changes one byte fails here.
func TestObsDigestObservationFields(t *testing.T) {
	whole, view := DefaultConfig(), DefaultConfig()
	whole.Players, whole.TouchedPlanes, whole.OpponentScalars = 2, true, true
	view.ViewRadius, view.TouchedPlanes, view.OpponentScalars, view.SafeMask = 11, true, true, true
	testutil.CheckObsDigests(t, New, 10000, testutil.LegalOrAny(20, NumActions), []testutil.DigestCase[*Config]{
		{Cfg: whole, Want: "49dcbe290228a9bb7a58dd4ce79ac6d93f4f46b33152ca22ed74662a71457aaa"},
		{Cfg: view, Want: "29aded6d7fbbe48f6c31fd4d9a0b41bece9ae43340b57c6c6b37fb9d82e2d4ef"},
	})
}
