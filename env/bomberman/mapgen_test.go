package bomberman

import "testing"

// checksums returns the spec §3.2 checksums: walls = Σ y²·x over
// destructible walls; power-ups = Σ code·y²·x with & 38, ! 33, $ 36.
func checksums(g *Game) (walls, wallSum, powerUpSum int) {
	codes := [...]int{BombBagPowerUp: 38, BombRadiusPowerUp: 33, SuperPowerUp: 36}
	for y := 1; y <= g.height; y++ {
		for x := 1; x <= g.width; x++ {
			c := g.At(x, y)
			if c.Entity == DestructibleWall {
				walls++
				wallSum += y * y * x
			}
			if c.PowerUp != NoPowerUp {
				powerUpSum += codes[c.PowerUp] * y * y * x
			}
		}
	}
	return walls, wallSum, powerUpSum
}

func TestGeneratedMapChecksums(t *testing.T) {
	tests := []struct {
		name                string
		players             int
		powerUps            string
		seed                uint64
		side, walls, bounty int
		wallSum, powerUpSum int
	}{
		{"engine_unit_test_4p_random_generator", 4, PowerUpsRandom, 1, 21, 126, 340, 204886, 1130096},
		{"2p_seed1", 2, PowerUpsAuto, 1, 21, 126, 680, 205084, 523122},
		{"2p_seed2_genuine_sample", 2, PowerUpsAuto, 2, 21, 116, 630, 176528, 736804},
		{"2p_seed3", 2, PowerUpsAuto, 3, 21, 88, 490, 144914, 885634},
		{"2p_official_sample_seed", 2, PowerUpsAuto, 203279916, 21, 130, 700, 215908, 848786},
		{"3p_seed1", 3, PowerUpsAuto, 1, 21, 126, 453, 204462, 1013620},
		{"4p_distance_seed1", 4, PowerUpsAuto, 1, 21, 126, 340, 204886, 1426942},
		{"4p_distance_seed2", 4, PowerUpsAuto, 2, 21, 128, 345, 210540, 1567240},
		{"4p_distance_seed3", 4, PowerUpsAuto, 3, 21, 108, 295, 173118, 1471778},
		{"5p_seed1", 5, PowerUpsAuto, 1, 31, 259, 538, 1298672, 5308880},
		{"8p_seed1", 8, PowerUpsAuto, 1, 31, 256, 332, 1300224, 7937900},
		{"12p_seed1", 12, PowerUpsAuto, 1, 41, 470, 400, 5669778, 31542364},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(&Config{Players: tt.players, PowerUps: tt.powerUps})
			if err != nil {
				t.Fatal(err)
			}
			g.Reset(tt.seed)
			walls, wallSum, powerUpSum := checksums(g)
			if g.Width() != tt.side || walls != tt.walls || g.PlayerBounty() != tt.bounty || wallSum != tt.wallSum || powerUpSum != tt.powerUpSum {
				t.Errorf("side %d walls %d bounty %d wall checksum %d power-up checksum %d; want %d %d %d %d %d",
					g.Width(), walls, g.PlayerBounty(), wallSum, powerUpSum, tt.side, tt.walls, tt.bounty, tt.wallSum, tt.powerUpSum)
			}
		})
	}
}

// TestSeedingSchemes checks which Random each map attempt uses (spec §2.1):
// the current engine draws attempt seeds from Random(gameSeed); legacy
// builds used Random(gameSeed) itself.
func TestSeedingSchemes(t *testing.T) {
	attempt := func(seed int32) *Game {
		g, _ := New(&Config{Players: 2})
		rng := newDotnetRandom(seed)
		if !g.generateAttempt(&rng) {
			t.Fatal("the random generator rejected a map")
		}
		return g
	}
	for _, seed := range []int32{1, 2, 203279916} {
		current, _ := New(&Config{Players: 2})
		current.Reset(uint64(seed))
		legacy, _ := New(&Config{Players: 2, LegacySeeding: true})
		legacy.Reset(uint64(seed))
		gen := newDotnetRandom(seed)
		if current.cells != attempt(gen.Next()).cells {
			t.Errorf("seed %d: the current scheme is not Random(Random(seed).Next())", seed)
		}
		if legacy.cells != attempt(seed).cells {
			t.Errorf("seed %d: legacy seeding is not Random(seed)", seed)
		}
		if legacy.cells == current.cells {
			t.Errorf("seed %d: both schemes give the same map", seed)
		}
	}
}

// TestDistanceSuitabilityPrecheckAgrees checks that the cheap pre-check
// accepts exactly the attempts the full distance-based generator accepts.
func TestDistanceSuitabilityPrecheckAgrees(t *testing.T) {
	g, err := New(&Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for seed := range int32(4000) {
		rng := newDotnetRandom(seed * 7919)
		predicted := g.distanceSuitable(rng)
		if got := g.generateAttempt(&rng); got != predicted {
			t.Fatalf("attempt seed %d: pre-check says %v, the generator %v", seed*7919, predicted, got)
		}
		if predicted {
			accepted++
		}
	}
	if accepted == 0 || accepted == 4000 {
		t.Fatalf("%d of 4000 attempts accepted: the test does not exercise both outcomes", accepted)
	}
}
