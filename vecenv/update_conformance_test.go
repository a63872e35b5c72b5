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
	for _, game := range env.Default.Names() {
		e, err := env.Make(game, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.(vecenv.ObsUpdater); !ok {
			continue
		}
		t.Run(game, func(t *testing.T) {
			for seed := range uint64(8) {
				checkObsUpdater(t, game, seed)
			}
		})
	}
}

func checkObsUpdater(t *testing.T, game string, seed uint64) {
	t.Helper()
	e, err := env.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(seed)
	u := e.(vecenv.ObsUpdater)
	spec := e.Spec()
	n := spec.Seats
	rng := rand.New(rand.NewPCG(seed, 5))
	rows := make([][][]byte, n)
	for s := range rows {
		rows[s] = spec.NewObsBuffers()
		for _, b := range rows[s] {
			for i := range b {
				b[i] = byte(rng.Uint32()) // garbage a full write must overwrite
			}
		}
	}
	have := make([]uint64, n)
	want := spec.NewObsBuffers()
	acts := make([]int32, n)
	rewards, term, trunc := make([]float32, n), make([]bool, n), make([]bool, n)
	for step := range 300 {
		for s := range n {
			if rng.IntN(10) == 0 {
				continue // this row misses the step
			}
			before := have[s]
			have[s] = u.UpdateObs(s, rows[s], have[s])
			if rng.IntN(10) == 0 {
				have[s] = u.UpdateObs(s, rows[s], have[s]) // twice in a row
			}
			e.WriteObs(s, want)
			for k := range want {
				if !bytes.Equal(rows[s][k], want[k]) {
					t.Fatalf("seed %d step %d seat %d: UpdateObs (from version %d) differs from WriteObs in tensor %s", seed, step, s, before, spec.Obs[k].Name)
				}
			}
		}
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
	found := false
	for _, game := range env.Default.Names() {
		e, err := env.Make(game, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.(vecenv.MaskUpdater); !ok {
			continue
		}
		found = true
		t.Run(game, func(t *testing.T) {
			for seed := range uint64(8) {
				checkMaskUpdater(t, game, nil, seed)
			}
		})
	}
	// Battle³'s safe mask masks moves out of the cube and the own cell's
	// bomb, which change as the seat moves.
	t.Run("battlecube/safe_mask", func(t *testing.T) {
		for seed := range uint64(8) {
			checkMaskUpdater(t, "battlecube", []byte(`{"safe_mask": true}`), seed)
		}
	})
	if !found {
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
