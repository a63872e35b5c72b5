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
	"sync"

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
	http1    bool // the request goes over HTTP/1.1 first (see [Caller.StreamOverHTTP1])

	mu         sync.Mutex
	body       *io.PipeWriter // the request body's end Send writes; guarded by mu
	record     bool           // Send keeps what it sends in replay; guarded by mu
	replay     []byte         // the envelopes sent over HTTP/1.1 before its response; guarded by mu
	replayed   chan struct{}  // after a fallback, closed once replay is in the new body; guarded by mu
	sendClosed bool           // the body has been closed (CloseSend, Close, ctx); guarded by mu

	ready   chan struct{}  // closed once resp or respErr is set
	resp    *http.Response // the validated response; nil with respErr
	respErr error          // why there is no response

	send   []byte  // Send's: the envelope of its message
	prefix [5]byte // Receive's: an envelope's flags and length
	ended  error   // Receive's: why the stream is over
}

// StreamOverHTTP1 makes the caller's streams go over hc, an HTTP client
// that speaks HTTP/1.1, where the server serves them in full duplex (as
// the env service does for the Connect protocol: see its package
// documentation), and over the caller's own client (HTTP/2) where the
// server answers the HTTP/1.1 request with 505 HTTP Version Not Supported,
// as connect-go's handlers do: the messages sent before that answer, which
// the server has not read, are sent again on the HTTP/2 request. It is not
// safe to call concurrently with [Caller.Stream].
func (c *Caller) StreamOverHTTP1(hc *http.Client) { c.http1 = hc }

// Stream opens a bidirectional stream of procedure: it starts the request
// (the headers of the package documentation), whose response
// [Stream.Receive] waits for, and returns at once. The stream ends when ctx
// does; the caller calls [Stream.Close] when done with it. It fails only
// for a procedure that makes no URL. The stream needs HTTP/2, or the
// HTTP/1.1 client of [Caller.StreamOverHTTP1]: a response over HTTP/1 to
// the caller's own client is Unimplemented.
func (c *Caller) Stream(ctx context.Context, procedure string) (*Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	r, pw, err := c.streamRequest(ctx, procedure)
	if err != nil {
		cancel()
		return nil, err
	}
	s := &Stream{ctx: ctx, cancel: cancel, maxBytes: c.maxBytes, http1: c.http1 != nil, body: pw, record: c.http1 != nil, ready: make(chan struct{})}
	// net/http's HTTP/2 transport watches the context only once the request
	// body has ended: until then, the end of the context reaches the
	// request (and the response's reads) as the body's error.
	s.stop = context.AfterFunc(ctx, func() { s.closeBody(ctx.Err()) })
	go s.do(c, procedure, r)
	return s, nil
}

// streamRequest returns a stream's request and the writing end of its
// body.
func (c *Caller) streamRequest(ctx context.Context, procedure string) (*http.Request, *io.PipeWriter, error) {
	pr, pw := io.Pipe()
	r, err := c.newRequest(ctx, procedure, c.stream, pr)
	if err != nil {
		return nil, nil, err
	}
	r.ContentLength = -1 // unknown: the body is written as Send is called
	return r, pw, nil
}

// do makes the request and validates its response. It returns when the
// server has sent the response's headers, or the request failed.
func (s *Stream) do(c *Caller, procedure string, r *http.Request) {
	defer close(s.ready)
	hc := c.client
	if s.http1 {
		hc = c.http1
	}
	resp, err := hc.Do(r)
	if s.http1 && err == nil && resp.StatusCode == http.StatusHTTPVersionNotSupported {
		// The server serves streams over HTTP/2 only, and answered without
		// reading the request.
		resp.Body.Close()
		resp, err = s.again(c, procedure)
	}
	s.mu.Lock()
	s.record, s.replay = false, nil
	s.mu.Unlock()
	if err != nil {
		s.respErr = failure(s.ctx, err, connect.CodeUnavailable, "") // no response
	} else if s.respErr = validateStream(resp, s.http1); s.respErr != nil {
		resp.Body.Close()
	} else {
		s.resp = resp
		return
	}
	// As connect-go: Send fails from now on, and Receive says why.
	s.closeBody(nil)
}

// errFellBack ends the body of an HTTP/1.1 request answered 505.
var errFellBack = errors.New("connectwire: the stream went over HTTP/2")

// again makes the stream's request over HTTP/2, after a 505 to its
// HTTP/1.1 request: the envelopes sent so far go first in the new body,
// and Sends from now on write to it (after them).
func (s *Stream) again(c *Caller, procedure string) (*http.Response, error) {
	r, pw, err := c.streamRequest(s.ctx, procedure)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	s.mu.Lock()
	old, replay, closed := s.body, s.replay, s.sendClosed
	s.body, s.record, s.replay, s.replayed = pw, false, nil, done
	s.http1 = false
	s.mu.Unlock()
	old.CloseWithError(errFellBack) // a Send waiting on it returns: what it sent is in replay
	go func() {
		defer close(done)
		if len(replay) > 0 {
			if _, err := pw.Write(replay); err != nil {
				return
			}
		}
		if closed {
			pw.Close()
		}
	}()
	return c.client.Do(r)
}

// closeBody closes the request body's writing end with err (nil: the
// body ends), and marks the body closed for a fallback to HTTP/2.
func (s *Stream) closeBody(err error) {
	s.mu.Lock()
	s.sendClosed = true
	pw := s.body
	s.mu.Unlock()
	pw.CloseWithError(err)
}

// validateStream checks a stream response's status, Content-Type,
// Connect-Content-Encoding and HTTP version (HTTP/1.x allowed with
// http1), in connect-go's order.
func validateStream(resp *http.Response, http1 bool) error {
	if resp.StatusCode != http.StatusOK {
		return connect.NewError(httpCode(resp.StatusCode), fmt.Errorf("HTTP status %v", resp.Status))
	}
	if err := checkContentType(resp.Header.Get("Content-Type"), "application/connect+", contentTypeStreamProto); err != nil {
		return err
	}
	if err := checkEncoding(resp.Header.Get("Connect-Content-Encoding")); err != nil {
		return err
	}
	if resp.ProtoMajor < 2 && !http1 {
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
	s.mu.Lock()
	body, replayed, recorded := s.body, s.replayed, s.record
	if recorded {
		s.replay = append(s.replay, s.send...)
	}
	s.mu.Unlock()
	if replayed != nil {
		<-replayed // what was sent before goes first
	}
	if _, err := body.Write(s.send); err != nil {
		if recorded {
			// A 505 to the HTTP/1.1 request ends its body (net/http's
			// transport closes it, or [Stream.again] does): once the
			// response is known, the message is in the replay that the
			// HTTP/2 request begins with, if there is one.
			<-s.ready
			s.mu.Lock()
			moved := s.body != body
			s.mu.Unlock()
			if moved {
				return nil
			}
		}
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
	s.closeBody(nil)
	return nil
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
		s.closeBody(nil) // as connect-go: Send fails once Receive has
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
	s.closeBody(nil)
	s.cancel()
	<-s.ready
	if s.resp != nil {
		s.resp.Body.Close()
	}
	return nil
}
