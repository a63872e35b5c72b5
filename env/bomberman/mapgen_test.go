package bomberman

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

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

// TestGeneratedMapsDigest pins the maps of many seeds, for every player
// count and power-up generator, to digests of the cells, players and
// bounty taken before map generation was optimised, so that the fast paths
// (raw-draw thresholds, the distance pre-check) stay exact.
func TestGeneratedMapsDigest(t *testing.T) {
	tests := []struct {
		players  int
		powerUps string
		legacy   bool
		seeds    uint64
		want     string
	}{
		{2, PowerUpsAuto, false, 300, "6e87c4d8f2b844e9b39c6f1e32ca12ae6f6403586b8fa7479d54b44388a3e7db"},
		{3, PowerUpsAuto, false, 300, "bcf05116c7daf65368a6a8770cf76fdd124e0c9a2086c030669537412765721a"},
		{4, PowerUpsAuto, false, 1000, "d194f0fd9334dfd7c1dae7ea219b7eec515cf27a81c6713e3174eb6673a64e7f"},
		{4, PowerUpsAuto, true, 300, "416efc8457e77f418d8270a58d15eb350a65d660426dc4ff11012910dbae94fd"},
		{4, PowerUpsRandom, false, 300, "922eeb8f3e82d073d9648eb6e16f43a6c8caab29299dd781792727579fac93cb"},
		{5, PowerUpsAuto, false, 100, "49fedf00a1227e3842a36583bdcb03898e75ab87d2edf9492708c39a9930f170"},
		{8, PowerUpsRandom, false, 100, "efad70788ef736efebb4c157924f3afb7bbb67325f4508a9ab835f4ce6bb8c2f"},
		{12, PowerUpsAuto, false, 100, "270c1cedeb629115be393251c1277f5d1becbb8b713309e02332312d07ce4f9b"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dp_%s_legacy=%v", tt.players, tt.powerUps, tt.legacy), func(t *testing.T) {
			g, err := New(&Config{Players: tt.players, PowerUps: tt.powerUps, LegacySeeding: tt.legacy})
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			for seed := range tt.seeds {
				g.Reset(seed*2654435761 + 12345)
				for i := range g.width * g.height {
					c := g.cells[i]
					h.Write([]byte{byte(c.Entity), c.Player, byte(c.PowerUp), c.bomb, byte(c.touched), byte(c.touched >> 8)})
				}
				for s := range g.nPlayers {
					p := g.players[s]
					fmt.Fprintf(h, "%d,%d,%d,%d,%d,%d;", p.X, p.Y, p.BombBag, p.BombRadius, p.Touched, p.Points())
				}
				fmt.Fprintf(h, "%d,%d,%d,%d|", g.bounty, g.usable, g.mapSeed, g.maxRound)
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != tt.want {
				t.Errorf("digest %s, want %s", got, tt.want)
			}
		})
	}
}
