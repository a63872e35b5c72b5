package battleships

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
	rng := rand.New(rand.NewPCG(5, 5))
	h := sha256.New()
	obs := g.spec.NewObsBuffers()
	mask := make([]uint8, g.spec.Actions)
	var acts [Seats]int32
	var r [Seats]float32
	var te, tr [Seats]bool
	var word [4]byte
	for range steps {
		for s := range Seats {
			g.WriteObs(s, obs)
			g.WriteMask(s, mask)
			for _, o := range obs {
				h.Write(o)
			}
			h.Write(mask)
			acts[s] = testutil.RandomLegal(rng, mask)
			if rng.IntN(30) == 0 {
				acts[s] = int32(rng.IntN(g.spec.Actions))
			}
		}
		if g.Done() {
			g.Reset(rng.Uint64())
			continue
		}
		g.Step(acts[:], r[:], te[:], tr[:])
		for s := range Seats {
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(r[s]))
			h.Write(word[:])
			h.Write([]byte{bit(te[s]), bit(tr[s])})
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
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Size: SizeSmall}, "44add6806fe96765d966798894901f479ef86cd2c85fa65a7dafaa32dfd65bcc"},
		{Config{Size: SizeMedium}, "8b1ebf7d44cbc45451076f0b2b2f54426cb6f74834bf4d551dd91e2831bd966c"},
		{Config{Size: SizeLarge, Placement: PlacementReference}, "8bd19032c99a6c4c83122031f79b98d6ab9571eac28f9fe1620e82d37fc7c2f0"},
		{Config{Size: SizeMedium, Placement: PlacementLearn}, "df1c84be98017bf70d586fe2c0e9ac85e66c2f31d7f4a4a1e8d0a187f9be8fbc"},
	} {
		if got := obsDigest(t, &c.cfg, 20000); got != c.want {
			t.Errorf("%+v: digest %s, want %s", c.cfg, got, c.want)
		}
	}
}
