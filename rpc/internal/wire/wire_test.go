package wire_test

import (
	"bytes"
	"slices"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/internal/testutil"
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
// headers (an empty occurrence, then the padded length) and the field order of the server's layout, and that
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

// strictFields walks msg as upb does for these messages: every tag a
// varint of at most 5 bytes, every length one of at most 5 bytes (upb
// refuses longer ones, failing the whole message) below 2 GiB. It returns
// each field's number and data in order.
func strictFields(t *testing.T, msg []byte) (nums []protowire.Number, data [][]byte) {
	t.Helper()
	varint := func(what string) uint64 {
		var v uint64
		for i := 0; ; i++ {
			if i == 5 || i == len(msg) {
				t.Fatalf("%s: a varint of more than 5 bytes, or truncated", what)
			}
			v |= uint64(msg[i]&0x7f) << (7 * i)
			if msg[i] < 0x80 {
				msg = msg[i+1:]
				return v
			}
		}
	}
	for len(msg) > 0 {
		tag := varint("tag")
		if protowire.Type(tag&7) != protowire.BytesType {
			t.Fatalf("field %d: wire type %d", tag>>3, tag&7)
		}
		n := varint("length")
		if n >= 1<<31-1 || n > uint64(len(msg)) {
			t.Fatalf("field %d: length %d of %d bytes left", tag>>3, n, len(msg))
		}
		nums, data = append(nums, protowire.Number(tag>>3)), append(data, msg[:n])
		msg = msg[n:]
	}
	return nums, data
}

// TestHeadersAreWhatEveryParserReads: the lengths are varints of at most
// 5 bytes (upb, Python protobuf's parser, reads no longer ones), and the
// empty occurrence of a field before its data is replaced by the data.
func TestHeadersAreWhatEveryParserReads(t *testing.T) {
	for _, n := range []int{0, 8, 120, 128, 16376, 16384, 3 << 20} {
		msg := build(fill(n, 1), fill(16, 2), []byte{1})
		nums, data := strictFields(t, msg)
		want := []protowire.Number{wire.FieldBatch, wire.FieldBatch, wire.FieldFinal, wire.FieldFinal, wire.FieldEnded}
		if !slices.Equal(nums, want) {
			t.Fatalf("%d bytes: fields %v, want %v", n, nums, want)
		}
		if len(data[0]) != 0 || len(data[2]) != 0 || !bytes.Equal(data[1], fill(n, 1)) || !bytes.Equal(data[3], fill(16, 2)) {
			t.Fatalf("%d bytes: the fields hold other data than was written", n)
		}
		if msg[3]&0x80 == 0 || msg[7] >= 0x80 {
			t.Fatalf("%d bytes: the length is not a padded 5-byte varint: % x", n, msg[:wire.HeaderBytes])
		}
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
	w := wire.AppendField(nil, wire.FieldBatch, fill(20, 0))
	testutil.WantPanic(t, "EndField(w, 0)", "", func() { wire.EndField(w, 0) })
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
