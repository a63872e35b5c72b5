package bomberman

import (
	"slices"
	"strings"
	"testing"
)

// TestDoNothingRule checks the harness's 20-do-nothing rule (spec §7.3).
func TestDoNothingRule(t *testing.T) {
	t.Run("genuine_seed2_game", func(t *testing.T) {
		// The genuine 2-player game of seed 2, where neither bot started.
		g := generated(t, 2, PowerUpsAuto, 2)
		if g.PlayerBounty() != 630 {
			t.Fatalf("bounty %d, want 630", g.PlayerBounty())
		}
		fuse := func(seat int) int {
			p := g.Player(seat)
			b, ok := g.BombAt(p.X, p.Y)
			if !ok || b.Owner != seat {
				return 0
			}
			return b.Timer
		}
		want := map[int]int{19: 0, 20: 4, 21: 3, 22: 1}
		for r := 1; r <= 23; r++ {
			step(t, g)
			if g.Round() != r {
				t.Fatalf("Round() = %d after %d steps", g.Round(), r)
			}
			if f, ok := want[r]; ok {
				for s := range 2 {
					if got := fuse(s); got != f {
						t.Errorf("round-%d state: seat %d fuse %d, want %d", r, s, got, f)
					}
				}
			}
			if r < 23 && g.Done() {
				t.Fatalf("game over at round %d", r)
			}
		}
		for s := range 2 {
			if p := g.Player(s); !p.Killed || p.Points() != -630 || p.KilledRound != 22 {
				t.Errorf("round-23 state: seat %d killed %v points %d killed round %d; want dead, -630, 22", s, p.Killed, p.Points(), p.KilledRound)
			}
		}
		if !g.Done() {
			t.Error("game not over")
		}
		res := g.Result()
		if res.Winner != 0 || !res.Draw || res.Rounds != 23 {
			t.Errorf("result winner %d draw %v rounds %d; want 0, true, 23", res.Winner, res.Draw, res.Rounds)
		}
	})

	bot := func(t *testing.T) *Game {
		g := emptyFixture(t)
		g.cfg.ConsoleSeats = []int{1} // seat 0 is a bot
		return g
	}

	t.Run("any_other_command_resets_the_count", func(t *testing.T) {
		g := bot(t)
		idle(t, g, 19)
		step(t, g, MoveRight)
		step(t, g, MoveLeft)
		idle(t, g, 19)
		if n := g.bombsOnMap(0); n != 0 {
			t.Fatalf("bomb planted after 19 do-nothings")
		}
		step(t, g)
		if _, ok := g.BombAt(1, 1); !ok {
			t.Fatal("no bomb at the 20th consecutive do-nothing")
		}
		if g.Player(0).Idle != 20 {
			t.Errorf("Idle %d after planting, want 20", g.Player(0).Idle)
		}
	})

	t.Run("out_of_range_counts_as_do_nothing", func(t *testing.T) {
		g := bot(t)
		acts := []int32{9, 0}
		r := stepResult{make([]float32, 2), make([]bool, 2), make([]bool, 2)}
		for range 20 {
			g.Step(acts, r.rewards, r.terminated, r.truncated)
		}
		if _, ok := g.BombAt(1, 1); !ok {
			t.Error("no bomb after 20 out-of-range actions")
		}
		if g.Invalid(0) != 20 {
			t.Errorf("invalid %d, want 20", g.Invalid(0))
		}
	})

	t.Run("the_21st_is_sent_then_trigger_forever", func(t *testing.T) {
		g := bot(t)
		idle(t, g, 20)
		step(t, g, MoveRight) // the 21st result is sent as it is: resets
		if p := g.Player(0); p.X != 2 || p.Idle != 0 {
			t.Fatalf("21st command not sent as is: A at x=%d, Idle %d", p.X, p.Idle)
		}

		g = bot(t)
		g.players[0].BombBag = 3 // timer 10, so the trigger shows
		idle(t, g, 21)
		if g.forced(0) != true {
			t.Fatal("seat not taken over after 21 do-nothings")
		}
		mask := make([]uint8, NumActions)
		g.WriteMask(0, mask)
		if !slices.Equal(mask, []uint8{1, 0, 0, 0, 0, 0, 0}) {
			t.Errorf("mask of a taken-over seat %v, want only do-nothing", mask)
		}
		step(t, g, MoveDown) // ignored: Trigger is sent
		if p := g.Player(0); p.Y != 1 {
			t.Error("a taken-over seat's move was carried out")
		}
		if b, _ := g.BombAt(1, 1); b.Timer != 1 {
			t.Errorf("bomb timer %d after the forced trigger, want 1", b.Timer)
		}
	})

	t.Run("console_seats_are_exempt", func(t *testing.T) {
		g := emptyFixture(t)
		idle(t, g, 40)
		if countBombs(g) != 0 {
			t.Error("console seat planted a bomb")
		}
	})
}

