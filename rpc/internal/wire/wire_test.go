package wire_test

import (
	"bytes"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/wire"
)

// build writes a response the way the server does: batch, final, ended.
func build(batch, final, ended []byte) []byte {
	w := wire.BeginField(nil, wire.FieldBatch)
	w = append(w, batch...)
	wire.EndField(w, 0)
	if len(final) > 0 {
		start := len(w)
		w = wire.BeginField(w, wire.FieldFinal)
		w = append(w, final...)
		wire.EndField(w, start)
	}
	if ended != nil {
		w = wire.AppendField(w, wire.FieldEnded, ended)
	}
	return w
}

func fill(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

// TestProtobufReadsTheServersLayout checks that protobuf reads the
// padded lengths and the field order of the server's layout, and that
// Parse reads it and protobuf's own form alike, aliasing the message.
func TestProtobufReadsTheServersLayout(t *testing.T) {
	for _, tc := range []struct {
		name                string
		batch, final, ended []byte
	}{
		{"reset", fill(8, 1), nil, nil},
		{"step", fill(1<<10, 2), nil, fill(5, 0)},
		{"step_with_final", fill(200<<10, 3), fill(200<<10, 4), fill(4096, 0)},
		{"large", fill(3<<20, 5), fill(8, 6), fill(1, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := build(tc.batch, tc.final, tc.ended)
			if !bytes.Equal(msg[wire.HeaderBytes:wire.HeaderBytes+len(tc.batch)], tc.batch) {
				t.Fatal("the batch does not start at offset HeaderBytes")
			}
			var resp botarenav1.StepResponse
			if err := proto.Unmarshal(msg, &resp); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(resp.GetBatch(), tc.batch) || !bytes.Equal(resp.GetFinalBatch(), tc.final) || !bytes.Equal(resp.GetEnded(), tc.ended) {
				t.Fatal("protobuf read other fields than were written")
			}
			canonical, err := proto.Marshal(&resp)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range [][]byte{msg, canonical} {
				batch, ended, final, err := wire.Parse(m)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(batch, tc.batch) || !bytes.Equal(final, tc.final) || !bytes.Equal(ended, tc.ended) {
					t.Fatal("Parse read other fields than were written")
				}
				if p, lo := uintptr(unsafe.Pointer(&batch[0])), uintptr(unsafe.Pointer(&m[0])); p < lo || p >= lo+uintptr(len(m)) {
					t.Fatal("Parse copied the batch")
				}
			}
		})
	}
}

func TestParseSkipsUnknownFieldsAndRejectsGarbage(t *testing.T) {
	msg := build(fill(16, 1), nil, []byte{1, 0})
	msg = append(msg, 0x20, 0x96, 0x01)            // field 4, varint 150
	msg = append(msg, 0x2a, 0x03, 'a', 'b', 'c')   // field 5, bytes
	msg = append([]byte{0x35, 1, 2, 3, 4}, msg...) // field 6, fixed32
	batch, ended, final, err := wire.Parse(msg)
	if err != nil || len(batch) != 16 || !bytes.Equal(ended, []byte{1, 0}) || final != nil {
		t.Fatalf("got %d, %v, %v, %v", len(batch), ended, final, err)
	}
	for _, bad := range [][]byte{
		{0x0a, 0x05, 1, 2},      // short field
		{0x0a},                  // no length
		{0x0a, 0x80},            // truncated length
		msg[:len(msg)-1],        // truncated unknown field
		append([]byte{0x0f}, 1), // wire type 7
	} {
		if _, _, _, err := wire.Parse(bad); err == nil {
			t.Errorf("Parse(%x): no error", bad)
		}
	}
}

func TestEndFieldPanicsOffAHeader(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	w := wire.AppendField(nil, wire.FieldBatch, fill(20, 0))
	wire.EndField(w, 0)
}

func TestGrowHandsOffLargeMessagesOnly(t *testing.T) {
	small := fill(wire.HandOffBytes-1, 0)
	if g := wire.Grow(small); &g[0] != &small[0] || wire.HandsOff(g) {
		t.Error("Grow moved a small message or gave it a capacity Connect drops")
	}
	large := fill(wire.HandOffBytes, 0)
	g := wire.Grow(large)
	if !bytes.Equal(g, large) || !wire.HandsOff(g) {
		t.Fatalf("Grow of %d bytes: capacity %d", len(large), cap(g))
	}
	if again := wire.Grow(g[:len(g)-1]); &again[0] != &g[0] {
		t.Error("Grow copied a message already in a large buffer")
	}
}
