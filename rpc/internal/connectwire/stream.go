package connectwire

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"

	"connectrpc.com/connect"
)

// The flags of a stream's envelopes.
const (
	flagCompressed = 0b01
	flagEndStream  = 0b10
)

// discardLimit is how much of what follows an end-of-stream message
// Receive reads to count it: connect-go's limit.
const discardLimit = 4 << 20

// Stream is a bidirectional stream of the Connect protocol, opened by
// [Caller.Stream]: [Stream.Send] writes request messages and
// [Stream.Receive] reads response messages, as the server answers them.
//
// Send and Receive may be called from two goroutines, but neither
// concurrently with itself; [Stream.CloseSend] and [Stream.Close] from any
// goroutine, Close ending a Send or Receive that waits.
type Stream struct {
	ctx      context.Context    // the request's: the caller's, canceled by Close
	cancel   context.CancelFunc // cancels ctx
	stop     func() bool        // stops the AfterFunc of ctx
	maxBytes int
	body     *io.PipeWriter // the request body's end Send writes

	ready   chan struct{}  // closed once resp or respErr is set
	resp    *http.Response // the validated response; nil with respErr
	respErr error          // why there is no response

	send   []byte  // Send's: the envelope of its message
	prefix [5]byte // Receive's: an envelope's flags and length
	ended  error   // Receive's: why the stream is over
}

// Stream opens a bidirectional stream of procedure: it starts the request
// (the headers of the package documentation), whose response
// [Stream.Receive] waits for, and returns at once. The stream ends when ctx
// does; the caller calls [Stream.Close] when done with it. It fails only
// for a procedure that makes no URL. The stream needs HTTP/2: a response
// over HTTP/1 is Unimplemented.
func (c *Caller) Stream(ctx context.Context, procedure string) (*Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	r, err := c.newRequest(ctx, procedure, c.stream, pr)
	if err != nil {
		cancel()
		return nil, err
	}
	r.ContentLength = -1 // unknown: the body is written as Send is called
	s := &Stream{ctx: ctx, cancel: cancel, maxBytes: c.maxBytes, body: pw, ready: make(chan struct{})}
	// net/http's HTTP/2 transport watches the context only once the request
	// body has ended: until then, the end of the context reaches the
	// request (and the response's reads) as the body's error.
	s.stop = context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	go s.do(c.client, r)
	return s, nil
}

// do makes the request and validates its response. It returns when the
// server has sent the response's headers, or the request failed.
func (s *Stream) do(hc *http.Client, r *http.Request) {
	defer close(s.ready)
	resp, err := hc.Do(r)
	if err != nil {
		s.respErr = failure(s.ctx, err, connect.CodeUnavailable, "") // no response
	} else if s.respErr = validateStream(resp); s.respErr != nil {
		resp.Body.Close()
	} else {
		s.resp = resp
		return
	}
	// As connect-go: Send fails from now on, and Receive says why.
	s.body.Close()
}

// validateStream checks a stream response's status, Content-Type,
// Connect-Content-Encoding and HTTP version, in connect-go's order.
func validateStream(resp *http.Response) error {
	if resp.StatusCode != http.StatusOK {
		return connect.NewError(httpCode(resp.StatusCode), fmt.Errorf("HTTP status %v", resp.Status))
	}
	if err := checkContentType(resp.Header.Get("Content-Type"), "application/connect+", contentTypeStreamProto); err != nil {
		return err
	}
	if err := checkEncoding(resp.Header.Get("Connect-Content-Encoding")); err != nil {
		return err
	}
	if resp.ProtoMajor < 2 {
		return connect.NewError(connect.CodeUnimplemented, fmt.Errorf("response from %v is HTTP/%d.%d: bidi streams require at least HTTP/2",
			resp.Request.URL, resp.ProtoMajor, resp.ProtoMinor))
	}
	return nil
}

// Send writes msg, a marshalled request message, as the stream's next
// envelope, and returns once the transport has taken it (msg may be reused
// then). A message over the limit is ResourceExhausted and is not sent.
// Once the stream has ended (the server ended it, the request failed,
// Receive failed, or the caller closed it), Send returns an error wrapping
// io.EOF, and Receive returns why the stream ended, as connect-go's Send
// does; with the context done, Canceled or DeadlineExceeded.
func (s *Stream) Send(msg []byte) error {
	if s.maxBytes > 0 && len(msg) > s.maxBytes {
		return tooLargeToSend(len(msg), s.maxBytes)
	}
	if len(msg) > math.MaxUint32 {
		return tooLargeToSend(len(msg), math.MaxUint32)
	}
	if err := s.ctx.Err(); err != nil {
		return coded(s.ctx, err)
	}
	s.send = binary.BigEndian.AppendUint32(append(s.send[:0], 0), uint32(len(msg)))
	s.send = append(s.send, msg...)
	if _, err := s.body.Write(s.send); err != nil {
		if errors.Is(err, io.ErrClosedPipe) {
			err = io.EOF
		}
		if e := coded(s.ctx, err); e != nil {
			return e
		}
		return connect.NewError(connect.CodeUnknown, fmt.Errorf("write envelope: %w", err))
	}
	return nil
}

