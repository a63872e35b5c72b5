package bomberman

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func newTestGame(t *testing.T, players int, seed uint64) *Game {
	t.Helper()
	g, err := New(&Config{Players: players})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	return g
}

// plane returns plane c of an observation at 1-based (x, y), by the
// documented index formula.
func plane(g *Game, planes []byte, c, x, y int) byte {
	h, w := g.Height(), g.Width()
	return planes[c*h*w+(y-1)*w+(x-1)]
}

func scalar(scalars []byte, i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(scalars[4*i:]))
}

func TestObservationFollowsTheDocumentedLayout(t *testing.T) {
	g := newTestGame(t, 4, 1)
	obs := g.Spec().NewObsBuffers()
	if got, want := len(obs[0]), NumPlanes*21*21; got != want {
		t.Fatalf("planes are %d bytes, want %d", got, want)
	}
	for seat := range 4 {
		g.WriteObs(seat, obs)
		p := g.Player(seat)
		if plane(g, obs[0], PlaneSelf, p.X, p.Y) != 1 {
			t.Errorf("seat %d: self plane is not set at its player (%d,%d)", seat, p.X, p.Y)
		}
		for other := range 4 {
			if other == seat {
				continue
			}
			o := g.Player(other)
			if plane(g, obs[0], PlaneOpponents, o.X, o.Y) != 1 || plane(g, obs[0], PlaneSelf, o.X, o.Y) != 0 {
				t.Errorf("seat %d: opponent %d at (%d,%d) is not in the opponents plane only", seat, other, o.X, o.Y)
			}
		}
		if scalar(obs[1], ScalarBombBag) != 1 || scalar(obs[1], ScalarBombRadius) != 1 || scalar(obs[1], ScalarBombsLeft) != 1 {
			t.Errorf("seat %d: start bag/radius/bombs left scalars are not 1", seat)
		}
		if scalar(obs[1], ScalarAlive) != 1 || scalar(obs[1], ScalarOpponentsAlive) != 3 {
			t.Errorf("seat %d: alive %v, opponents alive %v", seat, scalar(obs[1], ScalarAlive), scalar(obs[1], ScalarOpponentsAlive))
		}
	}
	for y := 1; y <= 21; y++ {
		for x := 1; x <= 21; x++ {
			c := g.At(x, y)
			if got, want := plane(g, obs[0], PlaneIndestructible, x, y) == 1, c.Entity == IndestructibleWall; got != want {
				t.Errorf("(%d,%d): indestructible plane %v, cell %v", x, y, got, c.Entity)
			}
			if got, want := plane(g, obs[0], PlaneDestructible, x, y) == 1, c.Entity == DestructibleWall; got != want {
				t.Errorf("(%d,%d): destructible plane %v, cell %v", x, y, got, c.Entity)
			}
		}
	}
}

func TestObservationHidesPowerUpsUnderWalls(t *testing.T) {
	g := newTestGame(t, 4, 1)
	obs := g.Spec().NewObsBuffers()
	g.WriteObs(0, obs)
	hidden, visible := 0, 0
	for y := 1; y <= 21; y++ {
		for x := 1; x <= 21; x++ {
			c := g.At(x, y)
			seen := plane(g, obs[0], PlaneBagPowerUp, x, y) + plane(g, obs[0], PlaneRadiusPowerUp, x, y) + plane(g, obs[0], PlaneSuperPowerUp, x, y)
			switch {
			case c.PowerUp != NoPowerUp && c.Entity != NoEntity:
				hidden++
				if seen != 0 {
					t.Errorf("(%d,%d): power-up under %v is visible", x, y, c.Entity)
				}
			case c.PowerUp != NoPowerUp:
				visible++
				if seen != 1 {
					t.Errorf("(%d,%d): uncovered power-up is not visible", x, y)
				}
			}
		}
	}
	if hidden != 24 || visible != 1 {
		t.Errorf("hidden %d, visible %d power-ups; want 24 under walls and the centre's super", hidden, visible)
	}
	if plane(g, obs[0], PlaneSuperPowerUp, 11, 11) != 1 {
		t.Error("the super power-up at the centre is not visible")
	}
}

