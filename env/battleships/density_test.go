package battleships

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestShotMaskLeavesOutShotsThatLandOnlyOnShotCells checks the shot mask
// case by case on the medium map, seat 0 firing at B's standard fleet
// (phase2) with energy for every weapon: a shot stays legal exactly when
// an on-map cell it can land on is not yet shot (missed or damaged); a
// shield-hit cell is not shot; without shot_mask the mask is the legal
// actions.
func TestShotMaskLeavesOutShotsThatLandOnlyOnShotCells(t *testing.T) {
	cases := []struct {
		name       string
		off        bool     // shot_mask false
		shot       [][2]int // B's cells hit before (Submarine at (0,0)-(0,2), water at (1,*))
		shieldHit  [][2]int // B's cells whose shield stopped a shot
		code, x, y int
		want       bool
	}{
		{name: "single_at_a_missed_cell_is_masked", shot: [][2]int{{5, 5}}, code: CodeSingle, x: 5, y: 5, want: false},
		{name: "single_at_a_damaged_cell_is_masked", shot: [][2]int{{0, 1}}, code: CodeSingle, x: 0, y: 1, want: false},
		{name: "single_at_an_unshot_cell_stays", shot: [][2]int{{5, 5}}, code: CodeSingle, x: 5, y: 6, want: true},
		{name: "single_at_a_shield_hit_cell_stays", shieldHit: [][2]int{{5, 5}}, code: CodeSingle, x: 5, y: 5, want: true},
		{name: "without_shot_mask_a_shot_cell_stays", off: true, shot: [][2]int{{5, 5}}, code: CodeSingle, x: 5, y: 5, want: true},
		{name: "cross_with_one_unshot_cell_stays", shot: [][2]int{{4, 5}, {5, 4}, {5, 5}, {5, 6}}, code: CodeCross, x: 5, y: 5, want: true},
		{name: "cross_with_every_cell_shot_is_masked", shot: [][2]int{{4, 5}, {5, 4}, {5, 5}, {5, 6}, {6, 5}}, code: CodeCross, x: 5, y: 5, want: false},
		{name: "corner_pattern_clipped_to_one_shot_cell_is_masked", shot: [][2]int{{1, 1}}, code: CodeCorner, x: 0, y: 0, want: false},
		{name: "double_with_its_centre_unshot_is_masked", shot: [][2]int{{5, 4}, {5, 6}}, code: CodeDoubleVertical, x: 5, y: 5, want: false},
		{name: "double_with_one_unshot_end_stays", shot: [][2]int{{4, 5}}, code: CodeDoubleHorizontal, x: 5, y: 5, want: true},
		{name: "seeker_with_every_reachable_cell_shot_is_masked", shot: [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 0}}, code: CodeSeeker, x: 0, y: 0, want: false},
		{name: "seeker_with_one_reachable_cell_unshot_stays", shot: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}}, code: CodeSeeker, x: 0, y: 0, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := phase2(t, &Config{ShotMask: !tc.off})
			g.players[0].Energy = 200
			for _, c := range tc.shot {
				g.players[1].cells[c[0]*g.n+c[1]].Hit = true
			}
			for _, c := range tc.shieldHit {
				g.players[1].cells[c[0]*g.n+c[1]].ShieldHit = true
			}
			mask := make([]uint8, g.spec.Actions)
			g.WriteMask(0, mask)
			if got := mask[CommandAction(g.n, tc.code, tc.x, tc.y)] != 0; got != tc.want {
				t.Errorf("code %d at (%d,%d) legal %v, want %v", tc.code, tc.x, tc.y, got, tc.want)
			}
			if mask[0] != 1 {
				t.Error("do nothing left out")
			}
		})
	}
}

// TestShotMaskNeverShootsACellTwice: random play that takes only actions
// the shot mask leaves legal never fires a single shot at a cell already
// shot, and the mask is the plain mask less those shots.
func TestShotMaskNeverShootsACellTwice(t *testing.T) {
	for _, size := range sizes {
		for seed := range uint64(4) {
			plain, _ := New(&Config{Size: size, Placement: PlacementLearn})
			rng := rand.New(rand.NewPCG(seed, 7))
			var mask, want []uint8
			playSeeded(t, &Config{Size: size, Placement: PlacementLearn, ShotMask: true}, seed, func(g *Game, s int) int32 {
				if mask == nil {
					mask, want = make([]uint8, g.spec.Actions), make([]uint8, g.spec.Actions)
				}
				g.WriteMask(s, mask)
				*plain = *g
				plain.cfg.ShotMask = false
				plain.WriteMask(s, want)
				for a := range want {
					if d := decode(g.n, int32(a)); d.kind == actCommand && d.code <= CodeSeeker && g.shotIsWasted(s, d.code, d.x, d.y) {
						want[a] = 0
					}
				}
				if !bytes.Equal(mask, want) {
					t.Fatalf("%s seed %d round %d seat %d: the shot mask is not the legal actions less the wasted shots", size, seed, g.round, s)
				}
				a := testutil.RandomLegal(rng, mask)
				if d := decode(g.n, a); d.kind == actCommand && d.code == CodeSingle && g.players[1-s].cells[d.x*g.n+d.y].Hit {
					t.Fatalf("%s seed %d: seat %d fired at (%d,%d) again", size, seed, s, d.x, d.y)
				}
				return a
			})
		}
	}
}

