package client

import (
	"bytes"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/wire"
)

// within reports whether b's first byte lies in msg.
func within(b, msg []byte) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(msg)))
	return len(b) > 0 && p >= lo && p < lo+uintptr(len(msg))
}

// TestBatchCodecAliasesOnlyLargeResponses checks that batchCodec reads a
// response over wire.ConnectRecycleLimit in place (Connect drops that
// buffer) and copies a smaller one (Connect reuses that buffer).
func TestBatchCodecAliasesOnlyLargeResponses(t *testing.T) {
	for _, n := range []int{1 << 10, wire.ConnectRecycleLimit + 1} {
		want := &botarenav1.StepResponse{Batch: bytes.Repeat([]byte{7}, n), Ended: []byte{0, 1}, FinalBatch: []byte{1, 2, 3}}
		msg, err := proto.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range []proto.Message{&botarenav1.StepResponse{}, &botarenav1.StepStreamResponse{}, &botarenav1.ResetResponse{}} {
			if err := (batchCodec{}).Unmarshal(msg, got); err != nil {
				t.Fatal(err)
			}
			batch := got.(interface{ GetBatch() []byte }).GetBatch()
			if !bytes.Equal(batch, want.Batch) {
				t.Fatalf("%T of %d bytes: wrong batch", got, n)
			}
			if s, ok := got.(interface{ GetEnded() []byte }); ok && !bytes.Equal(s.GetEnded(), want.Ended) {
				t.Fatalf("%T of %d bytes: wrong ended", got, n)
			}
			if aliased := within(batch, msg); aliased != (n > wire.ConnectRecycleLimit) {
				t.Errorf("%T of %d bytes: aliased %v", got, n, aliased)
			}
		}
	}
}