// TestRules checks rules of spec §4–§6 beyond the original's unit tests.
func TestRules(t *testing.T) {
	t.Run("blast_passes_through_players", func(t *testing.T) {
		g := board(t,
			"A.BC.",
			".....",
			".....",
		)
		g.players[0].BombRadius = 3
		plant(t, g, 0, 0)
		walk(t, g, 0, 2, 2)
		runUntilNoBombs(t, g)
		if !g.Player(1).Killed || !g.Player(2).Killed || g.Player(0).Killed {
			t.Fatalf("killed A %v B %v C %v; want B and C", g.Player(0).Killed, g.Player(1).Killed, g.Player(2).Killed)
		}
		if pts(g, 0) != 200 {
			t.Errorf("A pts %d, want 200", pts(g, 0))
		}
	})

	t.Run("blast_stops_at_bombs_and_walls", func(t *testing.T) {
		g := board(t,
			".!..........",
			"............",
			"A..........B",
		)
		addBomb(t, g, 0, 1, 1, 8, 1) // radius 8 ...
		addBomb(t, g, 1, 4, 1, 1, 9) // ... stops at this radius-1 bomb 3 cells away
		g.cells[g.index(1, 2)].Entity = IndestructibleWall
		step(t, g)
		assertBoard(t, g,
			"*****.......",
			"#..*........",
			"A..........B",
		)
		if g.At(1, 2).Exploding() {
			t.Error("indestructible wall marked")
		}
		if g.At(2, 1).PowerUp != BombRadiusPowerUp || !g.At(2, 1).Exploding() {
			t.Error("the blast did not pass over the power-up, or destroyed it")
		}
	})

	t.Run("moving_into_a_dying_players_cell_fails", func(t *testing.T) {
		g := board(t,
			"AB...",
			".....",
			"....C",
		)
		addBomb(t, g, 2, 2, 3, 2, 1)
		step(t, g, MoveRight)
		if p := g.Player(0); p.X != 1 || p.Killed {
			t.Errorf("A at x=%d killed %v; want to stay at x=1, alive", p.X, p.Killed)
		}
		if !g.Player(1).Killed {
			t.Error("B not killed")
		}
	})

	t.Run("power_up_applies_to_dying_player", func(t *testing.T) {
		g := board(t,
			"A$...",
			".....",
			"....B",
		)
		addBomb(t, g, 1, 3, 1, 1, 1)
		step(t, g, MoveRight)
		a := g.Player(0)
		if !a.Killed || a.Counter != superPowerUpPoints-100 || a.BombBag != 2 || a.BombRadius != 2 {
			t.Errorf("A killed %v counter %d bag %d radius %d; want dead, -50, 2, 2", a.Killed, a.Counter, a.BombBag, a.BombRadius)
		}
		if g.At(2, 1).PowerUp != NoPowerUp {
			t.Error("power-up not used up")
		}
		if pts(g, 1) != 100 {
			t.Errorf("B pts %d, want 100 for the kill", pts(g, 1))
		}
	})

	t.Run("bag_returns_at_the_end_of_the_round", func(t *testing.T) {
		g := emptyFixture(t)
		plant(t, g, 0, 0)
		walk(t, g, 0, 2, 2)
		idle(t, g, 1)
		step(t, g, PlaceBomb) // the first bomb explodes this round: still counts
		if g.Invalid(0) != 1 || countBombs(g) != 0 {
			t.Fatalf("plant while the bomb explodes: invalid %d, bombs %d; want 1, 0", g.Invalid(0), countBombs(g))
		}
		step(t, g, PlaceBomb)
		if _, ok := g.BombAt(2, 2); !ok {
			t.Error("plant rejected after the bag returned")
		}
	})

	t.Run("trigger", func(t *testing.T) {
		g := emptyFixture(t)
		step(t, g, TriggerBomb)
		if g.Invalid(0) != 1 {
			t.Errorf("trigger with no bombs: invalid %d, want 1", g.Invalid(0))
		}
		g.players[0].BombBag = 3
		plant(t, g, 0, 0)
		walk(t, g, 0, 3, 1)
		if b, _ := g.BombAt(1, 1); b.Timer != 8 {
			t.Fatalf("timer %d, want 8", b.Timer)
		}
		step(t, g, TriggerBomb)
		if b, _ := g.BombAt(1, 1); b.Timer != 1 {
			t.Errorf("timer %d after trigger, want 1", b.Timer)
		}
		// A bomb showing 1 explodes before commands: nothing to trigger.
		step(t, g, TriggerBomb)
		if g.Invalid(0) != 2 || countBombs(g) != 0 {
			t.Errorf("trigger in the explosion round: invalid %d, bombs %d; want 2, 0", g.Invalid(0), countBombs(g))
		}
		// A bomb showing 2 reaches 1 in the tick; triggering it is allowed.
		addBomb(t, g, 0, 5, 1, 1, 2)
		step(t, g, TriggerBomb)
		if b, _ := g.BombAt(5, 1); b.Timer != 1 || g.Invalid(0) != 2 {
			t.Errorf("trigger at 1: timer %d invalid %d; want 1, 2", b.Timer, g.Invalid(0))
		}
	})

	t.Run("move_off_own_bomb_never_onto_one", func(t *testing.T) {
		g := emptyFixture(t)
		plant(t, g, 0, 0)
		step(t, g, MoveRight)
		step(t, g, MoveLeft)
		if p := g.Player(0); p.X != 2 || g.Invalid(0) != 1 {
			t.Errorf("A at x=%d invalid %d; want 2, 1", p.X, g.Invalid(0))
		}
	})

	t.Run("suicide_bounty_goes_to_chained_owner", func(t *testing.T) {
		g := emptyFixture(t)
		addBomb(t, g, 0, 1, 1, 1, 1)
		addBomb(t, g, 1, 2, 1, 1, 9)
		step(t, g)
		if !g.Player(0).Killed || pts(g, 0) != -100 || pts(g, 1) != 100 {
			t.Errorf("A killed %v pts %d, B pts %d; want dead, -100, 100", g.Player(0).Killed, pts(g, 0), pts(g, 1))
		}
	})

	t.Run("kill_on_a_chained_bomb_counts_once", func(t *testing.T) {
		// A's radius-2 bomb reaches B, who stands on B's bomb: the ray ends
		// at the bomb, so only B's bomb is credited, once.
		g := emptyFixture(t)
		teleport(t, g, 1, 3, 1)
		teleport(t, g, 0, 5, 5)
		addBomb(t, g, 0, 1, 1, 2, 1)
		addBomb(t, g, 1, 3, 1, 1, 9)
		step(t, g)
		if !g.Player(1).Killed || pts(g, 0) != 100 {
			t.Errorf("B killed %v, A pts %d; want dead, 100 (once)", g.Player(1).Killed, pts(g, 0))
		}
	})

	t.Run("three_way_collision", func(t *testing.T) {
		seen := map[int]bool{}
		for seed := range uint64(64) {
			g := board(t,
				"A.B",
				".C.",
			)
			g.rng.Seed(seed, 7)
			step(t, g, MoveRight, MoveLeft, MoveUp)
			moved := -1
			for s := range 3 {
				if p := g.Player(s); p.X == 2 && p.Y == 1 {
					if moved >= 0 {
						t.Fatalf("seed %d: two players on (2,1)", seed)
					}
					moved = s
				}
			}
			if moved < 0 {
				t.Fatalf("seed %d: nobody moved", seed)
			}
			seen[moved] = true
		}
		if len(seen) != 3 {
			t.Errorf("winners over 64 seeds %v, want all three", seen)
		}
	})

	t.Run("round_cap", func(t *testing.T) {
		g, err := New(&Config{Players: 2, ConsoleSeats: []int{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		var r stepResult
		for !g.Done() {
			r = step(t, g)
		}
		if g.Round() != 21*21+1 {
			t.Errorf("ended after %d rounds, want 442", g.Round())
		}
		if !r.truncated[0] || !r.truncated[1] || r.terminated[0] || r.terminated[1] {
			t.Errorf("flags at the cap: %v", r)
		}
		// Equal points and both alive: a draw.
		if r.rewards[0] != 0 || r.rewards[1] != 0 || !g.Result().Draw {
			t.Errorf("rewards %v draw %v; want 0 0 true", r.rewards, g.Result().Draw)
		}
	})
}

// TestRewards checks the terminal rewards and flags of RewardDefinition.
func TestRewards(t *testing.T) {
	t.Run("killed_seat_then_winner", func(t *testing.T) {
		g := board(t,
			"A...B",
			".....",
			"C....",
		)
		addBomb(t, g, 1, 5, 1, 1, 1) // B suicides
		r := step(t, g)
		want := stepResult{[]float32{0, -1, 0}, []bool{false, true, false}, []bool{false, false, false}}
		if !equalResult(r, want) {
			t.Fatalf("step 1: %v, want %v", r, want)
		}
		step(t, g, MoveRight)        // A's coverage lead
		addBomb(t, g, 2, 1, 3, 1, 1) // C suicides: the game ends
		r = step(t, g)
		want = stepResult{[]float32{1, 0, -1}, []bool{true, true, true}, []bool{false, false, false}}
		if !equalResult(r, want) {
			t.Errorf("final step: %v, want %v", r, want)
		}
		r = step(t, g, MoveDown)
		want.rewards = []float32{0, 0, 0}
		if !equalResult(r, want) {
			t.Errorf("step after the end: %v, want %v", r, want)
		}
		if g.Round() != 3 {
			t.Errorf("a finished game advanced to round %d", g.Round())
		}
	})

	t.Run("draw", func(t *testing.T) {
		g := emptyFixture(t)
		addBomb(t, g, 0, 1, 1, 1, 1)
		addBomb(t, g, 1, 5, 5, 1, 1)
		r := step(t, g)
		want := stepResult{[]float32{0, 0}, []bool{true, true}, []bool{false, false}}
		if !equalResult(r, want) {
			t.Errorf("%v, want %v", r, want)
		}
		if res := g.Result(); res.Winner != 0 || !res.Draw {
			t.Errorf("winner %d draw %v, want 0 true", res.Winner, res.Draw)
		}
	})

	t.Run("truncated_by_the_cap", func(t *testing.T) {
		g := emptyFixture(t)
		g.maxRound = 1
		step(t, g, DoNothing, MoveUp)
		r := step(t, g, DoNothing, MoveUp)
		want := stepResult{[]float32{-1, 1}, []bool{false, false}, []bool{true, true}}
		if !g.Done() || !equalResult(r, want) {
			t.Errorf("done %v %v, want %v", g.Done(), r, want)
		}
	})

	t.Run("points_shaping", func(t *testing.T) {
		g := emptyFixture(t)
		g.cfg.PointsReward = 0.5
		step(t, g)                 // coverage 0 → 4 (the fixture starts at 0)
		r := step(t, g, MoveRight) // coverage 4 → 8
		if r.rewards[0] != 2 || r.rewards[1] != 0 {
			t.Errorf("rewards %v, want [2 0]", r.rewards)
		}
	})
}

func equalResult(a, b stepResult) bool {
	return slices.Equal(a.rewards, b.rewards) && slices.Equal(a.terminated, b.terminated) && slices.Equal(a.truncated, b.truncated)
}

// TestLeaderboard checks the ranking keys and the KilledRound quirk.
func TestLeaderboard(t *testing.T) {
	g := board(t, "ABCD")
	set := func(s int, killed bool, points, round int) {
		g.players[s].Killed, g.players[s].Counter, g.players[s].KilledRound = killed, points, round
		g.players[s].Coverage = 0
	}
	set(0, true, 50, 9) // dead, died later
	set(1, false, -10, 0)
	set(2, true, 50, 3) // dead, died earlier: ranks higher (quirk)
	set(3, true, 80, 9)
	got := g.Leaderboard(nil)
	if want := []int{1, 3, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("leaderboard %v, want %v", got, want)
	}
	res := g.Result()
	if res.Winner != 1 || res.Draw || len(res.Standings) != 4 {
		t.Fatalf("winner %d draw %v standings %d", res.Winner, res.Draw, len(res.Standings))
	}
	if s := res.Standings[1]; s.Seat != 3 || s.Rank != 2 || s.Score != 80 || s.Alive || s.Name != "Player 4" {
		t.Errorf("second standing %+v", s)
	}
	// Everyone dead: the winner is still the first entry.
	set(1, true, 0, 1)
	if res := g.Result(); res.Winner != 3 {
		t.Errorf("winner %d with all dead, want 3", res.Winner)
	}
	buf := make([]int, 1, 8)
	if out := g.Leaderboard(buf); len(out) != 5 || out[0] != 0 {
		t.Errorf("Leaderboard did not append: %v", out)
	}
}

// TestRoundsBeyondTheBlastListsScanTheMap checks the fallback of a round
// whose blasts reach more cells than scratch's lists hold (blastListLen):
// 64 radius-1 bombs going off together on a 41×41 map of walls reach 320
// cells and destroy 256 walls, and the round must still destroy every
// reached wall, pay every wall's points, show every explosion, and leave
// no mark behind for the next round.
func TestRoundsBeyondTheBlastListsScanTheMap(t *testing.T) {
	const side, reach, walls = MaxSide, 5 * MaxBombs, 4 * MaxBombs
	// Bombs on every third cell of every third row, row-major, until
	// MaxBombs: their blasts do not overlap. The 12 players stand on the
	// last row, out of reach.
	var bomb [side + 2][side + 2]bool
	rows := make([]string, side)
	bombs := 0
	for y := 1; y <= side; y++ {
		row := []byte(strings.Repeat("+", side))
		for x := 1; x <= side; x++ {
			if x%3 == 2 && y%3 == 2 && x < side-1 && bombs < MaxBombs {
				bomb[x][y] = true
				row[x-1] = '.'
				bombs++
			}
		}
		rows[y-1] = string(row)
	}
	rows[side-1] = "ABCDEFGHIJKL" + rows[side-1][MaxPlayers:]
	g := board(t, rows...)
	for y := 1; y <= side; y++ {
		for x := 1; x <= side; x++ {
			if bomb[x][y] {
				addBomb(t, g, 0, x, y, 1, 1)
			}
		}
	}
	if reach <= blastListLen || walls <= blastListLen {
		t.Fatalf("the scenario (%d cells reached, %d walls) fits the lists (%d)", reach, walls, blastListLen)
	}
	wallsBefore := 0
	for i := range side * side {
		if g.cells[i].Entity == DestructibleWall {
			wallsBefore++
		}
	}

	step(t, g)
	if countBombs(g) != 0 {
		t.Fatalf("%d bombs left after their timer ran out", countBombs(g))
	}
	if g.blastsListed || !g.scratch.markedOver {
		t.Fatalf("blastsListed %v, markedOver %v: the round did not outgrow the lists", g.blastsListed, g.scratch.markedOver)
	}
	obs := g.Spec().NewObsBuffers()
	g.WriteObs(0, obs)
	reached, exploding, left := 0, 0, 0
	for y := 1; y <= side; y++ {
		for x := 1; x <= side; x++ {
			c := g.At(x, y)
			near := bomb[x][y] || bomb[x-1][y] || bomb[x+1][y] || bomb[x][y-1] || bomb[x][y+1]
			if c.Exploding() != near {
				t.Errorf("(%d,%d): exploding %v, within a blast %v", x, y, c.Exploding(), near)
			}
			if c.Exploding() {
				reached++
			}
			if plane(g, obs[0], PlaneExploding, x, y) == 1 {
				exploding++
			}
			if c.Entity == DestructibleWall {
				left++
				if near {
					t.Errorf("(%d,%d): a reached wall still stands", x, y)
				}
			}
		}
	}
	if reached != reach || exploding != reach {
		t.Errorf("%d cells reached, %d shown exploding; want %d", reached, exploding, reach)
	}
	if left != wallsBefore-walls {
		t.Errorf("%d walls left, want %d", left, wallsBefore-walls)
	}
	if got, want := pts(g, 0), wallPoints*walls; got != want {
		t.Errorf("A's points %d, want %d (every destroyed wall's)", got, want)
	}

	step(t, g)
	g.WriteObs(0, obs)
	for i := range side * side {
		x, y := i%side+1, i/side+1
		if c := g.cells[i]; c.reached != 0 || c.destroy {
			t.Errorf("(%d,%d): reached %x, destroy %v one round on", x, y, c.reached, c.destroy)
		}
		if plane(g, obs[0], PlaneExploding, x, y) != 0 {
			t.Errorf("(%d,%d) still shown exploding one round on", x, y)
		}
	}
}
