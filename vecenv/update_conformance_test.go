package vecenv_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// TestObsUpdatersEqualWriteObs: for every registered game whose env
// implements vecenv.ObsUpdater, rows kept up to date with UpdateObs the way
// a pool keeps them equal WriteObs after every step and reset: rows that
// miss a step, rows updated twice, resets after the end of a game and in
// the middle of one, over random play. (Bomberman's own test goes deeper
// into its deltas.)
func TestObsUpdatersEqualWriteObs(t *testing.T) {
	eachGame(t, func(e env.Env) bool { _, ok := e.(vecenv.ObsUpdater); return ok }, checkObsUpdater)
}

// eachGame runs check in a subtest for seeds 0 to 7 of every registered
// game whose env, made with its default config, has(e); it returns how
// many games it checked.
func eachGame(t *testing.T, has func(e env.Env) bool, check func(t *testing.T, game string, seed uint64)) int {
	n := 0
	for _, game := range env.Default.Names() {
		if !has(testutil.NewEnv(t, game, 0)) {
			continue
		}
		n++
		t.Run(game, func(t *testing.T) {
			for seed := range uint64(8) {
				check(t, game, seed)
			}
		})
	}
	return n
}

func checkObsUpdater(t *testing.T, game string, seed uint64) {
	t.Helper()
	e := testutil.NewEnv(t, game, seed)
	spec := e.Spec()
	n := spec.Seats
	rng := rand.New(rand.NewPCG(seed, 5))
	rows := testutil.NewObsRows(e, rng)
	acts := make([]int32, n)
	rewards, term, trunc := make([]float32, n), make([]bool, n), make([]bool, n)
	for step := range 300 {
		rows.Sync(t, "seed %d step %d", seed, step)
		if e.Done() || rng.IntN(100) == 0 {
			e.Reset(rng.Uint64())
			continue
		}
		for s := range acts {
			acts[s] = int32(rng.IntN(spec.Actions))
		}
		e.Step(acts, rewards, term, trunc)
	}
}

// TestMaskUpdatersEqualWriteMask: for every registered game whose env
// implements vecenv.MaskUpdater, masks kept up to date with UpdateMask the
// way a pool keeps them equal WriteMask after every step and reset, from
// garbage, with rows that miss steps or are updated twice, over play that
// takes legal actions (so that weapons and moves change legality).
func TestMaskUpdatersEqualWriteMask(t *testing.T) {
	found := eachGame(t, func(e env.Env) bool { _, ok := e.(vecenv.MaskUpdater); return ok }, func(t *testing.T, game string, seed uint64) {
		checkMaskUpdater(t, game, nil, seed)
	})
	// Battle³'s safe mask masks moves out of the cube and the own cell's
	// bomb, which change as the seat moves.
	t.Run("battlecube/safe_mask", func(t *testing.T) {
		for seed := range uint64(8) {
			checkMaskUpdater(t, "battlecube", []byte(`{"safe_mask": true}`), seed)
		}
	})
	// Battleships' shot mask masks the shots at cells already shot.
	t.Run("battleships/shot_mask", func(t *testing.T) {
		for seed := range uint64(8) {
			checkMaskUpdater(t, "battleships/small", []byte(`{"shot_mask": true, "placement": "learn"}`), seed)
		}
	})
	if found == 0 {
		t.Fatal("no registered game implements vecenv.MaskUpdater (battleships should)")
	}
}

func checkMaskUpdater(t *testing.T, game string, config []byte, seed uint64) {
	t.Helper()
	e, err := env.Make(game, config)
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(seed)
	u := e.(vecenv.MaskUpdater)
	spec := e.Spec()
	n := spec.Seats
	rng := rand.New(rand.NewPCG(seed, 6))
	rows := make([][]uint8, n)
	for s := range rows {
		rows[s] = make([]uint8, spec.Actions)
		for i := range rows[s] {
			rows[s][i] = uint8(rng.Uint32()) // garbage a full write must overwrite
		}
	}
	have := make([]uint64, n)
	want := make([]uint8, spec.Actions)
	acts := make([]int32, n)
	rewards, term, trunc := make([]float32, n), make([]bool, n), make([]bool, n)
	for step := range 400 {
		for s := range n {
			e.WriteMask(s, want)
			acts[s] = testutil.RandomLegal(rng, want)
			if rng.IntN(10) == 0 {
				continue // this row misses the step
			}
			before := have[s]
			have[s] = u.UpdateMask(s, rows[s], have[s])
			if have[s] == 0 {
				t.Fatalf("seed %d step %d seat %d: UpdateMask returned version 0", seed, step, s)
			}
			if rng.IntN(10) == 0 {
				have[s] = u.UpdateMask(s, rows[s], have[s]) // twice in a row
			}
			if !bytes.Equal(rows[s], want) {
				t.Fatalf("seed %d step %d seat %d: UpdateMask (from version %#x) differs from WriteMask", seed, step, s, before)
			}
		}
		if e.Done() || rng.IntN(150) == 0 {
			e.Reset(rng.Uint64())
			continue
		}
		e.Step(acts, rewards, term, trunc)
	}
}

// TestPoolMasksUpdatedInPlaceEqualWriteMask: a pool of Battleships envs,
// which implement vecenv.MaskUpdater, writes only the mask blocks whose
// legality changed; after every Step and Reset (legal random actions, so
// weapons fire and energy runs down; both autoreset modes; 1 and 3
// workers) every row's mask is exactly what the env's WriteMask writes.
func TestPoolMasksUpdatedInPlaceEqualWriteMask(t *testing.T) {
	for _, tc := range []struct {
		mode    vecenv.AutoReset
		workers int
	}{
		{vecenv.NextStep, 1},
		{vecenv.SameStep, 3},
	} {
		t.Run(fmt.Sprintf("%v/workers=%d", tc.mode, tc.workers), func(t *testing.T) {
			p := testutil.NewPool(t, vecenv.Config{Game: "battleships/small", NumEnvs: 5, Seed: 3, Workers: tc.workers, LearnerSeats: []int{0, 1}, AutoReset: tc.mode})
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			buf := p.Buffers()
			n := p.Spec().Actions
			want := make([]uint8, n)
			acts := make([]int32, p.Rows())
			for step := range 400 {
				for r := range acts {
					acts[r] = testutil.RandomLegal(rng, buf.Mask[r*n:(r+1)*n])
				}
				if rng.IntN(101) == 0 {
					if err := p.Reset(); err != nil {
						t.Fatal(err)
					}
				} else if err := p.Step(acts); err != nil {
					t.Fatal(err)
				}
				for r := range acts {
					p.Env(int(buf.Env[r])).WriteMask(int(buf.Seat[r]), want)
					if !bytes.Equal(buf.Mask[r*n:(r+1)*n], want) {
						t.Fatalf("step %d row %d (env %d seat %d): the pool's mask differs from WriteMask", step, r, buf.Env[r], buf.Seat[r])
					}
				}
			}
		})
	}
}
