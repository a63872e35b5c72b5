package bomberman

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestConformance reproduces the original engine's unit tests (spec §9), one
// subtest per test, named after it. The §9 map-symbol test (row 10) belongs
// to the native-format code. Tests of C# internals (GameBlock, GameMap,
// PowerUp) check our equivalent of the behaviour they pin down.
func TestConformance(t *testing.T) {
	t.Run("TestPlayerMovementCommand", func(t *testing.T) {
		g := generated(t, 4, PowerUpsRandom, 1)
		if p := g.Player(0); p.X != 2 || p.Y != 2 {
			t.Fatalf("A at (%d,%d), want (2,2)", p.X, p.Y)
		}
		if !g.placeBomb(0) {
			t.Fatal("plant under A rejected")
		}
		g.bombs[g.cells[g.index(2, 2)].bomb-1].Timer = 2
		g.scratch.nMoves = 0
		if g.requestMove(0, MoveUp) {
			t.Error("Up into the border wall accepted")
		}
		if g.requestMove(0, MoveLeft) {
			t.Error("Left into the border wall accepted")
		}
		if !g.requestMove(0, MoveRight) {
			t.Error("Right rejected")
		}
		if g.requestMove(0, MoveRight) {
			t.Error("a second move in the same transaction accepted")
		}
		g.resolveCollisions()
		g.executeMoves()
		if p := g.Player(0); p.X != 3 || p.Y != 2 {
			t.Errorf("A at (%d,%d), want (3,2)", p.X, p.Y)
		}
		if g.requestMove(0, MoveLeft) {
			t.Error("Left back onto the bomb accepted")
		}

		g = generated(t, 4, PowerUpsRandom, 1)
		step(t, g, MoveDown)
		if p := g.Player(0); p.X != 2 || p.Y != 3 {
			t.Errorf("on a fresh map Down moved A to (%d,%d), want (2,3)", p.X, p.Y)
		}
	})

	t.Run("TestPlayerCollidingMovementCommand", func(t *testing.T) {
		wins := [2]int{}
		for seed := range uint64(64) {
			g := board(t, "A.B")
			g.rng.Seed(seed, ^seed)
			step(t, g, MoveRight, MoveLeft)
			a, b := g.Player(0), g.Player(1)
			if a.X == b.X {
				t.Fatalf("seed %d: both players at x=%d", seed, a.X)
			}
			switch {
			case a.X == 2 && b.X == 3:
				wins[0]++
			case a.X == 1 && b.X == 2:
				wins[1]++
			default:
				t.Fatalf("seed %d: A at x=%d, B at x=%d; want exactly one to move", seed, a.X, b.X)
			}
			if g.Invalid(0)+g.Invalid(1) != 0 {
				t.Errorf("seed %d: a collision counted as an invalid command", seed)
			}
		}
		if wins[0] == 0 || wins[1] == 0 {
			t.Errorf("collision outcomes over 64 seeds: A won %d, B won %d; want both to occur", wins[0], wins[1])
		}
	})

	t.Run("TestPlacingBombCommand", func(t *testing.T) {
		g := board(t, "A.")
		if !g.placeBomb(0) {
			t.Fatal("plant rejected")
		}
		if g.placeBomb(0) {
			t.Error("a second plant on the same cell accepted")
		}
		g.scratch.nMoves = 0
		if !g.requestMove(0, MoveRight) {
			t.Fatal("Right off the bomb rejected")
		}
		g.executeMoves()
		if g.placeBomb(0) {
			t.Error("plant with the bag used up accepted")
		}
		cmds := [MaxPlayers]Action{PlaceBomb}
		g.runCommands(&cmds)
		if g.Invalid(0) != 1 {
			t.Errorf("rejected plant counted %d invalid, want 1", g.Invalid(0))
		}
	})

	t.Run("TestBlockLocation", func(t *testing.T) {
		g := emptyFixture(t)
		want := 0
		for y := 1; y <= g.height; y++ {
			for x := 1; x <= g.width; x++ {
				if i := g.index(x, y); i != want {
					t.Fatalf("index(%d,%d) = %d, want %d", x, y, i, want)
				}
				want++
			}
		}
		if p := g.Player(0); p.X != 1 || p.Y != 1 || g.At(1, 1).Entity != PlayerEntity || g.At(1, 1).Player != 0 {
			t.Error("cell (1,1) does not report A at (1,1)")
		}
	})

	t.Run("TestBlockSetEntity", func(t *testing.T) {
		g := emptyFixture(t)
		teleport(t, g, 0, 3, 2)
		p := g.Player(0)
		if p.X != 3 || p.Y != 2 || !g.At(3, 2).Touched(0) || p.Touched != 2 {
			t.Errorf("after placing A on (3,2): at (%d,%d), touched %v, count %d; want (3,2), true, 2", p.X, p.Y, g.At(3, 2).Touched(0), p.Touched)
		}
		teleport(t, g, 0, 1, 1)
		if g.Player(0).Touched != 2 {
			t.Errorf("re-placing on a touched cell counted again: %d", g.Player(0).Touched)
		}
		// A second entity is refused: a move into an occupied cell fails.
		teleport(t, g, 1, 2, 1)
		step(t, g, MoveRight)
		if p := g.Player(0); p.X != 1 {
			t.Errorf("A moved into B's cell")
		}
		// Clearing: a destroyed entity leaves the cell empty.
		g.cells[g.index(4, 4)].Entity = DestructibleWall
		teleport(t, g, 0, 4, 3)
		plant(t, g, 0, 0)
		walk(t, g, 0, 3, 2)
		runUntilNoBombs(t, g)
		if c := g.At(4, 4); c.Entity != NoEntity {
			t.Errorf("destroyed wall left %v", c.Entity)
		}
	})

	t.Run("TestBlockSetPowerUp", func(t *testing.T) {
		// One power-up per cell: the generator never places a second one on
		// a cell, so every power-up it wanted is on the map.
		g := generated(t, 4, PowerUpsRandom, 1)
		bags, radii, supers := countPowerUps(g)
		if bags != 8 || radii != 16 || supers != 1 {
			t.Errorf("power-ups: %d bags, %d radius, %d super; want 8, 16, 1", bags, radii, supers)
		}
	})

	t.Run("TestBlockApplyPowerUp", func(t *testing.T) {
		g := board(t,
			"A&...",
			"+....",
			"....B",
		)
		g.cells[g.index(1, 2)].PowerUp = BombRadiusPowerUp // under a wall
		g.cells[g.index(4, 1)].PowerUp = SuperPowerUp      // no entity
		step(t, g)                                         // players on cells without power-ups
		if p := g.Player(0); p.BombBag != 1 || p.BombRadius != 1 {
			t.Errorf("A changed without a power-up: bag %d radius %d", p.BombBag, p.BombRadius)
		}
		if g.At(1, 2).PowerUp != BombRadiusPowerUp || g.At(4, 1).PowerUp != SuperPowerUp {
			t.Error("a power-up with no player on it was used up")
		}
		step(t, g, MoveRight)
		if p := g.Player(0); p.BombBag != 2 {
			t.Errorf("A's bag %d after the bag power-up, want 2", p.BombBag)
		}
		if g.At(2, 1).PowerUp != NoPowerUp {
			t.Error("applied power-up not removed")
		}
	})

	t.Run("TestPlantingBomb", func(t *testing.T) {
		for _, tt := range []struct{ bag, timer int }{{1, 4}, {2, 7}, {3, 10}, {5, 10}} {
			g := emptyFixture(t)
			g.players[0].BombBag = tt.bag
			g.players[0].BombRadius = 2
			step(t, g, PlaceBomb)
			b, ok := g.BombAt(1, 1)
			if !ok {
				t.Fatalf("bag %d: no bomb", tt.bag)
			}
			want := Bomb{Owner: 0, X: 1, Y: 1, Radius: 2, Timer: tt.timer, live: true}
			if b != want {
				t.Errorf("bag %d: bomb %+v, want %+v", tt.bag, b, want)
			}
			step(t, g, PlaceBomb)
			if g.bombsOnMap(0) != 1 || g.Invalid(0) != 1 {
				t.Errorf("bag %d: a second bomb on the cell: %d bombs, %d invalid; want 1, 1", tt.bag, g.bombsOnMap(0), g.Invalid(0))
			}
		}
		// Planting needs a living player: a dead seat's plant is ignored.
		g := emptyFixture(t)
		g.players[1].Killed = true
		lift(g, 1)
		step(t, g, DoNothing, PlaceBomb)
		if _, ok := g.BombAt(5, 5); ok || g.Invalid(1) != 0 {
			t.Errorf("dead seat planted (bomb %v, invalid %d)", ok, g.Invalid(1))
		}
	})

	t.Run("TestRemovingBomb", func(t *testing.T) {
		g := emptyFixture(t)
		plant(t, g, 0, 0) // timer 4
		walk(t, g, 0, 2, 2)
		idle(t, g, 1)
		if b, ok := g.BombAt(1, 1); !ok || b.Timer != 1 {
			t.Fatalf("bomb not exploding yet should stay (ok %v, %+v)", ok, b)
		}
		idle(t, g, 1)
		if _, ok := g.BombAt(1, 1); ok {
			t.Error("exploded bomb not removed")
		}
		if g.bombsOnMap(0) != 0 {
			t.Error("bag slot not returned")
		}
	})

	t.Run("TestGettingGameBlock", func(t *testing.T) {
		g := emptyFixture(t)
		w, h := g.Width(), g.Height()
		for _, c := range [][2]int{{0, 0}, {w + 1, 0}, {0, h + 1}, {w + 1, h + 1}, {0, 1}, {1, 0}} {
			if g.InBounds(c[0], c[1]) {
				t.Errorf("(%d,%d) in bounds", c[0], c[1])
			}
			if _, ok := g.BombAt(c[0], c[1]); ok {
				t.Errorf("BombAt(%d,%d) found a bomb", c[0], c[1])
			}
			testutil.WantPanic(t, fmt.Sprintf("At(%d,%d)", c[0], c[1]), "", func() { g.At(c[0], c[1]) })
		}
		if !g.InBounds(1, 1) || !g.InBounds(w, h) {
			t.Error("corner cells out of bounds")
		}
	})

	t.Run("TestGeneratedMap", func(t *testing.T) {
		g := generated(t, 4, PowerUpsRandom, 1)
		if g.Players() != 4 || g.MapSeed() != 1 {
			t.Fatalf("players %d, map seed %d; want 4, 1", g.Players(), g.MapSeed())
		}
		w, h := g.Width(), g.Height()
		want := [][2]int{{2, 2}, {w - 1, h - 1}, {2, h - 1}, {w - 1, 2}}
		for s, xy := range want {
			if p := g.Player(s); p.X != xy[0] || p.Y != xy[1] || g.At(p.X, p.Y).Entity != PlayerEntity || !g.At(p.X, p.Y).Touched(s) {
				t.Errorf("seat %d at (%d,%d), want (%d,%d) on a touched cell", s, p.X, p.Y, xy[0], xy[1])
			}
		}
		cx, cy := w/2+1, h/2+1
		for y := 1; y <= h; y++ {
			for x := 1; x <= w; x++ {
				pillar := x == 1 || y == 1 || x == w || y == h || (x%2 == 1 && y%2 == 1)
				if x == cx && y == cy {
					pillar = false
				}
				if got := g.At(x, y).Entity == IndestructibleWall; got != pillar {
					t.Errorf("(%d,%d): indestructible %v, want %v", x, y, got, pillar)
				}
			}
		}
		if g.At(cx, cy).PowerUp != SuperPowerUp {
			t.Error("no super power-up in the centre")
		}
		_, wallSum, powerUpSum := checksums(g)
		if wallSum != 204886 || powerUpSum != 1130096 {
			t.Errorf("checksums %d / %d, want 204886 / 1130096", wallSum, powerUpSum)
		}
		bags, radii, _ := countPowerUps(g)
		if bags != 8 || radii != 16 {
			t.Errorf("%d bags and %d radius power-ups, want 8 and 16", bags, radii)
		}
		if g.usable != 281 {
			t.Errorf("usable %d, want 281", g.usable)
		}
	})

	t.Run("TestEnumerator", func(t *testing.T) {
		// Trigger ties go to the first bomb in row-major order (y outer).
		g := board(t,
			"A....",
			".....",
			"....B",
		)
		g.players[0].BombBag = 2
		teleport(t, g, 0, 3, 1)
		plant(t, g, 0, 6)
		teleport(t, g, 0, 1, 2)
		plant(t, g, 0, 0)
		teleport(t, g, 0, 1, 3)
		if b, _ := g.BombAt(3, 1); b.Timer != 5 {
			t.Fatalf("(3,1) timer %d, want 5", b.Timer)
		}
		g.bombs[g.cells[g.index(1, 2)].bomb-1].Timer = 5
		step(t, g, TriggerBomb)
		b1, _ := g.BombAt(3, 1)
		b2, _ := g.BombAt(1, 2)
		if b1.Timer != 1 || b2.Timer != 4 {
			t.Errorf("trigger set timers (3,1)=%d (1,2)=%d; want 1 and 4", b1.Timer, b2.Timer)
		}
		// The destroy pass runs row-major: the killed list is in that order.
		g = board(t,
			"..B..",
			".....",
			"A...C",
		)
		step(t, g, PlaceBomb, PlaceBomb, PlaceBomb)
		for range 4 {
			step(t, g)
		}
		if g.scratch.nKilled != 3 || g.scratch.killed[0] != 1 || g.scratch.killed[1] != 0 || g.scratch.killed[2] != 2 {
			t.Errorf("killed order %v, want [1 0 2] (row-major)", g.scratch.killed[:g.scratch.nKilled])
		}
	})

	t.Run("TestPlayerBombCount", func(t *testing.T) {
		g := emptyFixture(t)
		if n := g.bombsOnMap(0); n != 0 {
			t.Errorf("bomb count %d before planting", n)
		}
		step(t, g, PlaceBomb)
		if n := g.bombsOnMap(0); n != 1 {
			t.Errorf("bomb count %d after planting, want 1", n)
		}
	})

	t.Run("TestBombagPowerUp", func(t *testing.T) {
		g := board(t, "A&..B")
		step(t, g, MoveRight)
		if p := g.Player(0); p.BombBag != 2 {
			t.Errorf("bag %d, want 2", p.BombBag)
		}
	})

	t.Run("TestBombagPowerRadius", func(t *testing.T) {
		g := board(t, "A!$.B")
		g.players[0].BombRadius = 2
		step(t, g, MoveRight)
		if p := g.Player(0); p.BombRadius != 4 || p.BombBag != 1 {
			t.Errorf("radius %d bag %d, want 4 and 1", p.BombRadius, p.BombBag)
		}
		step(t, g, MoveRight) // the super power-up: bag +1, radius ×2, +50
		if p := g.Player(0); p.BombRadius != 8 || p.BombBag != 2 || p.Counter != 50 {
			t.Errorf("after super: radius %d bag %d counter %d, want 8, 2, 50", p.BombRadius, p.BombBag, p.Counter)
		}
	})

	t.Run("TestAddPlayerCommand", func(t *testing.T) {
		g := emptyFixture(t)
		var cmds [MaxPlayers]Action
		if n := g.harness([]int32{0, int32(PlaceBomb)}, &cmds); n != 2 {
			t.Errorf("received %d commands from 2 living players, want 2", n)
		}
		g.players[1].Killed = true
		lift(g, 1)
		if n := g.harness([]int32{0, int32(PlaceBomb)}, &cmds); n != 1 || cmds[1] != noCommand {
			t.Errorf("a dead player's command was received (%d commands, B sends %v)", n, cmds[1])
		}
	})

	t.Run("TestPlayerMoveIntoBombBlast", func(t *testing.T) {
		g := emptyFixture(t)
		walk(t, g, 0, 4, 4)
		act(t, g, 1, PlaceBomb)
		for b, _ := g.BombAt(5, 5); b.Timer > 1; b, _ = g.BombAt(5, 5) {
			step(t, g)
		}
		r := step(t, g, MoveDown)
		if !g.Player(0).Killed || !g.Player(1).Killed {
			t.Fatalf("killed: A %v, B %v; want both", g.Player(0).Killed, g.Player(1).Killed)
		}
		if p := g.Player(0); p.X != 4 || p.Y != 5 {
			t.Errorf("A died at (%d,%d), want (4,5)", p.X, p.Y)
		}
		if !g.Done() || !r.terminated[0] || !r.terminated[1] || r.truncated[0] || r.truncated[1] {
			t.Errorf("game over by elimination: done %v, %v", g.Done(), r)
		}
		// A: −100 + 28 coverage (7 cells); B: −100 + 4: A leads.
		if a, b := g.Player(0).Points(), g.Player(1).Points(); a != -72 || b != -96 {
			t.Errorf("points A %d B %d, want -72 -96", a, b)
		}
		if r.rewards[0] != 1 || r.rewards[1] != -1 {
			t.Errorf("rewards %v, want [1 -1]", r.rewards)
		}
	})

	t.Run("TestPlayersBumbIntoEachOther", func(t *testing.T) {
		g := emptyFixture(t)
		teleport(t, g, 0, 3, 3)
		teleport(t, g, 1, 5, 3)
		g.scratch.nMoves = 0
		g.requestMove(0, MoveRight)
		g.requestMove(1, MoveLeft)
		if g.Player(0).X != 3 || g.Player(1).X != 5 {
			t.Error("a player moved before the round was processed")
		}
	})

	moves := []struct {
		name    string
		before  []string
		actions []Action
		after   []string
		invalid [2]int
	}{
		{"TestPlayersAdjacentPlayersMovingInSameDirection", []string{"AB..."}, []Action{MoveRight, MoveRight}, []string{".AB.."}, [2]int{}},
		{"TestPlayersAdjacentPlayersMovingInSameDirectionFail", []string{"AB..."}, []Action{MoveRight, DoNothing}, []string{"AB..."}, [2]int{}},
		{"TestPlayersAdjacentPlayersMovingTowardsEachOther", []string{"AB..."}, []Action{MoveRight, MoveLeft}, []string{"AB..."}, [2]int{}},
		{"TestPlayerMovingIntoWall", []string{"AB#.."}, []Action{MoveRight, MoveRight}, []string{"AB#.."}, [2]int{0, 1}},
	}
	for _, tt := range moves {
		t.Run(tt.name, func(t *testing.T) {
			g := board(t, tt.before...)
			step(t, g, tt.actions...)
			assertBoard(t, g, tt.after...)
			if got := [2]int{g.Invalid(0), g.Invalid(1)}; got != tt.invalid {
				t.Errorf("invalid %v, want %v", got, tt.invalid)
			}
		})
	}

	t.Run("TestBombChaining", func(t *testing.T) {
		g := emptyFixture(t)
		g.players[0].BombRadius = 4
		walk(t, g, 0, 3, 3)
		walk(t, g, 1, 5, 3)
		plant(t, g, 0, 0)
		idle(t, g, 1)
		plant(t, g, 1, 0)
		for {
			a, okA := g.BombAt(3, 3)
			b, okB := g.BombAt(5, 3)
			if !okA || !okB {
				t.Fatalf("a bomb vanished early (A %v, B %v)", okA, okB)
			}
			step(t, g)
			if a.Timer == 1 {
				if b.Timer <= 1 {
					t.Fatalf("B's bomb timer %d would have exploded on its own", b.Timer)
				}
				break
			}
		}
		_, okA := g.BombAt(3, 3)
		_, okB := g.BombAt(5, 3)
		if okA || okB {
			t.Errorf("bombs left after A's exploded: A %v, B %v; want both exploded together", okA, okB)
		}
		if !g.At(5, 2).Exploding() {
			t.Error("(5,2), reached only by B's bomb, is not exploding")
		}
	})

	t.Run("TwoBombsSameEntity", func(t *testing.T) {
		g := board(t,
			".....",
			".....",
			".A+B.",
			".....",
			".....",
		)
		step(t, g, PlaceBomb, PlaceBomb)
		teleport(t, g, 0, 3, 1)
		teleport(t, g, 1, 2, 1)
		runUntilNoBombs(t, g)
		if a, b := pts(g, 0), pts(g, 1); a != 10 || b != 10 {
			t.Errorf("pts A %d B %d, want 10 10", a, b)
		}
	})

	t.Run("TwoBombsPersonSuicide", func(t *testing.T) {
		g := emptyFixture(t)
		teleport(t, g, 0, 2, 3)
		teleport(t, g, 1, 4, 3)
		step(t, g, PlaceBomb, PlaceBomb)
		teleport(t, g, 0, 3, 1)
		teleport(t, g, 1, 3, 3)
		runUntilNoBombs(t, g)
		if a, b := g.Player(0).Points(), g.Player(1).Points(); a != 112 || b != -88 {
			t.Errorf("Points A %d B %d, want 112 -88", a, b)
		}
	})

	chains := []struct {
		name   string
		board  []string
		setup  func(g *Game)
		script func(t *testing.T, g *Game)
		pts    [2]int
	}{
		{
			name:  "ChainBombPointAllocations",
			board: []string{"A....", ".....", "+....", ".....", "....B"},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[1].BombRadius = 5, 5 },
			script: func(t *testing.T, g *Game) {
				walk(t, g, 0, 2, 3)
				walk(t, g, 1, 5, 3)
				plant(t, g, 1, 10)
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 2)
				walk(t, g, 1, 4, 2)
			},
			pts: [2]int{10, 10},
		},
		{
			name:  "ChainBombPointAllocationsSamePlayer",
			board: []string{"A....", ".....", "+....", ".....", "...B."},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[0].BombBag = 5, 2 },
			script: func(t *testing.T, g *Game) {
				walk(t, g, 0, 5, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 2, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 2)
			},
			pts: [2]int{10, 0},
		},
		{
			name:  "ChainBombPointAllocationsForumScenario0",
			board: []string{"A.+..", ".....", "+....", ".....", "B.+.."},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[0].BombBag = 5, 2 },
			script: func(t *testing.T, g *Game) {
				walk(t, g, 0, 5, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 2, 4)
			},
			pts: [2]int{30, 0},
		},
		{
			name:  "ChainBombPointAllocationsForumScenario1",
			board: []string{"A.+..", ".....", "+....", ".....", "B.+.."},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[0].BombBag = 5, 2 },
			script: func(t *testing.T, g *Game) {
				walk(t, g, 0, 3, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 5, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 4, 2)
			},
			pts: [2]int{30, 0},
		},
		{
			name:  "ChainBombPointAllocationsForumScenario2",
			board: []string{"A.+..", ".....", "+....", ".....", "B.+.."},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[0].BombBag = 5, 3 },
			script: func(t *testing.T, g *Game) {
				walk(t, g, 0, 5, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 4, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 2, 4)
			},
			pts: [2]int{30, 0},
		},
		{
			name:  "ChainBombPointAllocationsForumScenario3",
			board: []string{"A....", ".....", "+....", ".....", "....B"},
			setup: func(g *Game) { g.players[0].BombRadius, g.players[0].BombBag = 2, 3 },
			script: func(t *testing.T, g *Game) {
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 1)
				plant(t, g, 0, 10)
				walk(t, g, 0, 3, 3)
				plant(t, g, 0, 10)
				walk(t, g, 0, 4, 4)
			},
			pts: [2]int{20, 0},
		},
		{
			name:  "ChainBombPointAllocationsForumScenario4",
			board: []string{"A.B..", ".....", "+....", ".....", "....."},
			setup: func(g *Game) {
				g.players[0].BombRadius = 2
				g.players[1].BombRadius, g.players[1].BombBag = 2, 2
			},
			script: func(t *testing.T, g *Game) {
				step(t, g, PlaceBomb, PlaceBomb)
				g.bombs[g.cells[g.index(1, 1)].bomb-1].Timer = 10
				g.bombs[g.cells[g.index(3, 1)].bomb-1].Timer = 10
				walk(t, g, 1, 3, 3)
				plant(t, g, 1, 10)
				walk(t, g, 0, 2, 2)
				walk(t, g, 1, 4, 4)
			},
			pts: [2]int{20, 20},
		},
	}
	for _, tt := range chains {
		t.Run(tt.name, func(t *testing.T) {
			g := board(t, tt.board...)
			tt.setup(g)
			tt.script(t, g)
			runUntilNoBombs(t, g)
			if g.Player(0).Killed || g.Player(1).Killed {
				t.Fatalf("a player died: A %v B %v", g.Player(0).Killed, g.Player(1).Killed)
			}
			if got := [2]int{pts(g, 0), pts(g, 1)}; got != tt.pts {
				t.Errorf("pts %v, want %v", got, tt.pts)
			}
		})
	}

	t.Run("PlayerMovementBonus", func(t *testing.T) {
		g := board(t,
			"A...#",
			".....",
			".....",
			".....",
			"....B",
		)
		if g.usable != 24 {
			t.Fatalf("usable %d, want 24", g.usable)
		}
		lift(g, 1)
		visitAll := func(seat int) {
			for x := 1; x <= 5; x++ {
				for y := 1; y <= 5; y++ {
					if x != 5 || y != 1 {
						walk(t, g, seat, x, y)
					}
				}
			}
		}
		visitAll(0)
		a := g.Player(0)
		lift(g, 0)
		teleport(t, g, 1, a.X, a.Y)
		visitAll(1)
		step(t, g)
		if a, b := g.Player(0).Points(), g.Player(1).Points(); a != 100 || b != 100 {
			t.Errorf("Points A %d B %d, want 100 100", a, b)
		}
	})
}

// generated returns a generated game of players seats.
func generated(t testing.TB, players int, powerUps string, seed uint64) *Game {
	t.Helper()
	g, err := New(&Config{Players: players, PowerUps: powerUps})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	return g
}

func countPowerUps(g *Game) (bags, radii, supers int) {
	for i := range g.width * g.height {
		switch g.cells[i].PowerUp {
		case BombBagPowerUp:
			bags++
		case BombRadiusPowerUp:
			radii++
		case SuperPowerUp:
			supers++
		}
	}
	return bags, radii, supers
}
