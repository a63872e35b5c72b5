package vecenv_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// TestRowsUpdatedInPlaceEqualWriteObs: Bomberman implements
// vecenv.ObsUpdater, so a pool writes only what changed in each row. After
// every Step (random actions, short games, plans and a Reset now and then)
// every row must hold exactly what the env's WriteObs writes now, in both
// autoreset modes, with and without opponents, on 1 and 3 workers.
func TestRowsUpdatedInPlaceEqualWriteObs(t *testing.T) {
	for _, tc := range []struct {
		mode    vecenv.AutoReset
		all     bool
		workers int
	}{
		{vecenv.NextStep, true, 1},
		{vecenv.NextStep, false, 3},
		{vecenv.SameStep, true, 3},
		{vecenv.SameStep, false, 1},
	} {
		t.Run(fmt.Sprintf("%v/all_learners=%v/workers=%d", tc.mode, tc.all, tc.workers), func(t *testing.T) {
			cfg := mixedConfig(12, tc.workers, 5, tc.mode)
			if tc.all {
				cfg.LearnerSeats, cfg.Opponents = []int{0, 1, 2, 3}, nil
			}
			p := testutil.NewPool(t, cfg)
			if _, ok := p.Env(0).(vecenv.ObsUpdater); !ok {
				t.Fatal("bomberman does not implement vecenv.ObsUpdater")
			}
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			want := p.Spec().NewObsBuffers()
			buf := p.Buffers()
			L := len(p.LearnerSeats())
			acts := make([]int32, p.Rows())
			for step := range 300 {
				for r := range acts {
					acts[r] = int32(rng.IntN(p.Spec().Actions))
				}
				switch {
				case rng.IntN(97) == 0:
					if err := p.Reset(); err != nil {
						t.Fatal(err)
					}
				case rng.IntN(13) == 0:
					if err := p.Plan(rng.IntN(p.NumEnvs()), vecenv.EpisodePlan{Seed: rng.Uint64()}); err != nil {
						t.Fatal(err)
					}
					fallthrough
				default:
					if err := p.Step(acts); err != nil {
						t.Fatal(err)
					}
				}
				for r := range p.Rows() {
					e, seat := int(buf.Env[r]), int(buf.Seat[r])
					p.Env(e).WriteObs(seat, want)
					for ti, tensor := range p.Spec().Obs {
						n := tensor.Bytes()
						if got := buf.Obs[ti][r*n : (r+1)*n]; !bytes.Equal(got, want[ti]) {
							t.Fatalf("step %d row %d (env %d seat %d, %d learners): tensor %s differs from WriteObs",
								step, r, e, seat, L, tensor.Name)
						}
					}
				}
			}
		})
	}
}
