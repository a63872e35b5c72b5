package testutil

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// GarbageObs returns new observation buffers for spec ([env.Spec.NewObsBuffers])
// filled with bytes from rng: rows that a full write must overwrite, for
// tests of incremental observation writers.
func GarbageObs(spec *env.Spec, rng *rand.Rand) [][]byte {
	obs := spec.NewObsBuffers()
	for _, b := range obs {
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	}
	return obs
}

// ObsRows holds one observation row per seat of an env that implements
// [vecenv.ObsUpdater], kept up to date with UpdateObs the way a pool keeps
// its rows, for tests that check UpdateObs against WriteObs. The rows
// start as garbage ([GarbageObs]) at version 0.
type ObsRows struct {
	// Before, when set, is called with a seat and the version its row
	// holds just before [ObsRows.Sync] updates the row: a test counts
	// there the updates that took the incremental path.
	Before func(seat int, have uint64)
	// Between, when set, is called after Sync updated a seat's row and
	// before it checks the row: a test disturbs the env there (a copy
	// stepped through shared records).
	Between func(seat int)

	e    env.Env
	u    vecenv.ObsUpdater
	rng  *rand.Rand
	rows [][][]byte
	have []uint64
	want [][]byte
}

// NewObsRows returns the rows of e's seats, filled with garbage from rng;
// e must implement [vecenv.ObsUpdater]. Sync draws its disorder from rng
// too, so a test that shares rng keeps one reproducible sequence.
func NewObsRows(e env.Env, rng *rand.Rand) *ObsRows {
	spec := e.Spec()
	r := &ObsRows{e: e, u: e.(vecenv.ObsUpdater), rng: rng, have: make([]uint64, spec.Seats), want: spec.NewObsBuffers()}
	for range spec.Seats {
		r.rows = append(r.rows, GarbageObs(spec, rng))
	}
	return r
}

// Sync brings every seat's row up to date with UpdateObs, as a pool does
// after a step or reset but with a test's disorder drawn from the rng:
// one row in ten misses the step (it is left as it is), one in ten is
// updated twice (the second call must write nothing). After each update
// it checks the row against what WriteObs writes now and fails t (Fatal)
// where they differ, naming format and args (the step), the seat, the
// version the row had and the tensor.
func (r *ObsRows) Sync(t testing.TB, format string, args ...any) {
	t.Helper()
	spec := r.e.Spec()
	for seat := range spec.Seats {
		if r.rng.IntN(10) == 0 {
			continue // this row misses the step
		}
		before := r.have[seat]
		if r.Before != nil {
			r.Before(seat, before)
		}
		r.have[seat] = r.u.UpdateObs(seat, r.rows[seat], before)
		if r.rng.IntN(10) == 0 {
			r.have[seat] = r.u.UpdateObs(seat, r.rows[seat], r.have[seat]) // twice: writes nothing
		}
		if r.Between != nil {
			r.Between(seat)
		}
		r.e.WriteObs(seat, r.want)
		for k := range r.want {
			if !bytes.Equal(r.rows[seat][k], r.want[k]) {
				t.Fatalf("%s seat %d: UpdateObs (from version %d) differs from WriteObs in tensor %s",
					fmt.Sprintf(format, args...), seat, before, spec.Obs[k].Name)
			}
		}
	}
}

// WantUpdateKeepsUnchanged checks [vecenv.ObsUpdater]'s contract on e's
// seat 0, on byte i of its first tensor, which step (a Step or more, after
// a first UpdateObs from version 0) must leave as it was: given the row's
// own version, UpdateObs leaves that byte as it is (here changed behind
// its back, which the contract forbids, to show it) and brings the rest of
// the row up to date; given 0, it writes every byte.
func WantUpdateKeepsUnchanged(t testing.TB, e env.Env, step func(), i int) {
	t.Helper()
	u := e.(vecenv.ObsUpdater)
	spec := e.Spec()
	row, want := spec.NewObsBuffers(), spec.NewObsBuffers()
	v := u.UpdateObs(0, row, 0)
	step()
	e.WriteObs(0, want)
	row[0][i] = want[0][i] + 1
	u.UpdateObs(0, row, v)
	if row[0][i] != want[0][i]+1 {
		t.Errorf("byte %d of %s, unchanged by the step, was rewritten with the row's own version", i, spec.Obs[0].Name)
	}
	row[0][i] = want[0][i]
	for k := range want {
		if !bytes.Equal(row[k], want[k]) {
			t.Errorf("tensor %s was not brought up to date", spec.Obs[k].Name)
		}
	}
	row[0][i] = want[0][i] + 1
	u.UpdateObs(0, row, 0)
	if row[0][i] != want[0][i] {
		t.Errorf("a write from version 0 left byte %d of %s as it was", i, spec.Obs[0].Name)
	}
}
