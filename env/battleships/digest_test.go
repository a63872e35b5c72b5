package battleships

import (
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestObsDigest pins every byte the game writes for the pool (the
// observations, masks, rewards and flags of 20,000 steps of random play per
// config, testutil.ObsDigest) to digests of the code before the pool-speed
// work of 2026-11-29 (commit bf88f6c, where this test's first version,
// with its own hash layout, pinned the same bytes), so that a faster
// encoding or engine step that changes one byte fails here. The cases
// with the shot mask and the density plane pin the bytes of ccc99c8, before
// each seat's density plane was cached (Game.writeDensity).
func TestObsDigest(t *testing.T) {
	for _, c := range []testutil.DigestCase[*Config]{
		{Cfg: &Config{Size: SizeSmall}, Want: "4582b29d2ae8b7567686e3bab5ab3021b9e3ec1be6f2352a83e94aa4271f1335"},
		{Cfg: &Config{Size: SizeMedium}, Want: "49dc8d666e3123bd2b4c49c40bf4c9c7ab76d6f96ff12278033cc3f42c145f26"},
		{Cfg: &Config{Size: SizeLarge, Placement: PlacementReference}, Want: "701b3a21d161969363b8cf9135beaf51e336f74bd6d7759c57fdf767b400f8c5"},
		{Cfg: &Config{Size: SizeMedium, Placement: PlacementLearn}, Want: "7a46bab8f652b7e879a4ca269a0e69b84cba7b8c6572585f47c70e10c0c941fc"},
		{Cfg: &Config{Size: SizeSmall, Placement: PlacementLearn, ShotMask: true, DensityPlane: true}, Want: "151b0be288c04338bdee32ef4440a001229d0f0893911bd5e016410898f8011a"},
		{Cfg: &Config{Size: SizeMedium, Placement: PlacementLearn, ShotMask: true, DensityPlane: true}, Want: "04dd5fcda2fa3c8f1378f08f17e70611b5266641e4063fb709233aaea2e8300b"},
		{Cfg: &Config{Size: SizeLarge, ShotMask: true, DensityPlane: true}, Want: "530283e6c5996a16292b5fef5c9e849af73f1d1514ba4e6ef6be399596bbfcf8"},
	} {
		// Each size has its own action count, from which a refused action is drawn.
		act := testutil.LegalOrAny(30, NumActions(c.Cfg.MapSize()))
		testutil.CheckObsDigests(t, New, 20000, act, []testutil.DigestCase[*Config]{c})
	}
}
