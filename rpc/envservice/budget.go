package envservice

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/rpc/internal/wire"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

// This file is a pool's cost in the host's memory budget (see package
// server's budget.go), reserved before anything of the pool is allocated:
// an upper bound of what it will hold:
//
//   - its envs (measured on probe envs of the game and config, made once
//     per config: see server.Budget.EnvSizes);
//   - the vecenv buffers and bookkeeping (a row per learner agent:
//     observations, mask, reward, flags, ids, statistics; the final
//     observations in SAME_STEP mode);
//   - the Arrow encoders (the step batch and, in SAME_STEP mode, the final
//     batch) and the response buffers (two: one being written while the
//     next is built, each as large as an uncompressed batch even with
//     COMPRESSION_ZSTD, whose ratio is not known in advance, and from
//     wire.HandOffBytes on at least wire.ConnectRecycleLimit), with
//     COMPRESSION_ZSTD the compressed bodies and one zstd encoder per
//     worker;
//   - the opponents (measured like the envs, built-in agents and policies;
//     a fixed allowance per external bot);
//   - for an async pool (batch_size), the ring of vecenv.AsyncBatches
//     batches the async workers write (rows laid out like the pool's, with
//     their ended flags and final observations), and its bookkeeping per
//     env and row; its encoders and response buffers are those of a batch
//     of batch_size envs.
//
// The reservation is released when the pool is closed (ClosePool, the idle
// timeout, a panic, Close).

// The vecenv and envservice bookkeeping of a pool besides the envs and buffers
// (see vecenv.Pool and servedPool), rounded up.
const (
	// perEnvBytes: the vecenv slot (the env interface, seed, counters,
	// plan) and the ended flag.
	perEnvBytes = 96
	// perRowBytes: the episode return (8) and statistics (48), the Ended
	// flag, the parsed action and Arrow's two flag bits.
	perRowBytes = 8 + 48 + 1 + 4 + 1
	// perOpponentBytes: the opponent interface, its current and next
	// choice and its batch group.
	perOpponentBytes = 16 + 4 + 4 + 8
	// asyncPerEnvBytes: an async pool's per-env state (in flight, stamp,
	// operation, queue entry) and the parsed env id of a Send.
	asyncPerEnvBytes = 1 + 4 + 1 + 4 + 4
	// asyncPerRowBytes: an async pool's queued actions.
	asyncPerRowBytes = 4
	// batchHeaderBytes: an Arrow IPC record batch header (the flatbuffer
	// with every buffer's offset and length) and padding, rounded up.
	batchHeaderBytes = 4 << 10
	// zstdSmallBytes and zstdLargeBytes: one zstd encoder
	// (klauspost/compress at its default level, as Arrow's IPC writer
	// makes one per compressing goroutine) that has compressed buffers of
	// at most its block size (zstdBlockBytes), and one that has compressed
	// larger ones, with its 8 MiB window's history. Measured at 2.3 MiB, and 18.6
	// MiB for buffers of 256 KiB to 256 MiB.
	zstdBlockBytes = 128 << 10
	zstdSmallBytes = 3 << 20
	zstdLargeBytes = 20 << 20
)

// poolCost is the byte cost of a pool by part.
type poolCost struct {
	envs, buffers, batches, zstd, opponents int64
}

func (c poolCost) total() int64 { return c.envs + c.buffers + c.batches + c.zstd + c.opponents }

// String breaks the cost down, for messages.
func (c poolCost) String() string {
	parts := []string{"envs " + bytesize.Format(c.envs), "buffers " + bytesize.Format(c.buffers), "batches " + bytesize.Format(c.batches)}
	if c.zstd > 0 {
		parts = append(parts, "zstd "+bytesize.Format(c.zstd))
	}
	if c.opponents > 0 {
		parts = append(parts, "opponents "+bytesize.Format(c.opponents))
	}
	return strings.Join(parts, ", ")
}

// batchBytes is the size of an uncompressed Arrow IPC record batch message
// of rows rows of spec (see observations.Encoder), the largest a
// compressed one gets too (zstd's bound adds a few bytes per buffer).
func batchBytes(spec *env.Spec, rows int64) int64 {
	pad := func(n int64) int64 { return (n + 63) &^ 63 }
	n := int64(batchHeaderBytes)
	for _, t := range spec.Obs {
		n += pad(rows*int64(t.Bytes())) + 8
	}
	n += pad(rows*int64(spec.Actions)) + 8 // mask
	n += 4*(pad(4*rows)+8) + 2*(pad((rows+7)/8)+8)
	return n
}

