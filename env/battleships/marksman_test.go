package battleships

import (
	"bytes"
	"testing"
)

// shieldState returns the medium phase-2 game of phase2 (both fleets
// standard: Submarine (0,0)-(0,2), Destroyer (2,0)-(2,1), Battleship
// (4,0)-(4,3), Carrier (6,0)-(6,4), Cruiser (8,0)-(8,2), all north) with
// seat 0's shield at two charges (radius 2), the ships in sunk destroyed
// (every cell hit) and seat 0's cells in hit hit.
func shieldState(t *testing.T, cfg *Config, sunk []ShipType, hit [][2]int) *Game {
	t.Helper()
	g := phase2(t, cfg)
	p := &g.players[0]
	p.Shield.Charges, p.Shield.Radius = 2, 2
	for _, k := range sunk {
		s := p.Ships[k]
		p.Ships[k].Destroyed = true
		for c := range k.Len() {
			p.cells[(int(s.X)+dirDX[s.Dir]*c)*g.n+int(s.Y)+dirDY[s.Dir]*c].Hit = true
		}
	}
	for _, c := range hit {
		p.cells[c[0]*g.n+c[1]].Hit = true
	}
	return g
}

// TestShieldMaskLeavesTheShieldOnlyAtMarksmansMoment checks shield_mask
// case by case on the medium map: the shield stays in the mask only when
// the opponent has hit an afloat ship of the seat and a shield of the
// current radius can cover every unhit cell of every afloat ship, and then
// only at the centres that do; without shield_mask the mask is the legal
// actions. UpdateMask writes what WriteMask does.
func TestShieldMaskLeavesTheShieldOnlyAtMarksmansMoment(t *testing.T) {
	allButCruiser := []ShipType{Submarine, Destroyer, Battleship, Carrier}
	cases := []struct {
		name string
		off  bool // shield_mask false
		sunk []ShipType
		hit  [][2]int
		x, y int
		want bool
	}{
		{name: "last_ship_unhit_is_masked", sunk: allButCruiser, x: 8, y: 1, want: false},
		{name: "last_ship_hit_leaves_a_covering_centre", sunk: allButCruiser, hit: [][2]int{{8, 0}}, x: 7, y: 2, want: true},
		{name: "last_ship_hit_leaves_a_centre_at_the_radius", sunk: allButCruiser, hit: [][2]int{{8, 0}}, x: 6, y: 0, want: true},
		{name: "last_ship_hit_masks_a_centre_that_misses_a_cell", sunk: allButCruiser, hit: [][2]int{{8, 0}}, x: 5, y: 2, want: false},
		{name: "last_ship_hit_masks_a_centre_past_the_far_cell", sunk: allButCruiser, hit: [][2]int{{8, 0}}, x: 8, y: 5, want: false},
		{name: "two_ships_that_fit_together", sunk: []ShipType{Submarine, Destroyer, Battleship}, hit: [][2]int{{6, 0}}, x: 7, y: 2, want: true},
		{name: "two_ships_too_far_apart_are_masked", sunk: []ShipType{Destroyer, Battleship, Carrier}, hit: [][2]int{{8, 0}}, x: 4, y: 1, want: false},
		{name: "a_sunk_ship_hit_does_not_count", sunk: allButCruiser, x: 8, y: 1, want: false},
		{name: "whole_fleet_afloat_and_hit_is_masked", hit: [][2]int{{0, 0}}, x: 4, y: 2, want: false},
		{name: "without_shield_mask_any_centre_stays", off: true, sunk: allButCruiser, x: 2, y: 7, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := shieldState(t, &Config{ShieldMask: !tc.off}, tc.sunk, tc.hit)
			mask := make([]uint8, g.spec.Actions)
			g.WriteMask(0, mask)
			if got := mask[CommandAction(g.n, CodeShield, tc.x, tc.y)] != 0; got != tc.want {
				t.Errorf("shield at (%d,%d) legal %v, want %v", tc.x, tc.y, got, tc.want)
			}
			if mask[CommandAction(g.n, CodeSingle, 5, 5)] != 1 || mask[0] != 1 {
				t.Error("a single shot or do nothing left out")
			}
			upd := make([]uint8, g.spec.Actions)
			g.UpdateMask(0, upd, 0)
			if !bytes.Equal(upd, mask) {
				t.Error("UpdateMask differs from WriteMask")
			}
		})
	}
}

// TestMarksmanShieldsOnlyOnceItsFleetIsHit: with one ship left, hunter
// raises its shield at once; the marksman waits until the opponent has hit
// that ship, then raises it over the ship's unhit cells (a centre the
// shield mask leaves), and it also covers two afloat ships that fit.
func TestMarksmanShieldsOnlyOnceItsFleetIsHit(t *testing.T) {
	allButCruiser := []ShipType{Submarine, Destroyer, Battleship, Carrier}
	shield := func(a *Hunter, g *Game) int32 { return a.shield(g, 0) }
	g := shieldState(t, &Config{}, allButCruiser, nil)
	if shield(&NewMarksman().Hunter, g) != 0 {
		t.Error("marksman shields its last ship before it is hit")
	}
	if shield(&Hunter{}, g) == 0 {
		t.Error("hunter does not shield its last ship")
	}
	g = shieldState(t, &Config{ShieldMask: true}, allButCruiser, [][2]int{{8, 0}})
	a := shield(&NewMarksman().Hunter, g)
	if want := CommandAction(g.n, CodeShield, 8, 1); a != want {
		t.Fatalf("marksman's shield %d, want %d (centre (8,1))", a, want)
	}
	mask := make([]uint8, g.spec.Actions)
	g.WriteMask(0, mask)
	if mask[a] != 1 {
		t.Error("the shield mask leaves out marksman's shield")
	}
	g = shieldState(t, &Config{}, []ShipType{Submarine, Destroyer, Battleship}, [][2]int{{6, 0}})
	if shield(&NewMarksman().Hunter, g) == 0 {
		t.Error("marksman does not shield two hit ships that fit under its shield")
	}
	if shield(&Hunter{}, g) != 0 {
		t.Error("hunter shields with two ships afloat")
	}
}
