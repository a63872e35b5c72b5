package observations

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// messages is an ipc.MessageReader of IPC messages held in memory, parts
// read one after the other (a schema message, then a batch message): each
// message's metadata and body are slices of its part, not copies, so that
// reading a batch of megabytes allocates nothing of its size (Arrow's own
// reader of an io.Reader allocates and copies every body). The parts must
// not change while the messages are in use: [Decoder] copies what it needs
// before it returns.
//
// Every length is checked against the bytes that are there before it is
// used.
type messages struct {
	parts [][]byte
	msg   *ipc.Message
	refs  atomic.Int64
}

// newMessages returns a reader of the messages in parts.
func newMessages(parts ...[]byte) *messages {
	m := &messages{parts: parts}
	m.refs.Add(1)
	return m
}

// errTruncated reports a message cut short.
var errTruncated = errors.New("observations: truncated IPC message")

// rest returns the unread bytes of the current part (nil when every part
// has been read).
func (m *messages) rest() []byte {
	for len(m.parts) > 0 && len(m.parts[0]) == 0 {
		m.parts = m.parts[1:]
	}
	if len(m.parts) == 0 {
		return nil
	}
	return m.parts[0]
}

// Message returns the next message, or io.EOF at the end of the parts or
// at an end-of-stream marker. It reads the framing Arrow's writer writes:
// an optional continuation marker (0xFFFFFFFF), the metadata's length as a
// little-endian int32, the metadata (a flatbuffer Message, which gives the
// body's length), the body.
func (m *messages) Message() (msg *ipc.Message, err error) {
	defer func() {
		if recovered := recover(); recovered != nil { // a malformed flatbuffer
			msg, err = nil, fmt.Errorf("observations: invalid IPC message metadata: %v", recovered)
		}
	}()
	buf := m.rest()
	if len(buf) == 0 {
		return nil, io.EOF
	}
	if len(buf) < 4 {
		return nil, errTruncated
	}
	n, head := binary.LittleEndian.Uint32(buf), 4
	if n == 0xFFFFFFFF {
		if len(buf) < 8 {
			return nil, errTruncated
		}
		n, head = binary.LittleEndian.Uint32(buf[4:]), 8
	}
	if n == 0 {
		m.parts[0] = buf[head:]
		return nil, io.EOF
	}
	if int32(n) < 4 || int64(n) > int64(len(buf)-head) {
		return nil, fmt.Errorf("observations: IPC message metadata of %d bytes in %d", int32(n), len(buf)-head)
	}
	meta := memory.NewBufferBytes(buf[head : head+int(n)])
	buf = buf[head+int(n):]
	probe := ipc.NewMessage(meta, memory.NewBufferBytes(nil))
	bodyLen := probe.BodyLen()
	probe.Release()
	if bodyLen < 0 || bodyLen > int64(len(buf)) {
		return nil, fmt.Errorf("observations: IPC message body of %d bytes in %d", bodyLen, len(buf))
	}
	body := memory.NewBufferBytes(buf[:bodyLen])
	m.parts[0] = buf[bodyLen:]
	if m.msg != nil {
		m.msg.Release()
	}
	m.msg = ipc.NewMessage(meta, body)
	return m.msg, nil
}

// Retain adds a reference.
func (m *messages) Retain() { m.refs.Add(1) }

// Release drops a reference; the last releases the current message.
func (m *messages) Release() {
	if m.refs.Add(-1) == 0 && m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}
