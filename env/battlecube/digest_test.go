package battlecube

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestObsDigest pins every byte the game writes for the pool (the
// observations, masks, rewards and flags of 20,000 steps of random play per
// config, testutil.ObsDigest) to digests taken before the pool-speed work
// of 2026-11-29 (commit bf88f6c), so that a faster encoding or engine step
// that changes one byte fails here. The last case, three tasks a tick with
// the history and cycle-mark scalars, pins the bytes of cedaf58, where the
// cycle marks came in.
func TestObsDigest(t *testing.T) {
	safe, multi, many := DefaultConfig(), DefaultConfig(), DefaultConfig()
	safe.SafeMask = true
	multi.TasksPerTick = 3
	many.Players = 40
	marks := DefaultConfig()
	marks.TasksPerTick, marks.History, marks.CycleMarks = 3, true, true
	act := func(rng *rand.Rand, mask []uint8) int32 {
		a := testutil.RandomLegal(rng, mask)
		if rng.IntN(3) == 0 {
			a = int32(rng.IntN(7)) // moves more often than uniform draws give
		}
		return a
	}
	testutil.CheckObsDigests(t, New, 20000, act, []testutil.DigestCase[*Config]{
		{Cfg: DefaultConfig(), Want: "b10a2fcbd4811e15ac60e6337f40a443661d6ffd9b2a86e7c683cda0723b0606"},
		{Cfg: safe, Want: "8926671794656bd962b9d8d04a5d81e09bb90d0d5930da7b88ee62f4a33c79d2"},
		{Cfg: multi, Want: "522c1eb8f1e8c75e2e23def9695700e372c58a1646aa9c9f3d8d7f56a4c5f1f6"},
		{Cfg: many, Want: "1638b624c3d17d14e02013d4a74d788d565df9ba63a0e11b503bbdda7420f830"},
		{Cfg: marks, Want: "94646aca35145fc57def3344c75a1622e33d3a9c830b06db862bf126fa1d5cea"},
	})
}
