package battlebots

import (
	"encoding/binary"
	"math"
	"testing"
)

func TestObservation(t *testing.T) {
	g := newBout(t, pos{3, 3}, pos{5, 3})
	playCommands(t, g, [][2]string{{"L N", "M S"}, {"B W", "P"}})
	// bot1 (3,3), bot2 (5,3); mine by bot1 at (3,2); missile from (5,3)
	// S: (5,5) after round 0, (5,7) after round 1; bullet from (3,3) W:
	// (2,3), (1,3), then dies at the wall. Paralysed by bot2's EMP.
	spec := g.Spec()
	obs := spec.NewObsBuffers()
	idx := func(c, x, y int) int { return c*100 + y*10 + x }
	g.WriteObs(1, obs)
	p := obs[0]
	for _, c := range []struct {
		name  string
		i     int
		value byte
	}{
		{"self", idx(PlaneSelf, 5, 3), 1},
		{"enemy", idx(PlaneEnemy, 3, 3), 1},
		{"missile_S", idx(PlaneMissiles+int(S), 5, 7), 1},
		{"enemy_mine_hidden", idx(PlaneOwnMines, 3, 2), 0},
	} {
		if p[c.i] != c.value {
			t.Errorf("bot2's %s: %d, want %d", c.name, p[c.i], c.value)
		}
	}
	sum := 0
	for _, v := range p {
		sum += int(v)
	}
	if sum != 3 {
		t.Errorf("bot2's planes sum to %d, want 3", sum)
	}
	g.WriteObs(0, obs)
	if obs[0][idx(PlaneSelf, 3, 3)] != 1 || obs[0][idx(PlaneOwnMines, 3, 2)] != 1 {
		t.Error("bot1 should see itself and its own mine")
	}
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(obs[1][4*i:])) }
	if f(ScalarHP) != 1 || f(ScalarEnemyHP) != 0.9 || f(ScalarParalysed) != 1 || f(ScalarRoundFraction) != 2.0/1000 {
		t.Errorf("bot1's scalars %v %v %v %v", f(0), f(1), f(2), f(3))
	}
}

func TestMask(t *testing.T) {
	g := newBout(t, pos{1, 1}, pos{2, 2})
	mask := make([]uint8, NumActions)
	g.WriteMask(0, mask)
	for a := range Action(NumActions) {
		kind, d := a.Kind()
		dx, dy := d.Delta()
		in := 1+dx >= 1 && 1+dy >= 1
		want := uint8(1)
		if (kind == MoveN || kind == LandmineN) && !in {
			want = 0
		}
		if mask[a] != want {
			t.Errorf("action %v: mask %d, want %d", a, mask[a], want)
		}
	}
	if mask[Move(SE)] != 1 {
		t.Error("a move onto the enemy's cell should be legal (the enemy may move away)")
	}
	playCommands(t, g, [][2]string{{"P", "NO"}})
	g.WriteMask(0, mask)
	for d := range Dir(NumDirs) {
		if mask[Move(d)] != 0 {
			t.Errorf("move %v legal while paralysed", d)
		}
	}
	if mask[Nothing] != 1 || mask[EMP] != 1 || mask[Bullet(N)] != 1 {
		t.Error("nothing, EMP and bullets stay legal while paralysed")
	}
	// Invalid counts masked-illegal and out-of-range actions.
	g = newBout(t, pos{1, 1}, far)
	g.Step([]int32{int32(Move(W)), 99}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	g.Step([]int32{int32(Landmine(N)), -1}, make([]float32, 2), make([]bool, 2), make([]bool, 2))
	if g.Invalid(0) != 2 || g.Invalid(1) != 2 {
		t.Errorf("invalid %d %d, want 2 2", g.Invalid(0), g.Invalid(1))
	}
	g.bots[0].HP = 0
	g.done = true
	g.WriteMask(0, mask)
	for a, m := range mask {
		if (a == 0) != (m == 1) {
			t.Fatalf("finished bout: mask %v", mask)
		}
	}
}

func TestRewardsAndFlags(t *testing.T) {
	t.Run("terminated_by_hp", func(t *testing.T) {
		g := newBout(t, pos{3, 3}, pos{4, 3})
		g.bots[1].HP = 3
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		g.Step([]int32{int32(Missile(E)), 0}, rewards, term, trunc)
		if !g.Done() || !term[0] || !term[1] || trunc[0] || rewards[0] != 1 || rewards[1] != -1 {
			t.Errorf("done %v term %v trunc %v rewards %v", g.Done(), term, trunc, rewards)
		}
		if res := g.Result(); res.Winner != 0 || res.Draw || res.Standings[0].Seat != 0 || res.Standings[1].Alive || res.Standings[1].Score != 0 {
			t.Errorf("result %+v", res)
		}
		g.Step([]int32{1, 1}, rewards, term, trunc)
		if rewards[0] != 0 || !term[0] {
			t.Error("stepping a finished bout")
		}
	})
	t.Run("truncated_at_the_cap", func(t *testing.T) {
		g, _ := New(&Config{MaxRounds: 3, HPReward: 0.5})
		rewards := make([]float32, 2)
		term, trunc := make([]bool, 2), make([]bool, 2)
		g.Step([]int32{int32(EMP), 0}, rewards, term, trunc)
		if rewards[0] != -0.5 || rewards[1] != 0.5 {
			t.Errorf("shaping %v", rewards)
		}
		g.Step([]int32{0, 0}, rewards, term, trunc)
		g.Step([]int32{0, 0}, rewards, term, trunc)
		if !g.Done() || term[0] || !trunc[0] || !trunc[1] || rewards[0] != -1 || rewards[1] != 1 {
			t.Errorf("done %v term %v trunc %v rewards %v", g.Done(), term, trunc, rewards)
		}
	})
	t.Run("draw", func(t *testing.T) {
		g, _ := New(&Config{MaxRounds: 1})
		rewards := make([]float32, 2)
		g.Step([]int32{0, 0}, rewards, make([]bool, 2), make([]bool, 2))
		if w, d := g.Outcome(); w != -1 || !d || rewards[0] != 0 || rewards[1] != 0 {
			t.Errorf("outcome %d %v rewards %v", w, d, rewards)
		}
	})
}
