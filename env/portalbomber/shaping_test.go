package portalbomber

import (
	"errors"
	"math"
	"testing"

	"github.com/botarena/botarena/env"
)

// TestCoinsRewardPaysTheCoinsEarned plays the spec's scenarios S1 (a
// suicide bomb: 6 coins, then the loss) and S2 (the intended opening: 3
// coins) and sums each seat's rewards: coins_reward × the coins earned,
// plus the terminal reward, and nothing for coins without the option.
func TestCoinsRewardPaysTheCoinsEarned(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   []Action
		rounds   int
		coef     float32
		want     [Seats]float32
		wantDone bool
	}{
		{"S1_suicide_earns_6_then_loses", []Action{PlaceBomb}, 5, 0.5, [Seats]float32{-1 + 0.5*6, 1}, true},
		{"S1_without_shaping_only_the_terminal_reward", []Action{PlaceBomb}, 5, 0, [Seats]float32{-1, 1}, true},
		{"S2_opening_earns_3", []Action{MoveRight, PlaceBomb, MoveLeft, MoveDown}, 6, 0.25, [Seats]float32{0.25 * 3, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := bare(t, func(c *Config) { c.CoinsReward = tc.coef })
			m := play(t, g, tc.script, nil)
			var sum [Seats]float32
			m.roundsEach(tc.rounds, func() {
				for s := range Seats {
					sum[s] += m.rewards[s]
				}
			})
			if g.Done() != tc.wantDone {
				t.Fatalf("done %v, want %v", g.Done(), tc.wantDone)
			}
			for s := range Seats {
				if math.Abs(float64(sum[s]-tc.want[s])) > 1e-6 {
					t.Errorf("seat %d: rewards sum to %v, want %v (coins %d)", s, sum[s], tc.want[s], g.Player(s).Coins)
				}
			}
		})
	}
}

// TestCoinsRewardMustBeFinite checks that Validate refuses a NaN or
// infinite coins_reward.
func TestCoinsRewardMustBeFinite(t *testing.T) {
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		cfg := DefaultConfig()
		cfg.CoinsReward = v
		var ce *env.ConfigError
		if err := cfg.Validate(); !errors.As(err, &ce) || ce.Field != "coins_reward" {
			t.Errorf("coins_reward %v: err %v, want a ConfigError on coins_reward", v, err)
		}
	}
}

// TestDangerRewardChargesStandingInABlastsWay plays the spec's scenario S2
// (bomb at (2,1), then step back and around the corner to (1,2)) and counts
// the steps on which each seat was charged: seat 0 from its bomb until it
// stands at (1,2), outside the blast; seat 1, far away, never. S1 (a bomb
// on the start cell, staying there) charges seat 0 on every step until the
// blast kills it, and not on the terminal step.
func TestDangerRewardChargesStandingInABlastsWay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		script  []Action
		rounds  int
		charged [Seats]int
	}{
		// S2: moves go 0,1 | 1,0 | 0,1 | 1,0. Seat 0 bombs (2,1) on the last move of
		// round 2 and stands in the blast's way after it, after its move back to
		// (1,1) and after seat 1's two moves; the move down to (1,2) leaves: 4 steps.
		{"S2_charged_until_it_turns_the_corner", []Action{MoveRight, PlaceBomb, MoveLeft, MoveDown}, 7, [Seats]int{4, 0}},
		// S1: the bomb goes off at the end of round 5: seat 0 is charged after each of
		// the 9 steps from its bomb until the last, on which it dies.
		{"S1_charged_until_it_dies", []Action{PlaceBomb}, 5, [Seats]int{9, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const danger = 0.25
			g := bare(t, func(c *Config) { c.DangerReward = danger })
			m := play(t, g, tc.script, nil)
			var charged [Seats]int
			m.roundsEach(tc.rounds, func() {
				r := m.rewards
				for s := range Seats {
					terminal := float32(0)
					if g.Done() {
						terminal = map[bool]float32{true: 1, false: -1}[g.Player(s).Alive]
					}
					switch r[s] - terminal {
					case 0:
					case -danger:
						charged[s]++
					default:
						t.Fatalf("seat %d: reward %v, want %v or %v", s, r[s], terminal, terminal-danger)
					}
				}
			})
			if charged != tc.charged {
				t.Errorf("charged steps %v, want %v", charged, tc.charged)
			}
		})
	}
}

// TestDangerRewardMustBeFiniteAndNotNegative checks that Validate refuses a
// NaN, infinite or negative danger_reward.
func TestDangerRewardMustBeFiniteAndNotNegative(t *testing.T) {
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), -0.1} {
		cfg := DefaultConfig()
		cfg.DangerReward = v
		var ce *env.ConfigError
		if err := cfg.Validate(); !errors.As(err, &ce) || ce.Field != "danger_reward" {
			t.Errorf("danger_reward %v: err %v, want a ConfigError on danger_reward", v, err)
		}
	}
}