// poolCost returns the cost of the pool cfg makes; zstd is the request's
// COMPRESSION_ZSTD, shared its shared_planes and batchSize its batch_size
// (0: synchronous). Errors are those of making the probe envs and
// opponents (the same errors vecenv.New would return).
func (s *Server) poolCost(cfg vecenv.Config, zstd, shared bool, batchSize int) (poolCost, error) {
	b := s.host.Budget()
	probe, err := b.EnvSizes(s.host.Registry(), cfg.Game, cfg.GameConfig)
	if err != nil {
		return poolCost{}, err
	}
	spec := probe.Spec
	n := int64(cfg.NumEnvs)
	learners := int64(len(cfg.LearnerSeats))
	if cfg.LearnerSeats == nil {
		learners = int64(spec.Seats)
	}
	rows := n * learners
	oppSeats := int64(spec.Seats) - learners
	var c poolCost
	c.envs = server.WithMargin(probe.First+(n-1)*probe.Each) + n*perEnvBytes
	rowBytes := int64(spec.ObsBytes() + spec.Actions + 4 + 1 + 1 + 3*4)
	c.buffers = rows * (rowBytes + perRowBytes)
	encoders := int64(1)
	if cfg.AutoReset == vecenv.SameStep {
		encoders = 2
		c.buffers += rows * int64(spec.ObsBytes())
	}
	if batchSize > 0 {
		ringRows := int64(vecenv.AsyncBatches(cfg.NumEnvs, batchSize)) * int64(batchSize) * learners
		ringRow := rowBytes + 1 // and the Ended flag
		if cfg.AutoReset == vecenv.SameStep {
			ringRow += int64(spec.ObsBytes())
		}
		c.buffers += ringRows*ringRow + n*asyncPerEnvBytes + rows*asyncPerRowBytes
	}
	// Per encoder the flag bitmaps, and two response buffers (one being
	// written while the next is built).
	// An async pool's batches (Recv's) have batchSize envs.
	batchRows, batchEnvs := rows, n
	if batchSize > 0 {
		batchRows, batchEnvs = int64(batchSize)*learners, int64(batchSize)
	}
	batch := batchBytes(spec, batchRows)
	// A response buffer holds the batch and, in SAME_STEP mode, the final
	// batch; wire.Grow gives a large uncompressed one room above Connect's
	// limit (servedPool.grow).
	resp := encoders * batch
	if !zstd && resp >= wire.HandOffBytes {
		resp = max(resp+resp/8, wire.ConnectRecycleLimit+1)
	}
	c.batches = encoders*2*((batchRows+7)/8) + 2*resp
	if shared {
		// The shared form's staging buffers: the other channels per row,
		// the shared ones per env. (Its messages are smaller than batch.)
		for _, t := range spec.Obs {
			sharedBytes := int64(t.SharedLen() * t.DType.Size())
			if sharedBytes > 0 {
				c.batches += encoders * (batchRows*(int64(t.Bytes())-sharedBytes) + batchEnvs*sharedBytes)
			}
		}
	}
	if zstd {
		// The compressed bodies Arrow allocates (at zstd's bound, about
		// the body), and one encoder per compressing goroutine, as many
		// as the pool's workers, each of which may compress any buffer.
		c.batches += encoders * batch
		largest := batchRows * int64(spec.Actions)
		for _, t := range spec.Obs {
			largest = max(largest, batchRows*int64(t.Bytes()))
		}
		each := int64(zstdSmallBytes)
		if largest > zstdBlockBytes {
			each = zstdLargeBytes
		}
		w := cfg.Workers
		if w == 0 {
			w = runtime.GOMAXPROCS(0) // vecenv's default: that many goroutines
		}
		workers := int64(min(max(w, 1), cfg.NumEnvs))
		c.zstd = encoders * workers * each
	}
	if oppSeats > 0 {
		c.opponents = n * oppSeats * perOpponentBytes
		for seat := range spec.Seats {
			f, ok := cfg.Opponents[seat]
			if !ok {
				continue
			}
			a, err := b.AgentSizes(s.host.Registry(), cfg.Game, cfg.GameConfig, cfg.OpponentNames[seat], seat, f)
			if err != nil {
				return poolCost{}, err
			}
			c.opponents += server.WithMargin(a.First + (n-1)*a.Each)
		}
	}
	return c, nil
}

// poolDetail describes a pool's cost for messages: its shape and parts.
func poolDetail(cfg vecenv.Config, c poolCost) string {
	return fmt.Sprintf("%d envs of %s: %v", cfg.NumEnvs, cfg.Game, c)
}
