package portalbomber

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestObsDigest pins every byte the game writes for the pool (the
// observations, masks, rewards and flags of 20,000 steps of random play per
// config, testutil.ObsDigest) to digests taken before the pool-speed work
// of 2026-11-29 (commit 70339f3), so that a faster encoding or engine step
// that changes one byte fails here.
func TestObsDigest(t *testing.T) {
	safe, small, big, early := DefaultConfig(), DefaultConfig(), VariantConfig(), DefaultConfig()
	safe.SafeMask, safe.DangerReward, safe.CoinsReward = true, 0.25, 0.5
	small.Size, small.SoftDensity = 7, 30
	big.Size, big.SoftDensity = 25, 90
	early.ApocalypseAfter, early.MaxRounds = 6, 60
	testutil.CheckObsDigests(t, New, 20000, testutil.LegalOrAny(20, NumActions), []testutil.DigestCase[*Config]{
		{Cfg: DefaultConfig(), Want: "ea8e513e6894e36b1999e7a8d1b1c3e43d50330cbeb4d9b4990d70ff5a6b80fa"},
		{Cfg: VariantConfig(), Want: "59bc1ec297b87cdcf90a75325a788cc11b61ff2081217aa9151df2c3db940ab4"},
		{Cfg: safe, Want: "2c120ecac03dfa76ce2d6f80d5f1917fcc97674d9e5970f3a652ea16074fed25"},
		{Cfg: small, Want: "e167914576f87047c7faf2ea024d24312152ef2aa1a49b36d5d3e4184fa0ee4b"},
		{Cfg: big, Want: "2747c461edae83ed510457bb161fb49f3fe436925a6a06d19902fc6e9e15d83c"},
		{Cfg: early, Want: "f6840088233f3d04cf2455e7d69d68b2ccf7791912c5e28bc087013831fa50ca"},
	})
}