// playSeeded plays a game of cfg reset with seed to its end, each seat's
// action from act (called seat after seat each step, before the step).
func playSeeded(t *testing.T, cfg *Config, seed uint64, act func(g *Game, seat int) int32) {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	acts := make([]int32, Seats)
	var r [Seats]float32
	var te, tr [Seats]bool
	for !g.done {
		for s := range Seats {
			acts[s] = act(g, s)
		}
		g.Step(acts, r[:], te[:], tr[:])
	}
}

// densityPlane returns seat's PlaneOppDensity as WriteObs writes it,
// indexed x*N + y.
func densityPlane(g *Game, seat int) []byte {
	obs := g.spec.NewObsBuffers()
	g.WriteObs(seat, obs)
	nn := g.n * g.n
	out := make([]byte, nn)
	for x := range g.n {
		for y := range g.n {
			out[x*g.n+y] = obs[0][PlaneOppDensity*nn+y*g.n+x]
		}
	}
	return out
}

// TestDensityPlaneShowsHuntersDensity checks the density plane's rules on
// the medium map against B's standard fleet (phase2): 13 planes; a cell
// already shot reads 0; before any hit the centre is likelier than a
// corner; a neighbour of a lone hit is the likeliest cell (255) and the
// others are near it, far above the cells away from it; once the Destroyer sinks, its hits are put down to it and no
// longer draw shots; the twelve other planes are those without the
// plane; and a loaded state shows the same plane.
func TestDensityPlaneShowsHuntersDensity(t *testing.T) {
	g := phase2(t, &Config{DensityPlane: true})
	if got := g.spec.Obs[0].Shape[0]; got != NumPlanes+1 {
		t.Fatalf("%d planes, want %d", got, NumPlanes+1)
	}
	n := g.n
	d := densityPlane(g, 0)
	if d[5*n+5] <= d[0] {
		t.Errorf("unshot map: centre %d, corner %d: want the centre likelier", d[5*n+5], d[0])
	}
	// A misses at (9,9); B's Battleship is at (4,0)-(4,3): A hits (4,2).
	step(g, CommandAction(n, CodeSingle, 9, 9), 0)
	step(g, CommandAction(n, CodeSingle, 4, 2), 0)
	d = densityPlane(g, 0)
	if d[9*n+9] != 0 || d[4*n+2] != 0 {
		t.Errorf("shot cells read %d and %d, want 0", d[9*n+9], d[4*n+2])
	}
	top := byte(0)
	for _, c := range [][2]int{{3, 2}, {5, 2}, {4, 1}, {4, 3}} {
		v := d[c[0]*n+c[1]]
		top = max(top, v)
		if v < 150 {
			t.Errorf("neighbour (%d,%d) of the lone hit reads %d, want at least 150", c[0], c[1], v)
		}
	}
	if top != 255 {
		t.Errorf("the likeliest neighbour of the lone hit reads %d, want 255", top)
	}
	if v := d[7*n+7]; v > 20 {
		t.Errorf("a far cell reads %d with a hit unresolved, want little", v)
	}
	// The Destroyer, (2,0)-(2,1), sinks.
	step(g, CommandAction(n, CodeSingle, 2, 0), 0)
	before := densityPlane(g, 0)[3*n+0]
	step(g, CommandAction(n, CodeSingle, 2, 1), 0)
	if !g.players[1].Ships[Destroyer].Destroyed {
		t.Fatal("the Destroyer did not sink")
	}
	if tr := &g.seen[0]; !tr.sunk[Destroyer] || !tr.sunkCell[2*n+0] || !tr.sunkCell[2*n+1] || tr.sunkCell[4*n+2] {
		t.Errorf("sunk cells not put down to the Destroyer alone: %v %v %v %v", tr.sunk[Destroyer], tr.sunkCell[2*n+0], tr.sunkCell[2*n+1], tr.sunkCell[4*n+2])
	}
	d = densityPlane(g, 0)
	if d[3*n+0] >= before {
		t.Errorf("(3,0), next to the sunk Destroyer, reads %d, %d before it sank: want less", d[3*n+0], before)
	}
	if d[4*n+1] < 150 {
		t.Errorf("(4,1), next to the Battleship's unresolved hit, reads %d, want at least 150", d[4*n+1])
	}
	// The other planes are those of a game without the plane.
	plain := *g
	plain.cfg.DensityPlane, plain.planes = false, NumPlanes
	plain.spec = newSpec("battleships", &plain.cfg)
	a, b := g.spec.NewObsBuffers(), plain.spec.NewObsBuffers()
	g.WriteObs(0, a)
	plain.WriteObs(0, b)
	if !bytes.Equal(a[0][:NumPlanes*n*n], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Error("the twelve planes or the scalars differ with the density plane")
	}
	// LoadNative rebuilds what each seat knows.
	full, err := g.AppendNative(nil, FormatStateJSON, -1)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := New(&Config{DensityPlane: true})
	if err := h.LoadNative(full); err != nil {
		t.Fatal(err)
	}
	if got := densityPlane(h, 0); !bytes.Equal(got, d) {
		t.Error("a loaded state shows another density plane")
	}
}

