package battlebots

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
)

// TestTacticianBeatsEveryBuiltin checks the tactician's claim against each
// built-in bot from each seat over 10 fixed seeds of full-length bouts:
// at least 9 won against duelist, gambit and warden, every one against
// sniper, huggy and nop.
func TestTacticianBeatsEveryBuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 120 bouts")
	}
	for _, tc := range []struct {
		name    string
		opp     func() env.Agent
		minWins int
	}{
		{"duelist", func() env.Agent { return &Duelist{} }, 9},
		{"gambit", func() env.Agent { return &Gambit{} }, 9},
		{"warden", func() env.Agent { return &Warden{} }, 9},
		{"sniper", func() env.Agent { return Sniper{} }, 10},
		{"huggy", func() env.Agent { return Huggy{} }, 10},
		{"nop", func() env.Agent { return Nop{} }, 10},
	} {
		for seat := range 2 {
			t.Run(tc.name+"_seat"+string(rune('0'+seat)), func(t *testing.T) {
				wins := 0
				for seed := range uint64(10) {
					ags := [2]env.Agent{}
					ags[seat], ags[1-seat] = &Tactician{}, tc.opp()
					if w, _ := duel(t, ags[0], ags[1], seed); w == seat {
						wins++
					}
				}
				t.Logf("tactician won %d of 10", wins)
				if wins < tc.minWins {
					t.Errorf("tactician won %d of 10 bouts against %s from seat %d, want at least %d", wins, tc.name, seat, tc.minWins)
				}
			})
		}
	}
}

// TestTacticianSpreadFollowsTheNoise checks how a copy's values become the
// distribution of its choice under the duelist's noise (uniform on
// [0, 1.5)): a clear best is certain, two equal values share the choice,
// a value 0.75 below the best is chosen less often but sometimes, one
// 1.5 or more below never, and an action that cannot be played never.
func TestTacticianSpreadFollowsTheNoise(t *testing.T) {
	for _, tc := range []struct {
		name     string
		vals     map[int]float32 // the others are noUse
		want     map[int][2]float32
		wantZero []int
	}{
		{"a_clear_best_is_certain", map[int]float32{3: 10, 5: 5}, map[int][2]float32{3: {1, 1}}, []int{5}},
		{"equal_values_share_the_choice", map[int]float32{3: 10, 5: 10}, map[int][2]float32{3: {0.35, 0.65}, 5: {0.35, 0.65}}, nil},
		{"a_near_tie_is_chosen_less_often", map[int]float32{3: 10, 5: 9.25}, map[int][2]float32{3: {0.7, 0.95}, 5: {0.05, 0.3}}, nil},
		{"a_value_beyond_the_noise_is_never_chosen", map[int]float32{3: 10, 5: 8.5, 7: 8.49}, map[int][2]float32{3: {1, 1}}, []int{5, 7}},
		{"an_unplayable_action_is_never_chosen", map[int]float32{0: noUse, 1: -50}, map[int][2]float32{1: {1, 1}}, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var vals, q [26]float32
			for i := range vals {
				vals[i] = noUse
			}
			for i, v := range tc.vals {
				vals[i] = v
			}
			spread(&vals, &q)
			sum := float32(0)
			for _, p := range q {
				sum += p
			}
			if sum < 0.999 || sum > 1.001 {
				t.Errorf("probabilities add up to %v, want 1", sum)
			}
			for i, r := range tc.want {
				if q[i] < r[0]-1e-6 || q[i] > r[1]+1e-6 {
					t.Errorf("P(%v) = %v, want in [%v, %v]", duelActions[i], q[i], r[0], r[1])
				}
			}
			for _, i := range tc.wantZero {
				if q[i] != 0 {
					t.Errorf("P(%v) = %v, want 0", duelActions[i], q[i])
				}
			}
		})
	}
}

