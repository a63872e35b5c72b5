package observations_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
)

// benchBatch returns a batch of envs × spec.Seats rows filled with
// observations, and an encoder for it (closed when the benchmark ends).
func benchBatch(b *testing.B, spec *env.Spec, envs int, opts ...observations.Option) (int, *env.Buffers, *observations.Encoder) {
	b.Helper()
	rows := envs * spec.Seats
	buf := env.NewBuffers(spec, rows)
	fillBuffers(b, buf, 64, 1)
	enc, err := observations.NewEncoder(spec, rows, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { enc.Close() })
	return rows, buf, enc
}

// BenchmarkEncode measures AppendBatchMessage for a batch of envs × 4 rows
// of 4-player Bomberman, reusing the message slice as a server would.
// agent-steps/s is rows encoded per second; MB/s is message bytes.
func BenchmarkEncode(b *testing.B) {
	spec := bombermanSpec(b)
	for _, c := range []struct {
		name string
		opts []observations.Option
	}{
		{"bomberman", nil},
		{"bomberman/zstd", []observations.Option{observations.WithZstd()}},
	} {
		for _, envs := range []int{64, 1024, 4096} {
			b.Run(fmt.Sprintf("%s/envs=%d", c.name, envs), func(b *testing.B) {
				rows, buf, enc := benchBatch(b, spec, envs, c.opts...)
				msg, err := enc.AppendBatchMessage(nil, buf)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(rows * (spec.ObsBytes() + spec.Actions + 4 + 2 + 3*4)))
				b.ReportAllocs()
				for b.Loop() {
					msg, err = enc.AppendBatchMessage(msg[:0], buf)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "agent-steps/s")
				b.ReportMetric(float64(len(msg)), "msg-bytes")
			})
		}
	}
}

// BenchmarkRecord measures Record alone: the zero-copy record over the
// buffers, whose only per-batch work is packing the two flag bitmaps.
func BenchmarkRecord(b *testing.B) {
	benchBatches(b, func(enc *observations.Encoder, buf *env.Buffers) error {
		enc.Record(buf)
		return nil
	})
}

// BenchmarkWrite measures WriteBatchMessage to io.Discard: the encoding
// without the copy of the bodies into a message slice.
func BenchmarkWrite(b *testing.B) {
	benchBatches(b, func(enc *observations.Encoder, buf *env.Buffers) error {
		return enc.WriteBatchMessage(io.Discard, buf)
	})
}

// benchBatches runs op on batches of 64, 1024 and 4096 envs of 4-player
// Bomberman (sub-benchmarks bomberman/envs=<n>), reporting agent-steps/s,
// the rows op handles per second.
func benchBatches(b *testing.B, op func(*observations.Encoder, *env.Buffers) error) {
	spec := bombermanSpec(b)
	for _, envs := range []int{64, 1024, 4096} {
		b.Run(fmt.Sprintf("bomberman/envs=%d", envs), func(b *testing.B) {
			rows, buf, enc := benchBatch(b, spec, envs)
			b.ReportAllocs()
			for b.Loop() {
				if err := op(enc, buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}
