package client

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/wire"
)

// batchCodec is the client's "proto" codec: protobuf's binary form, as
// Connect's own codec, except that a Reset, Step or StepStream response
// received in a buffer of a capacity above [wire.ConnectRecycleLimit] is
// read without copying its batches: the response's fields are slices of
// the received message, which Connect does not recycle (see package wire).
// Others are copied, because Connect reuses their buffer for the next
// message.
// It is safe for concurrent use.
type batchCodec struct{}

// Name returns "proto", replacing Connect's codec of that name.
func (batchCodec) Name() string { return "proto" }

// Marshal marshals msg.
func (c batchCodec) Marshal(msg any) ([]byte, error) { return c.MarshalAppend(nil, msg) }

// MarshalAppend appends msg's protobuf wire form to dst.
func (batchCodec) MarshalAppend(dst []byte, msg any) ([]byte, error) {
	m, ok := msg.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("client: marshal %T: not a protobuf message", msg)
	}
	return proto.MarshalOptions{}.MarshalAppend(dst, m)
}

// Unmarshal unmarshals data into msg, aliasing data for large batch
// responses.
func (batchCodec) Unmarshal(data []byte, msg any) error {
	if wire.HandsOff(data) {
		switch m := msg.(type) {
		case *botarenav1.ResetResponse:
			batch, _, _, err := wire.Parse(data)
			m.Reset()
			m.Batch = batch
			return err
		case *botarenav1.StepResponse:
			batch, ended, final, err := wire.Parse(data)
			m.Reset()
			m.Batch, m.Ended, m.FinalBatch = batch, ended, final
			return err
		case *botarenav1.StepStreamResponse:
			batch, ended, final, err := wire.Parse(data)
			m.Reset()
			m.Batch, m.Ended, m.FinalBatch = batch, ended, final
			return err
		}
	}
	m, ok := msg.(proto.Message)
	if !ok {
		return fmt.Errorf("client: unmarshal %T: not a protobuf message", msg)
	}
	return proto.Unmarshal(data, m)
}