// TestTacticianFrozenCountsTheDoubleSplash checks what frozen finds in the
// two rounds after an EMP: a missile that stops on the wall cell next to
// the frozen enemy at the end of the first round splashes it twice in the
// second (2 HP), where the enemy, off every line, can do nothing back; an
// enemy away from the walls and off every line cannot be hurt; an enemy
// in line 2 cells away takes a missile a round (6 HP), and can fire the
// same back.
func TestTacticianFrozenCountsTheDoubleSplash(t *testing.T) {
	for _, tc := range []struct {
		name            string
		me, en          Bot
		wantMe, wantEnm float32
	}{
		{"missile_into_the_wall_beside_the_enemy", Bot{X: 7, Y: 5, HP: 10}, Bot{X: 9, Y: 6, HP: 10}, 2, 0},
		{"enemy_off_every_line_away_from_the_walls", Bot{X: 3, Y: 3, HP: 10}, Bot{X: 5, Y: 6, HP: 10}, 0, 0},
		{"enemy_in_line_two_cells_away", Bot{X: 3, Y: 3, HP: 10}, Bot{X: 5, Y: 5, HP: 10}, 6, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			g.bots = [2]Bot{tc.me, tc.en}
			g.paralysed = 2
			a := &Tactician{}
			a.Reset(g, 0, 1)
			if got := a.frozen(g, 0); got != tc.wantMe {
				t.Errorf("frozen(seat 0) = %v, want %v", got, tc.wantMe)
			}
			if got := a.frozen(g, 1); got != tc.wantEnm {
				t.Errorf("frozen(seat 1) = %v, want %v", got, tc.wantEnm)
			}
		})
	}
}

// TestTacticianFrozenSkipsOnlyIdleShots checks that frozen, which plays
// out only the shots that can reach the other bot or splash a bot, finds
// what playing out all 16 shots finds, on 2,000 random boards with
// projectiles in flight, for each seat.
func TestTacticianFrozenSkipsOnlyIdleShots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	a := &Tactician{}
	a.Reset(g, 0, 1)
	for i := range 2000 {
		g.Reset(0)
		for s := range 2 {
			g.bots[s] = Bot{X: 1 + r.IntN(9), Y: 1 + r.IntN(9), HP: 10}
		}
		if g.bots[0].X == g.bots[1].X && g.bots[0].Y == g.bots[1].Y {
			continue
		}
		g.nBullets, g.nMissiles = r.IntN(4), r.IntN(4)
		for j := range g.nBullets {
			g.bullets[j] = Projectile{X: 1 + r.IntN(9), Y: 1 + r.IntN(9), Dir: Dir(r.IntN(8))}
		}
		for j := range g.nMissiles {
			g.missiles[j] = Projectile{X: 1 + r.IntN(9), Y: 1 + r.IntN(9), Dir: Dir(r.IntN(8))}
		}
		g.paralysed = 2
		for seat := range 2 {
			want := 0
			for k := range 16 {
				want = max(want, a.frozenGain(g, seat, BulletN+Action(k)))
			}
			if got := a.frozen(g, seat); got != float32(want) {
				t.Fatalf("board %d, seat %d (bots %+v, bullets %v, missiles %v): frozen = %v, playing out every shot finds %d", i, seat, g.bots, g.bullets[:g.nBullets], g.missiles[:g.nMissiles], got, want)
			}
		}
	}
}

// TestTacticianAimsAtAParkedEnemy checks the parked-enemy term of eval:
// worth tacAim times the probability of staying, on a line through the
// enemy 3 cells away, only once the enemy has stood still tacParked
// rounds and stays with probability above tacStill; nothing 2 cells away
// (a missile's reach), off the lines, or for an enemy that moves.
func TestTacticianAimsAtAParkedEnemy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		me    Bot
		still int
		stay  float32
		want  float32
	}{
		{"row_3_cells_away", Bot{X: 2, Y: 5, HP: 10}, tacParked, 0.9, tacAim * 0.9},
		{"diagonal_3_cells_away", Bot{X: 2, Y: 2, HP: 10}, tacParked + 5, 1, tacAim},
		{"not_2_cells_away", Bot{X: 3, Y: 5, HP: 10}, tacParked, 1, 0},
		{"not_off_the_lines", Bot{X: 2, Y: 4, HP: 10}, tacParked, 1, 0},
		{"not_before_it_has_parked", Bot{X: 2, Y: 5, HP: 10}, tacParked - 1, 1, 0},
		{"not_when_it_may_move", Bot{X: 2, Y: 5, HP: 10}, tacParked, tacStill, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			en := Bot{X: 5, Y: 5, HP: 10}
			g.bots = [2]Bot{tc.me, en}
			a := &Tactician{}
			a.Reset(g, 0, 1)
			a.base = *g
			a.stay = 0
			base := a.eval(g)
			a.still = tc.still
			if a.still >= tacParked {
				a.stay = tc.stay
			}
			if got := a.eval(g) - base; got < tc.want-1e-4 || got > tc.want+1e-4 {
				t.Errorf("eval gains %v for the parked enemy, want %v", got, tc.want)
			}
		})
	}
}

