package battlebots

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
	wide, short := DefaultConfig(), DefaultConfig()
	wide.Arena, wide.HPReward = Arena10x10, 0.5
	short.MaxRounds = 40
	testutil.CheckObsDigests(t, New, 20000, testutil.LegalOrAny(20, NumActions), []testutil.DigestCase[*Config]{
		{Cfg: DefaultConfig(), Want: "ad5fdabfce6a98917ee61a0e013d266490be240a9c98fe95f6ffdf7f38feedae"},
		{Cfg: wide, Want: "5a6648d9dba4e96dfd65dcd77600a4c68676fcb9a833dd422802bf7371a4a812"},
		{Cfg: short, Want: "f3c6937334f2c8cfbd1423ee1a508ab47ea973a3b714bff3ef63f86dfca9534d"},
	})
}
