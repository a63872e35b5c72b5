package testutil

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/botarena/botarena/env"
)

// Digest hashes every per-row output of a pool's step: b's observations,
// mask, rewards, flags and row ids, the ended flags and, for the rows that
// ended, their final observations (none when final is nil).
// Two steps with equal digests wrote the same buffers.
func Digest(b *env.Buffers, ended []bool, final [][]byte) [32]byte {
	h := sha256.New()
	for _, o := range b.Obs {
		h.Write(o)
	}
	h.Write(b.Mask)
	binary.Write(h, binary.LittleEndian, b.Rewards)
	binary.Write(h, binary.LittleEndian, b.Terminated)
	binary.Write(h, binary.LittleEndian, b.Truncated)
	binary.Write(h, binary.LittleEndian, b.Env)
	binary.Write(h, binary.LittleEndian, b.Seat)
	binary.Write(h, binary.LittleEndian, b.Episode)
	binary.Write(h, binary.LittleEndian, ended)
	for r, e := range ended {
		if e { // only the rows where FinalObs is valid
			for t, f := range final {
				n := b.Spec.Obs[t].Bytes()
				h.Write(f[r*n : (r+1)*n])
			}
		}
	}
	return [32]byte(h.Sum(nil))
}