func TestDangerPlaneFollowsBlastRaysAndChains(t *testing.T) {
	g := newTestGame(t, 2, 1)
	// A at (2,2); a radius-2 bomb with timer 5 right of A at (3,2) and a
	// radius-2 bomb with timer 2 at (3,4) whose blast reaches the first
	// through (3,3): the chain makes the first bomb's cells dangerous in 2
	// rounds.
	g.cells[g.index(3, 3)].Entity = NoEntity
	g.cells[g.index(3, 4)].Entity = NoEntity
	g.cells[g.index(4, 2)].Entity = NoEntity
	g.cells[g.index(5, 2)].Entity = DestructibleWall
	g.stateChanged()
	addBomb(t, g, 0, 3, 2, 2, 5)
	addBomb(t, g, 1, 3, 4, 2, 2)
	obs := g.Spec().NewObsBuffers()
	g.WriteObs(0, obs)
	tests := []struct {
		name string
		x, y int
		want byte
	}{
		{"bomb_cell_takes_the_chain_fuse", 3, 2, 2},
		{"ray_passes_through_players", 2, 2, 2},
		{"ray_marks_the_destructible_wall_it_stops_at", 5, 2, 2},
		{"ray_stops_at_indestructible_walls", 3, 1, 0},
		{"second_bomb_own_fuse", 3, 4, 2},
		{"second_bomb_ray", 3, 3, 2},
		{"cells_out_of_reach_are_safe", 4, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plane(g, obs[0], PlaneDanger, tt.x, tt.y); got != tt.want {
				t.Errorf("danger at (%d,%d) = %d, want %d", tt.x, tt.y, got, tt.want)
			}
		})
	}
	if plane(g, obs[0], PlaneOwnBombs, 3, 2) != 5 || plane(g, obs[0], PlaneOpponentBombs, 3, 4) != 2 || plane(g, obs[0], PlaneBombRadius, 3, 4) != 2 {
		t.Error("bomb timer and radius planes do not show the planted bombs")
	}
}

func TestMaskAllowsWhatTheEngineAccepts(t *testing.T) {
	g := newTestGame(t, 4, 1)
	mask := make([]uint8, NumActions)
	// A at (2,2): walls up and left, clear right and down.
	g.WriteMask(0, mask)
	want := []uint8{DoNothing: 1, MoveUp: 0, MoveLeft: 0, MoveRight: 1, MoveDown: 1, PlaceBomb: 1, TriggerBomb: 0}
	for a := range NumActions {
		if mask[a] != want[a] {
			t.Errorf("start: %v = %d, want %d", Action(a), mask[a], want[a])
		}
	}
	t.Run("bomb_under_the_player_blocks_planting_and_allows_trigger", func(t *testing.T) {
		addBomb(t, g, 0, 2, 2, 1, 4)
		g.WriteMask(0, mask)
		if mask[PlaceBomb] != 0 || mask[TriggerBomb] != 1 {
			t.Errorf("bomb %d trigger %d, want 0 and 1", mask[PlaceBomb], mask[TriggerBomb])
		}
	})
	t.Run("moves_onto_bombs_are_illegal", func(t *testing.T) {
		addBomb(t, g, 1, 3, 2, 1, 4)
		g.WriteMask(0, mask)
		if mask[MoveRight] != 0 {
			t.Error("moving onto a bomb is allowed")
		}
	})
	t.Run("dead_seats_may_only_do_nothing", func(t *testing.T) {
		g.players[1].Killed = true
		g.WriteMask(1, mask)
		for a := 1; a < NumActions; a++ {
			if mask[a] != 0 {
				t.Errorf("dead seat may %v", Action(a))
			}
		}
	})
	t.Run("bombs_chained_to_a_timer_1_bomb_cannot_be_triggered", func(t *testing.T) {
		// Review finding D1: A's timer-5 bomb at (4,2) is reached by B's
		// timer-1 bomb at (3,2), so it explodes before commands.
		g := newTestGame(t, 4, 1)
		g.cells[g.index(4, 2)].Entity = NoEntity
		g.players[0].BombBag = 2
		addBomb(t, g, 0, 4, 2, 1, 5)
		addBomb(t, g, 1, 3, 2, 1, 1)
		g.WriteMask(0, mask)
		if mask[TriggerBomb] != 0 {
			t.Error("trigger is legal for a bomb the chain detonates first")
		}
		g.bombs[g.cells[g.index(3, 2)].bomb-1].Timer = 3
		g.stateChanged()
		g.WriteMask(0, mask)
		if mask[TriggerBomb] != 1 {
			t.Error("trigger is illegal although no bomb explodes this round")
		}
	})
}

