package battlecube

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// obsDigest plays a fixed-seed game of cfg for steps steps with random
// legal actions (resetting finished games) and returns the SHA-256 of
// every observation, mask, reward and flag written on the way.
func obsDigest(t *testing.T, cfg *Config, steps int) string {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	n := g.spec.Seats
	rng := rand.New(rand.NewPCG(5, 5))
	h := sha256.New()
	obs := g.spec.NewObsBuffers()
	mask := make([]uint8, g.spec.Actions)
	acts := make([]int32, n)
	r, te, tr := make([]float32, n), make([]bool, n), make([]bool, n)
	var word [4]byte
	for range steps {
		for s := range n {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
			for _, o := range obs {
				h.Write(o)
			}
			h.Write(mask)
			acts[s] = testutil.RandomLegal(rng, mask)
			if rng.IntN(3) == 0 {
				acts[s] = int32(rng.IntN(7)) // moves more often than uniform draws give
			}
		}
		if g.Done() {
			g.Reset(rng.Uint64())
			continue
		}
		g.Step(acts, r, te, tr)
		for s := range n {
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(r[s]))
			h.Write(word[:])
			var f byte
			if te[s] {
				f |= 1
			}
			if tr[s] {
				f |= 2
			}
			h.Write([]byte{f})
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestObsDigest pins every byte the game writes for the pool (the
// observations, masks, rewards and flags of 20,000 steps of random play per
// config) to digests taken before the pool-speed work of 2026-11-29
// (commit bf88f6c), so that a faster encoding or engine step that changes
// one byte fails here.
func TestObsDigest(t *testing.T) {
	safe, multi, many := DefaultConfig(), DefaultConfig(), DefaultConfig()
	safe.SafeMask = true
	multi.TasksPerTick = 3
	many.Players = 40
	for _, c := range []struct {
		cfg  *Config
		want string
	}{
		{DefaultConfig(), "b10a2fcbd4811e15ac60e6337f40a443661d6ffd9b2a86e7c683cda0723b0606"},
		{safe, "8926671794656bd962b9d8d04a5d81e09bb90d0d5930da7b88ee62f4a33c79d2"},
		{multi, "522c1eb8f1e8c75e2e23def9695700e372c58a1646aa9c9f3d8d7f56a4c5f1f6"},
		{many, "1638b624c3d17d14e02013d4a74d788d565df9ba63a0e11b503bbdda7420f830"},
	} {
		if got := obsDigest(t, c.cfg, 20000); got != c.want {
			t.Errorf("%+v: digest %s, want %s", *c.cfg, got, c.want)
		}
	}
}
