package testutil

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
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
