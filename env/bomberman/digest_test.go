package bomberman

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestObsDigest pins every byte the game writes for the pool (the
// observations, masks, rewards and flags of 10,000 steps of random play per
// config, testutil.ObsDigest) to digests taken before the pool-speed work
// of 2026-11-29 (commit 70339f3), so that a faster encoding or engine step
// that changes one byte fails here.
func TestObsDigest(t *testing.T) {
	two, eight, view, safe := DefaultConfig(), DefaultConfig(), DefaultConfig(), DefaultConfig()
	two.Players, two.MaxRounds = 2, 150
	eight.Players = 8
	view.ViewRadius, view.PointsReward = 5, 0.25
	safe.SafeMask = true
	testutil.CheckObsDigests(t, New, 10000, testutil.LegalOrAny(20, NumActions), []testutil.DigestCase[*Config]{
		{Cfg: DefaultConfig(), Want: "c324dd27833b4aa701a549de7215efe2060e688025133c4a82cf3d541e8dfaa0"},
		{Cfg: two, Want: "5f63a7a093602bed2c5e3bd2928fbc7ba50f3484c1e56f6dd14e902f4ee1f8d0"},
		{Cfg: eight, Want: "23c45a32303425dce9f13ee96d6eab15cbfe9f05f6bb26293e8eb9ef61e186f7"},
		{Cfg: view, Want: "ced37526af4701ed3d9814cf6766d46b4dd1d9139672154fb9b557d5032ed9d2"},
		{Cfg: safe, Want: "87c0438aa54a86525b0a3524cb87fc7e4f590ff55f68b4713fbfbffba6e405b4"},
	})
}