// TestDensityPlaneIsHuntersReckoning: in games of hunter against hunter,
// each seat's density plane is hunter's own density (before its shield
// rule), scaled to 255 at the likeliest cell, whenever hunter has read
// the state of the round (it skips that when it raises its shield).
func TestDensityPlaneIsHuntersReckoning(t *testing.T) {
	for _, size := range sizes {
		for seed := range uint64(3) {
			hs := [Seats]*Hunter{{}, {}}
			checked := 0
			playSeeded(t, &Config{Size: size, Placement: PlacementLearn, DensityPlane: true}, seed, func(g *Game, s int) int32 {
				if g.steps == 0 {
					hs[s].Reset(g, s, seed*2+uint64(s))
				}
				n := g.n
				a := hs[s].Act(g, s)
				if g.phase != 2 || hs[s].t != g.seen[s] {
					return a
				}
				var prob, dens [MaxCells]float32
				hs[s].t.density(n, &prob, &dens)
				top := float32(0)
				for _, p := range prob[:n*n] {
					top = max(top, p)
				}
				d := densityPlane(g, s)
				for i := range n * n {
					want := byte(0)
					if top > 0 {
						want = byte(prob[i]*(255/top) + 0.5)
					}
					if d[i] != want {
						t.Fatalf("%s seed %d round %d seat %d cell %d: plane %d, hunter's density %d", size, seed, g.round, s, i, d[i], want)
					}
				}
				checked++
				return a
			})
			if checked < 10 {
				t.Errorf("%s seed %d: only %d rounds checked", size, seed, checked)
			}
		}
	}
}

// TestShotMaskAndDensityPlaneDoNotAllocate: Step, WriteObs, UpdateObs,
// WriteMask and UpdateMask with both options (and shield_mask) never
// allocate.
func TestShotMaskAndDensityPlaneDoNotAllocate(t *testing.T) {
	g, _ := New(&Config{Size: SizeSmall, ShotMask: true, DensityPlane: true, ShieldMask: true})
	obs, row := g.spec.NewObsBuffers(), g.spec.NewObsBuffers()
	mask := make([]uint8, g.spec.Actions)
	acts := []int32{0, 0}
	r := make([]float32, 2)
	te, tr := make([]bool, 2), make([]bool, 2)
	ver := g.UpdateObs(1, row, 0)
	mver := g.UpdateMask(0, mask, 0)
	seed := uint64(0)
	n := testing.AllocsPerRun(200, func() {
		acts[0] = CommandAction(7, CodeSingle, int(seed%7), int(seed/7%7))
		acts[1] = CommandAction(7, CodeSingle, int(seed/7%7), int(seed%7))
		g.Step(acts, r, te, tr)
		g.WriteObs(0, obs)
		ver = g.UpdateObs(1, row, ver)
		mver = g.UpdateMask(0, mask, mver)
		if seed++; seed%40 == 0 {
			g.Reset(seed)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per step", n)
	}
}

// TestDensityPlaneIsRewrittenOnlyWhenTheSeatLearns: each seat's density
// plane is kept from what the seat knew before (Game.writeDensity), so
// after a round in which seat 0 shot nothing (it learned nothing),
// UpdateObs from the row's version leaves seat 0's density plane as it
// was, on every size (TestUpdateObsEqualsWriteObs checks the rows against
// WriteObs).
func TestDensityPlaneIsRewrittenOnlyWhenTheSeatLearns(t *testing.T) {
	for _, cfg := range []*Config{
		{Size: SizeSmall, Placement: PlacementLearn, ShotMask: true, DensityPlane: true},
		{Size: SizeMedium, DensityPlane: true},
		{Size: SizeLarge, Placement: PlacementReference, ShotMask: true, DensityPlane: true},
	} {
		g := phase2(t, cfg)
		n := g.n
		step(g, CommandAction(n, CodeSingle, 0, 0), CommandAction(n, CodeSingle, 1, 1))
		testutil.WantUpdateKeepsUnchanged(t, g, func() {
			step(g, 0, CommandAction(n, CodeSingle, 2, 2))
		}, PlaneOppDensity*n*n+(n-1)*n+n-1) // cell (n-1, n-1), never shot
	}
}
