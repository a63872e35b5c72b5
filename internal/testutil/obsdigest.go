package testutil

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
)

// DigestCase is one config of a game's TestObsDigest and the digest
// ([ObsDigest]) it must give.
type DigestCase[C any] struct {
	Cfg  C
	Want string
}

// CheckObsDigests is a game's TestObsDigest: for each case it makes an env
// with newEnv, resets it with seed 1 and fails t unless [ObsDigest] of
// steps steps, actions drawn by act from a PCG seeded 5, 5, equals the
// case's digest. The digests are taken once
// and pinned, so that a faster encoding or engine step that changes one
// byte of what the game writes for the pool fails.
func CheckObsDigests[C any, E env.Env](t testing.TB, newEnv func(C) (E, error), steps int, act func(rng *rand.Rand, mask []uint8) int32, cases []DigestCase[C]) {
	t.Helper()
	for _, c := range cases {
		e, err := newEnv(c.Cfg)
		if err != nil {
			t.Fatal(err)
		}
		e.Reset(1)
		if got := ObsDigest(e, steps, rand.New(rand.NewPCG(5, 5)), act); got != c.Want {
			t.Errorf("%+v: digest %s, want %s", c.Cfg, got, c.Want)
		}
	}
}

// ObsDigest plays e (already reset) for steps steps, each seat's action
// chosen by act from rng and the seat's mask, resetting a finished game
// with a seed from rng, and returns the hex SHA-256 of every observation
// (WriteObs) and mask (WriteMask) of every seat before each step and the
// rewards and flags (terminated 1, truncated 2) of every step. The play is
// deterministic when e is.
func ObsDigest(e env.Env, steps int, rng *rand.Rand, act func(rng *rand.Rand, mask []uint8) int32) string {
	spec := e.Spec()
	n := spec.Seats
	h := sha256.New()
	obs := spec.NewObsBuffers()
	mask := make([]uint8, spec.Actions)
	acts := make([]int32, n)
	r, te, tr := make([]float32, n), make([]bool, n), make([]bool, n)
	var word [5]byte
	for range steps {
		for s := range n {
			e.WriteObs(s, obs)
			e.WriteMask(s, mask)
			for _, o := range obs {
				h.Write(o)
			}
			h.Write(mask)
			acts[s] = act(rng, mask)
		}
		if e.Done() {
			e.Reset(rng.Uint64())
			continue
		}
		e.Step(acts, r, te, tr)
		for s := range n {
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(r[s]))
			word[4] = 0
			if te[s] {
				word[4] |= 1
			}
			if tr[s] {
				word[4] |= 2
			}
			h.Write(word[:])
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// LegalOrAny returns an act for [ObsDigest]: a legal action
// ([RandomLegal]), but after one draw in every (rng.IntN(every) == 0) a
// uniform draw from all n actions instead, so that refused actions are
// played too.
func LegalOrAny(every, n int) func(rng *rand.Rand, mask []uint8) int32 {
	return func(rng *rand.Rand, mask []uint8) int32 {
		a := RandomLegal(rng, mask)
		if rng.IntN(every) == 0 {
			a = int32(rng.IntN(n))
		}
		return a
	}
}