// CloseSend ends the request body: the server's next receive ends, and
// Send fails. Responses may still be received. It returns nil.
func (s *Stream) CloseSend() error {
	return s.body.Close()
}

// Receive reads the stream's next response message into dst's array, or
// into a larger one when it does not fit, and returns it (an empty slice
// with an error) at the start of the array: the caller passes the array
// back as dst of its next call. What dst held is overwritten. Receive
// first waits for the response's headers, which the server may send with
// its first message.
//
// When the server ends the stream with an error, Receive returns it (see
// the package documentation); when it ends the stream without one, an error
// wrapping io.EOF (Unknown, as connect-go's). Any error ends the stream:
// Receive returns it again and Send fails.
func (s *Stream) Receive(dst []byte) ([]byte, error) {
	if s.ended != nil {
		return dst[:0], s.ended
	}
	msg, err := s.receive(dst[:0])
	if err != nil {
		s.ended = err
		s.body.Close() // as connect-go: Send fails once Receive has
		return msg[:0], err
	}
	return msg, nil
}

// receive is [Stream.Receive]: it returns the message, or with an error
// the array to keep.
func (s *Stream) receive(dst []byte) ([]byte, error) {
	resp, err := s.response()
	if err != nil {
		return dst, err
	}
	if err := s.ctx.Err(); err != nil {
		return dst, coded(s.ctx, err)
	}
	if _, err := io.ReadFull(resp.Body, s.prefix[:]); err != nil {
		if errors.Is(err, io.EOF) {
			// The body ended without an end-of-stream message.
			return dst, connect.NewError(connect.CodeInternal, fmt.Errorf("protocol error: %w", io.ErrUnexpectedEOF))
		}
		return dst, failure(s.ctx, err, connect.CodeInternal, "protocol error: incomplete envelope")
	}
	flags, size := s.prefix[0], int64(binary.BigEndian.Uint32(s.prefix[1:]))
	if s.maxBytes > 0 && size > int64(s.maxBytes) {
		// Before allocating. connect-go reads past the message to go on;
		// this ends the stream, and Close resets it.
		return dst, tooLarge(size, s.maxBytes)
	}
	if int64(cap(dst)) < size {
		dst = make([]byte, 0, size)
	}
	msg := dst[:size]
	if n, err := io.ReadFull(resp.Body, msg); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return dst, connect.NewError(connect.CodeInternal,
				fmt.Errorf("protocol error: promised %d bytes in enveloped message, got %d bytes: %w", size, n, io.ErrUnexpectedEOF))
		}
		return dst, failure(s.ctx, err, connect.CodeUnknown, "read enveloped message")
	}
	switch {
	case flags&flagCompressed != 0:
		return dst, connect.NewError(connect.CodeInternal, errors.New("protocol error: sent compressed message without compression support"))
	case flags == 0:
		return msg, nil
	}
	return dst, s.endError(resp, flags, msg)
}

// response waits for the response, or the context's end.
func (s *Stream) response() (*http.Response, error) {
	select {
	case <-s.ready:
		return s.resp, s.respErr
	default:
	}
	select {
	case <-s.ready:
		return s.resp, s.respErr
	case <-s.ctx.Done():
		return nil, coded(s.ctx, s.ctx.Err())
	}
}

// endError returns the error of an envelope with flags other than 0 or
// compressed, msg its message: the end-of-stream message's error, or one
// wrapping io.EOF for none.
func (s *Stream) endError(resp *http.Response, flags byte, msg []byte) error {
	// Nothing may follow the end of the stream. A read error that is no
	// context's or reset's is ignored, as connect-go does: the end of the
	// stream has been read.
	n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, discardLimit))
	if err != nil {
		if e := coded(s.ctx, err); e != nil {
			return e
		}
	}
	if n > 0 {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("corrupt response: %d extra bytes after end of stream", n))
	}
	if flags != flagEndStream {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("protocol error: invalid envelope flags %d", flags))
	}
	var end struct {
		Error    *wireError          `json:"error"`
		Metadata map[string][]string `json:"metadata"`
	}
	if err := json.Unmarshal(msg, &end); err != nil {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unmarshal end stream message: %w", err))
	}
	if end.Error == nil {
		return connect.NewError(connect.CodeUnknown, fmt.Errorf("final message has protocol-specific flags: %w", io.EOF))
	}
	// An absent or unknown code is Unknown, as connect-go.
	e, err := end.Error.asError(connect.CodeUnknown)
	if err != nil {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unmarshal end stream message: %w", err))
	}
	meta := e.Meta()
	for k, v := range resp.Header {
		meta[k] = append(meta[k], v...)
	}
	for k, v := range end.Metadata {
		k = http.CanonicalHeaderKey(k)
		meta[k] = append(meta[k], v...)
	}
	return e
}

// Close ends the stream both ways, canceling the request unless the server
// has ended it, and returns once the goroutine making the request has
// returned. Send and Receive fail afterwards. It returns nil; a second
// Close does nothing.
func (s *Stream) Close() error {
	s.stop()
	s.body.Close()
	s.cancel()
	<-s.ready
	if s.resp != nil {
		s.resp.Body.Close()
	}
	return nil
}
