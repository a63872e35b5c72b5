package envservice

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/rpc/internal/wire"
)

// responseCodec is the "proto" codec of the service's handler (Connect,
// gRPC and gRPC-Web): protobuf's binary form, as Connect's own codec, except
// for the batch responses a handler registered with their wire form, which
// it returns as they are instead of marshalling them again.
//
// A handler that returns a Reset, Step or StepStream response whose fields
// are slices of a pool buffer's wire form (see batchBuf) registers the
// response with [responseCodec.register]. Marshalling it then costs
// nothing: a wire buffer of a capacity above [wire.ConnectRecycleLimit]
// (every response of at least wire.HandOffBytes: see wire.Grow) the codec
// hands to Connect, which writes it and drops the slice (it recycles only
// smaller buffers); a smaller one it copies into Connect's buffer, which
// Connect recycles. Either way nothing per step is allocated and the
// pool's buffer is not retained after the response is written.
// The handler forgets a response it registered once the response has been
// written (recycling) or sent (StepStream), whether or not Connect
// marshalled it.
//
// It is safe for concurrent use.
type responseCodec struct {
	mu    sync.Mutex
	wires map[any][]byte // registered response → its wire form
}

func newResponseCodec() *responseCodec { return &responseCodec{wires: map[any][]byte{}} }

// Name returns "proto", replacing Connect's codec of that name.
func (c *responseCodec) Name() string { return "proto" }

// register records that msg, a response message pointer, marshals to w.
func (c *responseCodec) register(msg any, w []byte) {
	c.mu.Lock()
	c.wires[msg] = w
	c.mu.Unlock()
}

// forget drops msg's registration, if it is still there.
func (c *responseCodec) forget(msg any) {
	c.mu.Lock()
	delete(c.wires, msg)
	c.mu.Unlock()
}

// Marshal marshals msg.
func (c *responseCodec) Marshal(msg any) ([]byte, error) { return c.MarshalAppend(nil, msg) }

// MarshalAppend appends msg's wire form to dst: a registered response's
// bytes (the bytes themselves when dst is empty and their capacity is more
// than Connect recycles), or protobuf's marshalling.
func (c *responseCodec) MarshalAppend(dst []byte, msg any) ([]byte, error) {
	c.mu.Lock()
	w, ok := c.wires[msg]
	c.mu.Unlock()
	if ok {
		if len(dst) == 0 && wire.HandsOff(w) {
			return w, nil
		}
		return append(dst, w...), nil
	}
	m, ok := msg.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("envservice: marshal %T: not a protobuf message", msg)
	}
	return proto.MarshalOptions{}.MarshalAppend(dst, m)
}

// Unmarshal unmarshals data into msg.
func (c *responseCodec) Unmarshal(data []byte, msg any) error {
	m, ok := msg.(proto.Message)
	if !ok {
		return fmt.Errorf("envservice: unmarshal %T: not a protobuf message", msg)
	}
	return proto.Unmarshal(data, m)
}