// TestMaskAgreesWithTheEngine checks, over many states of random games, that
// an action is masked legal exactly when the engine's validation accepts it
// (the other seats doing nothing): Step on a copy of the game must count an
// invalid command for every masked-illegal action and none for a legal one.
func TestMaskAgreesWithTheEngine(t *testing.T) {
	checked, legal, doomed := 0, 0, 0
	defer func() {
		t.Logf("%d actions checked (%d legal), %d doomed seats", checked, legal, doomed)
		if checked < 1000 || legal < 200 || doomed == 0 {
			t.Errorf("too few cases: %d actions checked, %d legal, %d doomed seats", checked, legal, doomed)
		}
	}()
	for seed := range uint64(12) {
		g, err := New(&Config{Players: 4, ConsoleSeats: []int{0, 1, 2, 3}})
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		mask := make([]uint8, NumActions)
		acts := make([]int32, 4)
		rewards, term, trunc := make([]float32, 4), make([]bool, 4), make([]bool, 4)
		for !g.Done() {
			for seat := range 4 {
				if g.players[seat].Killed {
					continue
				}
				g.WriteMask(seat, mask)
				// A player standing in a blast that goes off before
				// commands dies doing nothing too; the engine ignores its
				// command, and the mask offers only do nothing.
				idle := *g
				clear(acts)
				idle.Step(acts, rewards, term, trunc)
				if idle.players[seat].Killed {
					doomed++
					for a := 1; a < NumActions; a++ {
						if mask[a] != 0 {
							t.Fatalf("seed %d round %d seat %d: doomed seat may %v", seed, g.Round(), seat, Action(a))
						}
					}
					continue
				}
				for a := 1; a < NumActions; a++ {
					c := *g
					clear(acts)
					acts[seat] = int32(a)
					before := c.Invalid(seat)
					c.Step(acts, rewards, term, trunc)
					rejected := c.Invalid(seat) > before
					checked++
					legal += int(mask[a])
					if rejected == (mask[a] == 1) {
						t.Fatalf("seed %d round %d seat %d: %v masked %d but the engine rejected=%v", seed, g.Round(), seat, Action(a), mask[a], rejected)
					}
				}
			}
			for seat := range acts {
				g.WriteMask(seat, mask)
				for {
					a := rng.IntN(NumActions)
					if mask[a] == 1 && (a != int(PlaceBomb) || rng.IntN(4) == 0) {
						acts[seat] = int32(a)
						break
					}
				}
			}
			g.Step(acts, rewards, term, trunc)
		}
	}
}

