package match

import (
	"encoding/binary"
	"hash/fnv"
	"math"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

// Faults counts, by kind, the rounds in which an external bot faulted:
// timed out, crashed, or answered garbage or an illegal move
// (agents.Faults; its JSON is {"timed_out":N,"crashed":N,"invalid":N}).
type Faults = agents.Faults

// FaultCounter is implemented by external bots that count the rounds in
// which they faulted (timed out, crashed, or answered garbage or an
// illegal move) and took the original competition's penalty instead of
// their move: command-line bots (agents/cmdbot), Entelect bot folders,
// HTTP bots and UPE seats. [Match.Run] reads the counts into
// [Result.Faults] when the match ends.
type FaultCounter interface {
	// Faults returns, by kind, the rounds the agent faulted in since it
	// was made.
	Faults() Faults
}

// AgentFaults returns the faults so far of the seats of ags whose agents
// count them ([FaultCounter]), in seat order, the agents named by names
// (unnamed when short); nil when none does. [Match.Run] fills
// [Result.Faults] with it.
func AgentFaults(ags []env.Agent, names []string) []SeatFaults {
	var out []SeatFaults
	for seat, a := range ags {
		if f, ok := a.(FaultCounter); ok {
			out = append(out, SeatFaults{Seat: seat, Agent: nameOf(names, seat), Faults: f.Faults()})
		}
	}
	return out
}

// Fingerprint returns a 64-bit FNV-1a hash of where the game in e stands:
// its step count, every seat's observation tensors and action mask (in
// seat order), and its result (winner, draw, and each standing's seat,
// score and alive flag). Two games with the same fingerprint ended (almost
// certainly) in the same position as every seat sees it, after as many
// steps, with the same standings; games whose fingerprints differ ended
// differently. It reads only what every env has (no native codec), and
// nothing that depends on the players' names or where the game was played,
// so a game played on a pool and the same game played by [Match.Run] give
// the same fingerprint. It allocates the observation buffers once per
// call and does not modify e.
func Fingerprint(e env.Env) uint64 {
	spec := e.Spec()
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(e.Steps()))
	obs := spec.NewObsBuffers()
	mask := make([]uint8, spec.Actions)
	for seat := range spec.Seats {
		e.WriteObs(seat, obs)
		for _, t := range obs {
			h.Write(t)
		}
		e.WriteMask(seat, mask)
		h.Write(mask)
	}
	r := e.Result()
	put(uint64(int64(r.Winner)))
	if r.Draw {
		put(1)
	} else {
		put(0)
	}
	for _, s := range r.Standings {
		put(uint64(int64(s.Seat)))
		put(math.Float64bits(s.Score))
		if s.Alive {
			put(1)
		} else {
			put(0)
		}
	}
	return h.Sum64()
}
