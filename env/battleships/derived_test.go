package battleships

import (
	"testing"
)

// phase2 returns a medium game in phase 2 with both fleets in the given
// positions (A: fleetA, B: fleetB) at round 1.
func phase2(t *testing.T, cfg *Config) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	std := []placed{{Submarine, 0, 0, North}, {Destroyer, 2, 0, North}, {Battleship, 4, 0, North}, {Carrier, 6, 0, North}, {Cruiser, 8, 0, North}}
	setFleet(g, 0, std...)
	setFleet(g, 1, std...)
	return g
}

func step(g *Game, a, b int32) {
	var r [2]float32
	var te, tr [2]bool
	g.Step([]int32{a, b}, r[:], te[:], tr[:])
}

func TestDerivedCases(t *testing.T) {
	cfg := &Config{}
	t.Run("10_1_energy", func(t *testing.T) {
		g := phase2(t, cfg)
		for r := 1; r < 12; r++ {
			if e := g.players[0].Energy; e != 3+2*(r-1) {
				t.Fatalf("round %d: energy %d, want %d", r, e, 3+2*(r-1))
			}
			if g.canFire(0, CodeDoubleVertical) {
				t.Fatalf("double shot affordable at round %d", r)
			}
			step(g, CommandAction(10, 1, 9, 9), 0)
		}
		if !g.canFire(0, CodeDoubleVertical) {
			t.Error("double shot not affordable at round 12")
		}
	})
	t.Run("10_3_seeker_skips_hit_and_shielded", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 200
		g.players[1].cells[0*10+1].Hit = true // submarine (0,1) already hit
		g.fire(0, CodeSeeker, 0, 1)
		if !g.At(1, 0, 0).Hit {
			t.Error("seeker did not skip the hit centre for (0,0)")
		}
		g.players[1].cells[0*10+2].Shielded = true
		g.players[1].cells[2*10+0].Shielded = true
		g.players[1].cells[2*10+1].Shielded = true
		g.fire(0, CodeSeeker, 1, 1)
		if c := g.At(1, 1, 1); !c.Hit || c.Occupied() {
			t.Errorf("seeker with no candidate should hit the centre (1,1): %+v", c)
		}
		g.players[1].cells[5*10+8].Shielded = true
		g.fire(0, CodeSeeker, 5, 8)
		if c := g.At(1, 5, 8); !c.ShieldHit || c.Hit {
			t.Errorf("shielded centre: %+v, want ShieldHit", c)
		}
	})
	t.Run("10_5_seeker_off_map", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 100
		setFleet(g, 1, placed{Destroyer, 5, 5, North})
		if g.fire(0, CodeSeeker, -1, -1) || g.players[0].Energy != 100 || g.players[0].ShotsFired != 0 {
			t.Error("seeker off the map with no candidate did not fail cleanly")
		}
		setFleet(g, 1, placed{Destroyer, 0, 0, North})
		if !g.fire(0, CodeSeeker, -1, -1) || !g.At(1, 0, 0).Hit {
			t.Error("seeker from (-1,-1) did not hit (0,0)")
		}
	})
	t.Run("10_6_corner_at_origin", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 100
		g.fire(0, CodeCorner, 0, 0)
		hits := 0
		for i := range 100 {
			if g.players[1].cells[i].Hit {
				hits++
			}
		}
		if hits != 1 || !g.At(1, 1, 1).Hit || g.players[0].Energy != 70 || g.players[0].ShotsFired != 1 {
			t.Errorf("hits %d, energy %d", hits, g.players[0].Energy)
		}
	})
	t.Run("10_7_clipped_to_nothing", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 100
		d := decode(10, CommandAction(10, CodeCorner, -5, -5))
		if !g.fire(0, d.code, d.x, d.y) || g.players[0].Energy != 70 || g.players[0].ShotsFired != 1 {
			t.Error("corner at (-5,-5) should succeed, charging 30")
		}
	})
	t.Run("10_8_double_shot_kill", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 100
		g.fire(0, CodeDoubleVertical, 2, 1) // destroyer at (2,0),(2,1)? it covers (2,0),(2,1)
		p := g.players[0]
		// (2,0) and (2,2): only (2,0) is the destroyer
		if p.Points != 10 || p.ShotsHit != 1 {
			t.Fatalf("points %d hits %d", p.Points, p.ShotsHit)
		}
		g = phase2(t, cfg)
		setFleet(g, 1, placed{Destroyer, 3, 3, North})
		g.players[0].Energy = 100
		g.fire(0, CodeDoubleVertical, 3, 3) // hits (3,2) and (3,4): the destroyer is (3,3),(3,4)
		g.fire(0, CodeSingle, 3, 3)
		p = g.players[0]
		if p.Points != 50 || p.ShotsFired != 2 || p.ShotsHit != 2 {
			t.Errorf("points %d fired %d hit %d, want 50 2 2", p.Points, p.ShotsFired, p.ShotsHit)
		}
		g = phase2(t, cfg)
		setFleet(g, 1, placed{Destroyer, 3, 3, North})
		g.players[0].Energy = 100
		g.fire(0, CodeDoubleVertical, 3, 4) // (3,3) and (3,5)... use horizontal pattern below
		g = phase2(t, cfg)
		setFleet(g, 1, placed{Destroyer, 3, 3, North})
		g.players[0].Energy = 100
		g.fire(0, CodeCross, 3, 3) // centre + (3,4): both destroyer cells at once
		if p := g.players[0]; p.Points != 50 || p.ShotsFired != 1 || p.ShotsHit != 2 {
			t.Errorf("cross kill: points %d fired %d hit %d, want 50 1 2", p.Points, p.ShotsFired, p.ShotsHit)
		}
	})
	t.Run("b2_no_seeker_sink_bonus", func(t *testing.T) {
		g := phase2(t, cfg)
		setFleet(g, 1, placed{Destroyer, 3, 3, North})
		g.players[0].Energy = 100
		g.fire(0, CodeSingle, 3, 3)
		g.fire(0, CodeSeeker, 3, 4)
		if p := g.players[0]; p.Points != 20 {
			t.Errorf("points %d, want 20 (no +30 from the seeker)", p.Points)
		}
	})
	t.Run("10_9_repeat_hit", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[0].Energy = 10
		g.fire(0, CodeSingle, 0, 0)
		g.fire(0, CodeSingle, 0, 0)
		if p := g.players[0]; p.Points != 10 || p.ShotsFired != 2 || p.Energy != 8 {
			t.Errorf("%+v", p)
		}
	})
	t.Run("10_10_shield_timeline", func(t *testing.T) {
		g := phase2(t, cfg)
		want := map[int][2]int{7: {1, 1}, 14: {2, 2}, 21: {3, 2}, 28: {4, 2}}
		for r := 1; r <= 28; r++ {
			step(g, 0, 0)
			if w, ok := want[r]; ok {
				sh := g.players[0].Shield
				if sh.Charges != w[0] || sh.Radius != w[1] {
					t.Errorf("after round %d: %d/%d, want %d/%d", r, sh.Charges, sh.Radius, w[0], w[1])
				}
			}
			if r == 19 { // keep the do-nothing rule away
				step(g, CommandAction(10, 1, 9, 9), CommandAction(10, 1, 9, 9))
				r++
			}
		}
	})
	t.Run("shield_protects_in_its_round_and_expires", func(t *testing.T) {
		g := phase2(t, cfg)
		g.players[1].Shield = Shield{Charges: 1, Radius: 1}
		// A shoots B's submarine at (0,1) while B shields (0,1): the shield goes first.
		step(g, CommandAction(10, 1, 0, 1), CommandAction(10, 8, 0, 1))
		if c := g.At(1, 0, 1); c.Hit || !c.ShieldHit {
			t.Fatalf("shielded cell: %+v", c)
		}
		if sh := g.players[1].Shield; !sh.Active || sh.Charges != 1 {
			t.Fatalf("shield after placement: %+v", sh)
		}
		step(g, CommandAction(10, 1, 0, 1), 0)
		if c := g.At(1, 0, 1); !c.Hit || c.Shielded {
			t.Errorf("the shield should be gone before round 2's shots: %+v", c)
		}
		if sh := g.players[1].Shield; sh.Active || sh.RoundLastUsed != 2 {
			t.Errorf("shield after expiry: %+v", sh)
		}
	})
	t.Run("10_13_shield_refusals", func(t *testing.T) {
		g := phase2(t, cfg)
		if g.shield(0, 5, 5) {
			t.Error("shield with 0 charges accepted")
		}
		g.players[0].Shield = Shield{Charges: 2, Radius: 2}
		if !g.shield(0, 5, 5) || g.shield(0, 5, 5) {
			t.Error("second shield while active accepted")
		}
		lg, _ := New(&Config{Placement: PlacementLearn})
		step(lg, CommandAction(10, 8, 1, 1), 0)
		if lg.players[0].Failed != 1 || lg.phase != 1 {
			t.Error("a shield in phase 1 is not a placement failure")
		}
	})
	t.Run("10_15_phase1_failure_attribution", func(t *testing.T) {
		for _, bad := range []int{0, 1} {
			g, _ := New(&Config{Placement: PlacementLearn})
			good := RandomFleet(g.r, 10)
			for k := range NumShips {
				acts := [2]int32{}
				acts[1-bad] = PlaceAction(10, int(good[k].X), int(good[k].Y), good[k].Dir)
				acts[bad] = 0
				step(g, acts[0], acts[1])
				if g.round == 1 {
					break
				}
			}
			if g.players[bad].Failed != 1 || g.players[1-bad].Failed != 0 || g.phase != 1 || g.round != 1 {
				t.Errorf("bad seat %d: failed %d/%d phase %d round %d", bad, g.players[0].Failed, g.players[1].Failed, g.phase, g.round)
			}
			for i := range 100 {
				if g.players[0].cells[i].Ship != 0 || g.players[1].cells[i].Ship != 0 {
					t.Fatal("maps not wiped")
				}
			}
		}
	})
	t.Run("10_16_placement_validation", func(t *testing.T) {
		g, _ := New(&Config{Placement: PlacementLearn})
		lines := "Submarine 0 0 North\nDestroyer 1 0 North\nBattleship 2 0 North\nCarrier 3 0 North\nCruiser 4 0 North\n"
		if a, ok := g.ParseCommand(0, []byte(lines)); !ok || a != PlaceAction(10, 0, 0, North) {
			t.Errorf("touching ships: %d %v", a, ok)
		}
		crlf := "Submarine 0 0 North\r\nDestroyer 1 0 North\r\nBattleship 2 0 North\r\nCarrier 3 0 North\r\nCruiser 4 0 North\r\n\r\n  \n"
		if _, ok := g.ParseCommand(0, []byte(crlf)); !ok {
			t.Error("trailing \\r and blank lines rejected")
		}
		four := "Submarine 0 0 North\nDestroyer 1 0 North\nBattleship 2 0 North\nCarrier 3 0 North\n"
		if a, ok := g.ParseCommand(0, []byte(four)); ok || a != 0 {
			t.Error("4 lines accepted")
		}
		dup := "Submarine 0 0 North\nSubmarine 1 0 North\nBattleship 2 0 North\nCarrier 3 0 North\nCruiser 4 0 North\n"
		if a, ok := g.ParseCommand(0, []byte(dup)); !ok || a != failPlacement(10) {
			t.Error("duplicate type not a failing placement")
		}
		f := [NumShips]Ship{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 0}, {X: 8, Y: 0, Dir: East}, {X: 4, Y: 0}}
		if ValidFleet(&f, 10) {
			t.Error("carrier at (8,0) East accepted")
		}
		f[Carrier] = Ship{X: 0, Y: 1}
		if ValidFleet(&f, 10) {
			t.Error("overlap accepted")
		}
		if _, ok := g.ParseCommand(0, []byte("Submarine  0 0 North\nDestroyer 1 0 North\nBattleship 2 0 North\nCarrier 3 0 North\nCruiser 4 0 North")); ok {
			t.Error("a double space accepted")
		}
	})
	t.Run("10_17_command_parsing", func(t *testing.T) {
		g := phase2(t, cfg)
		for _, tc := range []struct {
			text string
			want int32
			ok   bool
		}{
			{"1,3,4\r\n", CommandAction(10, 1, 3, 4), true},
			{"1,3", 0, false},
			{"1,3,4,5", 0, false},
			{"9,1,1", 0, true},
			{"0,0,0", 0, true},
			{" +8 , -1 ,\t2 ", CommandAction(10, 8, -1, 2), true},
			{"1,99999999999,1", 0, false},
			{"4,-50,7", CommandAction(10, 4, -3, 7), true},
		} {
			a, ok := g.ParseCommand(0, []byte(tc.text))
			if a != tc.want || ok != tc.ok {
				t.Errorf("%q: %d %v, want %d %v", tc.text, a, ok, tc.want, tc.ok)
			}
		}
	})
	t.Run("10_20_points_invariant_and_killoff", func(t *testing.T) {
		g := phase2(t, cfg)
		for range DoNothingLimit {
			step(g, 0, CommandAction(10, 1, 5, 5))
		}
		if g.done {
			t.Fatal("over before the 21st round")
		}
		step(g, 0, CommandAction(10, 1, 5, 6))
		p := g.players[0]
		if !p.Killed || p.Points != 0 || !g.done {
			t.Errorf("A after 20 do-nothings: killed %v points %d done %v", p.Killed, p.Points, g.done)
		}
		if w, _ := g.Outcome(); w != 1 {
			t.Errorf("winner %d, want B", w)
		}
		if b := g.players[1]; b.Points != 100 {
			t.Errorf("B points %d, want 100 (the kill: every A ship cell was shot)", b.Points)
		}
	})
	t.Run("b1_five_failed_placements_kill", func(t *testing.T) {
		g, _ := New(&Config{Placement: PlacementLearn})
		for range 5 {
			step(g, 0, 0)
		}
		if g.players[0].Failed != 5 || g.players[1].Failed != 0 {
			t.Fatalf("failed %d %d", g.players[0].Failed, g.players[1].Failed)
		}
		good := RandomFleet(g.r, 10)
		for k := range NumShips {
			step(g, 0, PlaceAction(10, int(good[k].X), int(good[k].Y), good[k].Dir))
		}
		if !g.done || !g.players[0].Killed || g.phase != 2 {
			t.Errorf("done %v killed %v phase %d", g.done, g.players[0].Killed, g.phase)
		}
	})
	t.Run("round_cap_truncates", func(t *testing.T) {
		g := phase2(t, &Config{Size: SizeSmall})
		setFleet(g, 0, placed{Submarine, 0, 0, North}, placed{Destroyer, 1, 0, North}, placed{Battleship, 2, 0, North}, placed{Carrier, 3, 0, North}, placed{Cruiser, 4, 0, North})
		setFleet(g, 1, placed{Submarine, 0, 0, North}, placed{Destroyer, 1, 0, North}, placed{Battleship, 2, 0, North}, placed{Carrier, 3, 0, North}, placed{Cruiser, 4, 0, North})
		var r [2]float32
		var te, tr [2]bool
		for !g.done {
			g.Step([]int32{CommandAction(7, 1, 6, 6), CommandAction(7, 1, 6, 5)}, r[:], te[:], tr[:])
		}
		if g.round != 55 || !tr[0] || !tr[1] || te[0] {
			t.Errorf("round %d trunc %v term %v", g.round, tr, te)
		}
		if w, draw := g.Outcome(); w != 0 || !draw || r[0] != 0 {
			t.Errorf("complete tie: winner %d draw %v reward %v", w, draw, r)
		}
	})
}