// TestCachedPlanesEqualAFullRebuild checks the incremental shared planes
// (walls and power-ups kept up to date by Step, the rest rebuilt each
// round) against planes rebuilt from scratch, over random games, with and
// without the touched planes and opponent scalars.
func TestCachedPlanesEqualAFullRebuild(t *testing.T) {
	for seed := range uint64(20) {
		cfg := &Config{Players: 4, TouchedPlanes: seed%2 == 1, OpponentScalars: seed%2 == 1}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		ref, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		obs, want := g.Spec().NewObsBuffers(), g.Spec().NewObsBuffers()
		acts := make([]int32, 4)
		rewards, term, trunc := make([]float32, 4), make([]bool, 4), make([]bool, 4)
		for round := 0; !g.Done(); round++ {
			for seat := range 4 {
				g.WriteObs(seat, obs)
				// The same state in a game whose caches are all cold.
				*ref = *g
				ref.obsShared = make([]byte, len(g.obsShared))
				ref.stateChanged()
				ref.WriteObs(seat, want)
				if !bytes.Equal(obs[0], want[0]) || !bytes.Equal(obs[1], want[1]) {
					t.Fatalf("seed %d round %d seat %d: cached observation differs from a full rebuild", seed, round, seat)
				}
			}
			for s := range acts {
				acts[s] = int32(rng.IntN(NumActions))
			}
			g.Step(acts, rewards, term, trunc)
		}
	}
}

// TestUpdateObsEqualsWriteObs drives games the way a pool does, with a
// row per seat updated by UpdateObs, and checks every row against WriteObs
// byte for byte after every step and reset: rows that miss a step
// (rewritten in full), rows updated twice, resets after the end of a game
// and in the middle of one, and random play with many bombs; with the
// 12 planes and 8 scalars, and with the touched planes (per-seat marks
// the delta brings up to date) and the opponent scalars; over the whole
// map and in the view_radius window (which moves with the player, so
// UpdateObs writes it in full).
func TestUpdateObsEqualsWriteObs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seeds uint64
		cfg   Config
	}{
		{"plain", 36, Config{}},
		{"touched_planes", 24, Config{TouchedPlanes: true}},
		{"touched_planes_and_opponent_scalars", 12, Config{TouchedPlanes: true, OpponentScalars: true}},
		{"view", 12, Config{ViewRadius: 10}},
		{"view_touched_planes", 12, Config{ViewRadius: 10, TouchedPlanes: true}},
		{"small_view_touched_planes_and_opponent_scalars", 12, Config{ViewRadius: 3, TouchedPlanes: true, OpponentScalars: true}},
	} {
		t.Run(tc.name, func(t *testing.T) { testUpdateObsEqualsWriteObs(t, tc.seeds, tc.cfg) })
	}
}

// testUpdateObsEqualsWriteObs is TestUpdateObsEqualsWriteObs for cfg
// (its Players set from the seed) over seeds seeds.
func testUpdateObsEqualsWriteObs(t *testing.T, seeds uint64, cfg Config) {
	for seed := range seeds {
		players := []int{4, 2, 8, 12}[seed%4]
		cfg.Players = players
		g, err := New(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.Reset(seed)
		rng := rand.New(rand.NewPCG(seed, 3))
		rows := testutil.NewObsRows(g, rng)
		acts := make([]int32, players)
		rewards, term, trunc := make([]float32, players), make([]bool, players), make([]bool, players)
		deltas := 0
		rows.Before = func(_ int, have uint64) {
			// The row holds the version the step's delta starts from
			// (never the current one), so UpdateObs applies the delta.
			if have != 0 && have == g.delta.from {
				deltas++
			}
		}
		for step := range 400 {
			rows.Sync(t, "seed %d step %d (delta from %d, full %v)", seed, step, g.delta.from, g.delta.full)
			switch {
			case g.Done() || rng.IntN(60) == 0:
				g.Reset(rng.Uint64())
			default:
				for s := range acts {
					acts[s] = int32(rng.IntN(NumActions))
				}
				g.Step(acts, rewards, term, trunc)
			}
		}
		if cfg.ViewRadius == 0 && deltas < 400 {
			t.Errorf("seed %d, %d players: only %d delta updates", seed, players, deltas)
		}
	}
}
