// Package wire writes and reads the protobuf wire form of the batch
// responses of botarena.v1.EnvService (ResetResponse, StepResponse and
// StepStreamResponse: bytes fields 1 batch, 2 ended, 3 final_batch) by
// hand, so that the server can encode an Arrow message straight into the
// response's bytes and a client can read the batches without copying them.
// Package envservice builds responses with it and package client reads
// them; both import only protobuf's protowire for it.
//
// # The layout the server writes
//
// A response is the fields in this order: batch, final_batch, ended. Each
// Arrow message (batch, final_batch) follows an 8-byte field header: an
// empty occurrence of the same field (its tag and a zero length, 2 bytes),
// then the field's tag and its length as a 5-byte varint, padded with
// continuation bytes. Protobuf parsers keep the last occurrence of a
// singular field, so the empty one is read and then replaced; and they
// read a varint length of up to 5 bytes (upb, Python protobuf's default
// parser, reads no more: a length of 6 or more bytes fails the whole
// message), which holds every length below 2 GiB, the largest protobuf
// message. Arrow messages are multiples of 8 bytes long, so a batch starts
// at offset 8 of the message and a final batch at an 8-aligned offset as
// well: a client that receives the message at an 8-aligned address reads
// its 4-byte columns in place. ended comes last because its length (one
// byte per row) is arbitrary.
//
// # Connect's buffer recycling
//
// Connect (connect-go v1) marshals a message into a buffer of its pool and
// puts that buffer back after writing the message, unless the buffer's
// capacity is more than [ConnectRecycleLimit] bytes: then it drops it. A
// codec that hands Connect a slice it owns (the server's response buffers)
// or keeps a slice of a buffer Connect gave it (a client's aliased batches)
// relies on the drop, so both do it only for slices of a larger capacity;
// otherwise they copy, and Connect recycles its own buffer. The server
// gives every response buffer of at least [HandOffBytes] a capacity above
// the limit ([Grow]), so that only small responses are copied.
// TestConnectDropsLargeBuffers in the server's tests checks the limit
// against the connect-go in go.mod.
package wire

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The field numbers of the batch responses.
const (
	FieldBatch protowire.Number = 1
	FieldEnded protowire.Number = 2
	FieldFinal protowire.Number = 3
)

// HeaderBytes is the size of the header [BeginField] writes before an
// Arrow message: the field's tag and a zero length (an empty occurrence of
// the field), then the tag again and the length as a 5-byte varint.
const HeaderBytes = 8

// ConnectRecycleLimit is the size above which Connect drops a marshalling
// or reading buffer instead of putting it back into its pool
// (maxRecycleBufferSize of connect-go v1's buffer_pool.go, 8 MiB). A slice
// longer than this that a codec hands to Connect, or keeps from it, is not
// shared with a later message.
const ConnectRecycleLimit = 8 << 20

// HandOffBytes is the size from which a response buffer gets a capacity
// above ConnectRecycleLimit (see [Grow]), so that Connect writes it without
// copying it first: below it the copy costs little, and the capacity would
// waste more memory than the response holds.
const HandOffBytes = 1 << 20

// Grow returns msg, or for a message of at least [HandOffBytes] in a slice
// whose capacity is at most [ConnectRecycleLimit], a copy of it in a new
// slice of a larger capacity: a slice Connect drops after writing it. Pass
// the result back as the next message's buffer, so that the copy is made
// once per buffer.
func Grow(msg []byte) []byte {
	if len(msg) < HandOffBytes || cap(msg) > ConnectRecycleLimit {
		return msg
	}
	return append(make([]byte, 0, max(ConnectRecycleLimit+1, len(msg)+len(msg)/8)), msg...)
}

// HandsOff reports whether Connect drops a slice of msg's capacity after
// writing or reading it, so that a codec may hand it over or keep it.
func HandsOff(msg []byte) bool { return cap(msg) > ConnectRecycleLimit }

// MaxFieldBytes is the largest length [EndField] writes: below 2 GiB
// (math.MaxInt32), the limit of protobuf messages, and of the lengths upb
// reads.
const MaxFieldBytes = 1<<31 - 2

// BeginField appends the header of bytes field num with a placeholder
// length to dst; append the field's data next and call [EndField] with
// the header's offset, len(dst) before the call. num must be below 16
// (a one-byte tag), as the batch fields are.
func BeginField(dst []byte, num protowire.Number) []byte {
	tag := byte(protowire.EncodeTag(num, protowire.BytesType))
	return append(dst, tag, 0, tag, 0x80, 0x80, 0x80, 0x80, 0)
}

// EndField writes into the header at msg[start:] the length of the data
// appended after it, len(msg)-start-[HeaderBytes], as a 5-byte varint. It
// panics when start is not a header's offset or the length is over
// [MaxFieldBytes].
func EndField(msg []byte, start int) {
	n := len(msg) - start - HeaderBytes
	if n < 0 || n > MaxFieldBytes || msg[start+1] != 0 || msg[start] != msg[start+2] || msg[start+3]&0x80 == 0 {
		panic(fmt.Sprintf("wire: EndField at %d of a %d-byte message", start, len(msg)))
	}
	for i := range 4 {
		msg[start+3+i] = byte(n>>(7*i)) | 0x80
	}
	msg[start+7] = byte(n >> 28)
}

// AppendField appends bytes field num holding data to dst (the tag, the
// length as a minimal varint, data).
func AppendField(dst []byte, num protowire.Number, data []byte) []byte {
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	return protowire.AppendBytes(dst, data)
}

// ErrMalformed is returned by [Parse] for a message that is not a batch
// response.
var ErrMalformed = errors.New("wire: malformed batch response")

// Parse reads a batch response in any field order and returns its fields
// as slices of msg, without copying; an absent field is nil. Unknown
// fields are skipped; a repeated field keeps its last value, as protobuf
// does.
func Parse(msg []byte) (batch, ended, final []byte, err error) {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return nil, nil, nil, fmt.Errorf("%w: %w", ErrMalformed, protowire.ParseError(n))
		}
		msg = msg[n:]
		if typ != protowire.BytesType || num < FieldBatch || num > FieldFinal {
			n = protowire.ConsumeFieldValue(num, typ, msg)
			if n < 0 {
				return nil, nil, nil, fmt.Errorf("%w: %w", ErrMalformed, protowire.ParseError(n))
			}
			msg = msg[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(msg)
		if n < 0 {
			return nil, nil, nil, fmt.Errorf("%w: field %d: %w", ErrMalformed, num, protowire.ParseError(n))
		}
		msg = msg[n:]
		switch num {
		case FieldBatch:
			batch = v
		case FieldEnded:
			ended = v
		case FieldFinal:
			final = v
		}
	}
	return batch, ended, final, nil
}