// TestTacticianFindsTheBotItPlays checks the model weights: after 12
// rounds against a built-in bot (or the end of the bout, if sooner) the
// model of that bot has the best score (a duelist and a gambit are the
// same bot after the gambit's opening, so either counts against them).
func TestTacticianFindsTheBotItPlays(t *testing.T) {
	for _, tc := range []struct {
		name string
		opp  func() env.Agent
		want []int
	}{
		{"duelist", func() env.Agent { return &Duelist{} }, []int{tacDuelist, tacGambit}},
		{"gambit", func() env.Agent { return &Gambit{} }, []int{tacGambit}},
		{"warden", func() env.Agent { return &Warden{} }, []int{tacWarden}},
		{"sniper", func() env.Agent { return Sniper{} }, []int{tacSniper}},
		{"nop", func() env.Agent { return Nop{} }, []int{tacNop}},
	} {
		for seat := range 2 {
			t.Run(tc.name+"_seat"+string(rune('0'+seat)), func(t *testing.T) {
				g, err := New(DefaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				a := &Tactician{}
				ags := [2]env.Agent{}
				ags[seat], ags[1-seat] = a, tc.opp()
				for s := range 2 {
					ags[s].Reset(g, s, uint64(s+7))
				}
				acts := make([]int32, 2)
				rw, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
				for r := 0; r < 12 && !g.Done(); r++ {
					acts[0], acts[1] = ags[0].Act(g, 0), ags[1].Act(g, 1)
					g.Step(acts, rw, te, tr)
				}
				best := 0
				for m := range a.score {
					if a.score[m] > a.score[best] {
						best = m
					}
				}
				for _, m := range tc.want {
					if a.score[m] >= a.score[best] {
						return
					}
				}
				t.Errorf("after %d rounds the best model is %d (scores %v), want one of %v", g.Round(), best, a.score, tc.want)
			})
		}
	}
}

// TestTacticianActAllocations checks that Act, its copies of the duelist
// and the warden included, does not allocate.
func TestTacticianActAllocations(t *testing.T) {
	for _, tc := range []struct {
		name string
		opp  env.Agent
	}{{"duelist", &Duelist{}}, {"warden", &Warden{}}, {"random_like_loop", &loopAgent{loop: []Action{Move(N), Bullet(SW), EMP, Missile(W), Landmine(E), Nothing}}}} {
		t.Run(tc.name, func(t *testing.T) {
			if n := actAllocs(&Tactician{}, tc.opp); n != 0 {
				t.Errorf("Act allocates %v times per round, want 0", n)
			}
		})
	}
}

// TestTacticianIsDeterministic checks that a seed fixes the tactician's
// play: two bouts against duelist with the same seeds end in the same
// state, from each seat.
func TestTacticianIsDeterministic(t *testing.T) {
	for seat := range 2 {
		var ends [2]Game
		for i := range ends {
			ags := [2]env.Agent{}
			ags[seat], ags[1-seat] = &Tactician{}, &Duelist{}
			_, g := duel(t, ags[0], ags[1], 5)
			ends[i] = *g
		}
		if ends[0].bots != ends[1].bots || ends[0].round != ends[1].round {
			t.Errorf("seat %d, same seeds, different endings: %+v in round %d and %+v in round %d", seat, ends[0].bots, ends[0].round, ends[1].bots, ends[1].round)
		}
	}
}

// BenchmarkTacticianAct measures one decision of the tactician, and for
// comparison of the duelist and the warden, in seat 0 against the warden
// (whose decision is outside the timer), over whole bouts.
func BenchmarkTacticianAct(b *testing.B) {
	for _, tc := range []struct {
		name string
		make func() env.Agent
	}{
		{"tactician", func() env.Agent { return &Tactician{} }},
		{"duelist", func() env.Agent { return &Duelist{} }},
		{"warden", func() env.Agent { return &Warden{} }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			g, err := New(DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			a, w := tc.make(), &Warden{}
			seed := uint64(1)
			reset := func() {
				g.Reset(seed)
				a.Reset(g, 0, seed)
				w.Reset(g, 1, seed+1)
				seed++
			}
			reset()
			acts := make([]int32, 2)
			rw, te, tr := make([]float32, 2), make([]bool, 2), make([]bool, 2)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				acts[0] = a.Act(g, 0)
				b.StopTimer()
				acts[1] = w.Act(g, 1)
				g.Step(acts, rw, te, tr)
				if g.Done() {
					reset()
				}
				b.StartTimer()
			}
		})
	}
}
