package connectwire

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// h2cClient returns an HTTP client that speaks HTTP/2 without TLS (h2c),
// as package client's own does.
func h2cClient(t *testing.T) *http.Client { return h2cClientWindow(t, 0) }

// h2cClientWindow is h2cClient receiving at most window bytes of a
// response ahead of its reader (0: net/http's default, 4 MiB): the
// transport buffers what it receives in chunks it allocates when its pool
// of them is empty.
func h2cClientWindow(t *testing.T, window int) *http.Client {
	t.Helper()
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: &p, HTTP2: &http.HTTP2Config{MaxReceiveBufferPerStream: window}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// serveH2C starts a server of h that speaks HTTP/1.1 and h2c, closed by
// t.Cleanup, and returns its base URL.
func serveH2C(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	s.Config.Protocols = &p
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}

// newStreamCaller returns a caller of base through hc with limit maxBytes.
func newStreamCaller(t *testing.T, hc *http.Client, base string, maxBytes int) *Caller {
	t.Helper()
	c, err := NewCaller(hc, base, http.Header{"Authorization": {"Bearer tok"}}, maxBytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// openStream opens a stream of base through hc with limit maxBytes,
// closed by t.Cleanup.
func openStream(t *testing.T, hc *http.Client, base string, maxBytes int) *Stream {
	t.Helper()
	s, err := newStreamCaller(t, hc, base, maxBytes).Stream(t.Context(), procedure)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// envelope returns msg in an envelope of flags.
func envelope(flags byte, msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{flags}, uint32(len(msg))), msg...)
}

// endStream returns an end-of-stream envelope of the JSON object end.
func endStream(end string) []byte { return envelope(flagEndStream, []byte(end)) }

// readEnvelope reads one envelope of a request body.
func readEnvelope(r io.Reader) (flags byte, msg []byte, err error) {
	var prefix [5]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		return 0, nil, err
	}
	msg = make([]byte, binary.BigEndian.Uint32(prefix[1:]))
	_, err = io.ReadFull(r, msg)
	return prefix[0], msg, err
}

// answer returns a stream handler that reads one request envelope, then
// writes the header pairs (Content-Type application/connect+proto unless
// they set it) and raw, and returns.
func answer(raw []byte, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// HTTP/1.1's server would wait for the request's end before the
		// response otherwise.
		rc.EnableFullDuplex()
		if _, _, err := readEnvelope(r.Body); err != nil {
			return
		}
		w.Header().Set("Content-Type", contentTypeStreamProto)
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(http.StatusOK)
		w.Write(raw)
		rc.Flush()
	}
}

// streamRequest is the message the tests send, one connect-go can send too.
var streamRequest = []byte{0x0a, 0x03, 'r', 'e', 'q'} // BytesValue{Value: "req"}

// runStream sends streamRequest on a stream of c and receives until an
// error: it returns the messages received and the error.
func runStream(ctx context.Context, c *Caller) (int, error) {
	s, err := c.Stream(ctx, procedure)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	err = s.Send(streamRequest)
	if errors.Is(err, io.EOF) {
		_, err = s.Receive(nil)
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	var buf []byte
	for n := 0; ; n++ {
		if buf, err = s.Receive(buf); err != nil {
			return n, err
		}
	}
}

// runConnectGo is runStream through connect-go's client, with the same
// limit.
func runConnectGo(ctx context.Context, hc *http.Client, base string, maxBytes int) (int, error) {
	c := connect.NewClient[wrapperspb.BytesValue, wrapperspb.BytesValue](hc, base+procedure,
		connect.WithReadMaxBytes(maxBytes), connect.WithSendMaxBytes(maxBytes))
	s := c.CallBidiStream(ctx)
	defer s.CloseResponse()
	defer s.CloseRequest()
	err := s.Send(wrapperspb.Bytes([]byte("req")))
	if errors.Is(err, io.EOF) {
		_, err = s.Receive()
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	for n := 0; ; n++ {
		if _, err = s.Receive(); err != nil {
			return n, err
		}
	}
}

// hangUpServer returns the base URL of a server that closes every
// connection at once; t.Cleanup stops it.
func hangUpServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	return "http://" + ln.Addr().String()
}

// TestStreamResponseRules checks, for stream servers that misbehave in one
// way each (and one that ends streams with errors), the messages received,
// the code and message of the error, and that connect-go's client gives
// the same where the package documentation says it does.
func TestStreamResponseRules(t *testing.T) {
	t.Parallel()
	detail := base64.RawStdEncoding.EncodeToString(mustMarshal(t, wrapperspb.String("why")))
	msg := mustMarshal(t, wrapperspb.Bytes(body(100)))
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		// http1 serves HTTP/1.1 only, to a client of HTTP/1.1; hangUp
		// closes every connection instead of serving.
		http1, hangUp bool
		maxBytes      int
		received      int // messages received before the error
		code          connect.Code
		message       string // the error's message, or with a trailing "…" its prefix
		eof           bool   // the error wraps io.EOF
		// differs names why connect-go's client gives another error.
		differs string
	}{
		{name: "end_stream_error_gives_code_message_details_and_meta",
			handler: answer(append(envelope(0, msg), endStream(`{"error":{"code":"not_found","message":"no pool p-1","details":[{"type":"google.protobuf.StringValue","value":"`+detail+`"}]},"metadata":{"request-id":["r-7"],"X-Server":["t"]}}`)...),
				"X-Server", "s"),
			received: 1, code: connect.CodeNotFound, message: "no pool p-1"},
		{name: "end_stream_unknown_code_is_unknown", handler: answer(endStream(`{"error":{"code":"no_such_code","message":"who"}}`)),
			code: connect.CodeUnknown, message: "who"},
		{name: "end_stream_without_code_is_unknown", handler: answer(endStream(`{"error":{"message":"what"}}`)),
			code: connect.CodeUnknown, message: "what"},
		{name: "end_stream_without_error_is_eof", handler: answer(append(envelope(0, msg), endStream(`{"metadata":{"a":["b"]}}`)...)),
			received: 1, code: connect.CodeUnknown, message: "final message has protocol-specific flags: EOF", eof: true},
		{name: "end_stream_bad_json_is_internal", handler: answer(endStream(`{"error":`)),
			code: connect.CodeInternal, message: "unmarshal end stream message: unexpected end of JSON input"},
		{name: "end_stream_bad_detail_is_internal", handler: answer(endStream(`{"error":{"code":"not_found","details":[{"type":"x","value":"%%%"}]}}`)),
			code: connect.CodeInternal, message: "unmarshal end stream message: decode base64: illegal base64 data at input byte 0"},
		{name: "bytes_after_end_stream_are_internal", handler: answer(append(endStream(`{}`), "xyz"...)),
			code: connect.CodeInternal, message: "corrupt response: 3 extra bytes after end of stream"},
		{name: "unknown_flags_are_internal", handler: answer(envelope(0b100, []byte("{}"))),
			code: connect.CodeInternal, message: "protocol error: invalid envelope flags 4"},
		{name: "compressed_envelope_is_internal", handler: answer(envelope(flagCompressed, msg)),
			code: connect.CodeInternal, message: "protocol error: sent compressed message without compression support"},
		{name: "body_ending_without_end_stream_is_internal", handler: answer(envelope(0, msg)),
			received: 1, code: connect.CodeInternal, message: "protocol error: unexpected EOF"},
		{name: "truncated_prefix_is_internal", handler: answer(envelope(0, msg)[:3]),
			code: connect.CodeInternal, message: "protocol error: incomplete envelope: unexpected EOF"},
		{name: "truncated_message_is_internal", handler: answer(envelope(0, msg)[:50]),
			code: connect.CodeInternal, message: "protocol error: promised 102 bytes in enveloped message, got 45 bytes: unexpected EOF"},
		{name: "message_over_limit_is_resource_exhausted", handler: answer(append(envelope(0, msg), envelope(0, body(1001))...)),
			maxBytes: 1000, received: 1, code: connect.CodeResourceExhausted, message: "message size 1001 is larger than configured max 1000"},
		{name: "end_stream_over_limit_is_resource_exhausted", handler: answer(endStream(`{"error":{"message":"` + strings.Repeat("x", 200) + `"}}`)),
			maxBytes: 100, code: connect.CodeResourceExhausted, message: "message size 224 is larger than configured max 100"},
		{name: "reset_mid_stream_is_internal", handler: func(w http.ResponseWriter, r *http.Request) {
			answer(envelope(0, msg))(w, r)
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler) // RST_STREAM INTERNAL_ERROR
		}, received: 1, code: connect.CodeInternal, message: "stream error: stream ID …"},
		{name: "wrong_content_type_is_unknown", handler: answer(nil, "Content-Type", "text/html"),
			code: connect.CodeUnknown, message: `invalid content-type: "text/html"; expecting "application/connect+proto"`},
		{name: "unary_content_type_is_unknown", handler: answer(nil, "Content-Type", "application/proto"),
			code: connect.CodeUnknown, message: `invalid content-type: "application/proto"; expecting "application/connect+proto"`},
		{name: "other_codec_is_internal", handler: answer(nil, "Content-Type", "application/connect+json"),
			code: connect.CodeInternal, message: `invalid content-type: "application/connect+json"; expecting "application/connect+proto"`},
		{name: "gzip_encoding_is_internal", handler: answer(envelope(flagCompressed, []byte{0x1f, 0x8b}), "Connect-Content-Encoding", "gzip"),
			code: connect.CodeInternal, message: `unknown encoding "gzip": accepted encodings are identity`,
			differs: "connect-go asks for and accepts gzip"},
		{name: "status_404_is_unimplemented", handler: errorBody(404, "text/plain", "no"), code: connect.CodeUnimplemented, message: "HTTP status 404 Not Found"},
		{name: "status_401_is_unauthenticated", handler: errorBody(401, "application/json", `{"code":"not_found"}`),
			code: connect.CodeUnauthenticated, message: "HTTP status 401 Unauthorized"},
		{name: "status_503_is_unavailable", handler: errorBody(503, "", ""), code: connect.CodeUnavailable, message: "HTTP status 503 Service Unavailable"},
		{name: "status_500_is_unknown", handler: errorBody(500, "text/plain", "oops"), code: connect.CodeUnknown, message: "HTTP status 500 Internal Server Error"},
		{name: "http1_response_is_unimplemented", http1: true, handler: answer(nil),
			code: connect.CodeUnimplemented, message: "response from http://…"},
		{name: "hang_up_before_response_is_unavailable", hangUp: true,
			// The transport error's text depends on when the connection
			// closed: only the code is checked.
			code: connect.CodeUnavailable, message: "…",
			differs: "connect-go codes a connection reset (ECONNRESET) Canceled, after a rule for its handlers' writes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var base string
			hc := h2cClient(t)
			switch {
			case tc.hangUp:
				base = hangUpServer(t)
			case tc.http1:
				base, hc = serve(t, tc.handler), http.DefaultClient
			default:
				base = serveH2C(t, tc.handler)
			}
			check := func(who string, n int, err error) *connect.Error {
				t.Helper()
				if n != tc.received {
					t.Errorf("%s: %d messages received, want %d", who, n, tc.received)
				}
				ce := asConnectError(t, err)
				if ce.Code() != tc.code {
					t.Errorf("%s: code %v (%s), want %v", who, ce.Code(), ce.Message(), tc.code)
				}
				if prefix, ok := strings.CutSuffix(tc.message, "…"); ok && !strings.HasPrefix(ce.Message(), prefix) ||
					!ok && ce.Message() != tc.message {
					t.Errorf("%s: message %q, want %q", who, ce.Message(), tc.message)
				}
				if errors.Is(err, io.EOF) != tc.eof {
					t.Errorf("%s: wraps io.EOF: %v, want %v", who, errors.Is(err, io.EOF), tc.eof)
				}
				return ce
			}
			n, err := runStream(t.Context(), newStreamCaller(t, hc, base, tc.maxBytes))
			ce := check("connectwire", n, err)
			if tc.differs != "" {
				return
			}
			n, err = runConnectGo(t.Context(), hc, base, tc.maxBytes)
			compareWithConnectGo(t, ce, check("connect-go", n, err))
		})
	}
}

// TestResetErrorRules checks the codes of HTTP/2 streams reset by the
// server, by the reason in net/http's error text.
func TestResetErrorRules(t *testing.T) {
	t.Parallel()
	past, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer cancel()
	for _, tc := range []struct {
		name   string
		reason string
		ctx    context.Context
		code   connect.Code // 0: not a reset's error
	}{
		{"internal_error_is_internal", "INTERNAL_ERROR", t.Context(), connect.CodeInternal},
		{"no_error_is_internal", "NO_ERROR", t.Context(), connect.CodeInternal},
		{"refused_stream_is_unavailable", "REFUSED_STREAM", t.Context(), connect.CodeUnavailable},
		{"cancel_is_canceled", "CANCEL", t.Context(), connect.CodeCanceled},
		{"cancel_past_the_deadline_is_deadline_exceeded", "CANCEL", past, connect.CodeDeadlineExceeded},
		{"enhance_your_calm_is_resource_exhausted", "ENHANCE_YOUR_CALM", t.Context(), connect.CodeResourceExhausted},
		{"inadequate_security_is_permission_denied", "INADEQUATE_SECURITY", t.Context(), connect.CodePermissionDenied},
		{"unknown_reason_is_none", "HTTP_1_1_REQUIRED", t.Context(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reset := errors.New("stream error: stream ID 3; " + tc.reason + "; received from peer")
			for _, err := range []error{reset, &url.Error{Op: "Post", URL: "http://x", Err: reset}} {
				got := resetError(tc.ctx, err)
				if tc.code == 0 {
					if got != nil {
						t.Errorf("%v: got %v, want none", err, got)
					}
					continue
				}
				if c := connect.CodeOf(got); c != tc.code || !errors.Is(got, reset) {
					t.Errorf("%v: got %v (%v), want %v wrapping the reset", err, c, got, tc.code)
				}
			}
		})
	}
	t.Run("local_reset_is_none", func(t *testing.T) {
		t.Parallel()
		if got := resetError(t.Context(), errors.New("stream error: stream ID 3; CANCEL")); got != nil {
			t.Errorf("got %v", got)
		}
	})
}

// echo is a stream handler that answers every request envelope with the
// same message, and the end of the requests with an end-of-stream message
// without error. It sends the requests' headers on headers, when not nil.
func echo(headers chan<- http.Header) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if headers != nil {
			headers <- r.Header.Clone()
		}
		w.Header().Set("Content-Type", contentTypeStreamProto)
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		rc.Flush()
		for {
			flags, msg, err := readEnvelope(r.Body)
			if err == io.EOF {
				w.Write(endStream(`{}`))
				return
			}
			if err != nil || flags != 0 {
				return
			}
			w.Write(envelope(0, msg))
			rc.Flush()
		}
	}
}

// TestStreamRequestRules checks what a stream sends: connect-go's headers
// (but for the encodings it accepts), the caller's, the messages in
// envelopes, and no message over the limit.
func TestStreamRequestRules(t *testing.T) {
	t.Parallel()
	t.Run("headers_are_connect_gos", func(t *testing.T) {
		t.Parallel()
		headers := make(chan http.Header, 2)
		base := serveH2C(t, echo(headers))
		hc := h2cClient(t)
		openStream(t, hc, base, 0)
		got := <-headers
		c := connect.NewClient[wrapperspb.BytesValue, wrapperspb.BytesValue](hc, base+procedure)
		s := c.CallBidiStream(t.Context())
		s.RequestHeader().Set("Authorization", "Bearer tok")
		s.Send(wrapperspb.Bytes([]byte("req")))
		want := <-headers
		s.CloseRequest()
		s.CloseResponse()
		for k, v := range map[string]string{
			"Content-Type": "application/connect+proto", "Connect-Protocol-Version": "1", "Accept-Encoding": "identity",
			"Connect-Accept-Encoding": "identity", "User-Agent": userAgent, "Authorization": "Bearer tok",
			"Connect-Timeout-Ms": "", "Connect-Content-Encoding": "", "Content-Length": "",
		} {
			if g := got.Get(k); g != v {
				t.Errorf("%s: %q, want %q", k, g, v)
			}
		}
		if w := want.Get("Connect-Accept-Encoding"); w != "gzip" {
			t.Errorf("connect-go's Connect-Accept-Encoding %q, want gzip", w)
		}
		got.Del("Connect-Accept-Encoding")
		want.Del("Connect-Accept-Encoding")
		if !sameHeaders(got, want) {
			t.Errorf("headers %v, connect-go %v", got, want)
		}
	})
	t.Run("messages_travel_in_envelopes", func(t *testing.T) {
		t.Parallel()
		base := serveH2C(t, echo(nil))
		s := openStream(t, h2cClient(t), base, 0)
		var (
			buf []byte
			err error
		)
		for _, size := range []int{3, 0, 300 << 10, 7} {
			want := body(size)
			if err := s.Send(want); err != nil {
				t.Fatal(err)
			}
			if buf, err = s.Receive(buf); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf, want) {
				t.Fatalf("size %d: got %d bytes back, different", size, len(buf))
			}
		}
		if err := s.CloseSend(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Receive(buf); !errors.Is(err, io.EOF) {
			t.Errorf("after CloseSend: %v, want io.EOF", err)
		}
		if err := s.Send([]byte("late")); !errors.Is(err, io.EOF) {
			t.Errorf("Send after CloseSend: %v, want io.EOF", err)
		}
	})
	t.Run("message_over_limit_is_resource_exhausted_and_not_sent", func(t *testing.T) {
		t.Parallel()
		base := serveH2C(t, echo(nil))
		s := openStream(t, h2cClient(t), base, 10)
		ce := asConnectError(t, s.Send([]byte("0123456789x")))
		if ce.Code() != connect.CodeResourceExhausted || ce.Message() != "message size 11 exceeds sendMaxBytes 10" {
			t.Errorf("got %v %q", ce.Code(), ce.Message())
		}
		if err := s.Send([]byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		// The echo is of the second message: the first was not sent.
		if got, err := s.Receive(nil); err != nil || string(got) != "0123456789" {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("relative_base_url_is_refused", func(t *testing.T) {
		t.Parallel()
		if _, err := NewCaller(http.DefaultClient, "/prefix", nil, 0); err == nil {
			t.Error("no error")
		}
	})
}

// TestStreamCloseRules checks that Close ends the request, as the server
// sees it, and a Receive that waits, and that a stream may be closed
// unused or twice.
func TestStreamCloseRules(t *testing.T) {
	t.Parallel()
	// ended receives how each request's body ended, as its handler sees
	// it; the handler answers the first message and waits for the next.
	serveOne := func(t *testing.T, ended chan<- error) string {
		return serveH2C(t, func(w http.ResponseWriter, r *http.Request) {
			_, msg, err := readEnvelope(r.Body)
			if err != nil {
				ended <- err
				return
			}
			w.Header().Set("Content-Type", contentTypeStreamProto)
			w.Write(envelope(0, msg))
			http.NewResponseController(w).Flush()
			_, _, err = readEnvelope(r.Body)
			ended <- err
		})
	}
	t.Run("close_ends_the_request", func(t *testing.T) {
		t.Parallel()
		ended := make(chan error, 1)
		s := openStream(t, h2cClient(t), serveOne(t, ended), 0)
		if err := s.Send(streamRequest); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Receive(nil); err != nil || !bytes.Equal(got, streamRequest) {
			t.Fatalf("got %q, %v", got, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		// The server's read of the next message ends: the request is over.
		if err := <-ended; err == nil {
			t.Error("the server read a message")
		}
		if _, err := s.Receive(nil); connect.CodeOf(err) != connect.CodeCanceled {
			t.Errorf("Receive after Close: %v, want Canceled", err)
		}
		if err := s.Send(streamRequest); connect.CodeOf(err) != connect.CodeCanceled {
			t.Errorf("Send after Close: %v, want Canceled", err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	})
	t.Run("close_ends_a_waiting_receive", func(t *testing.T) {
		t.Parallel()
		ended := make(chan error, 1)
		// The server never answers.
		base := serveH2C(t, func(w http.ResponseWriter, r *http.Request) {
			_, _, err := readEnvelope(r.Body)
			if err == nil {
				_, _, err = readEnvelope(r.Body)
			}
			ended <- err
		})
		s := openStream(t, h2cClient(t), base, 0)
		if err := s.Send(streamRequest); err != nil {
			t.Fatal(err)
		}
		received := make(chan error, 1)
		go func() {
			_, err := s.Receive(nil)
			received <- err
		}()
		s.Close()
		if err := <-received; connect.CodeOf(err) != connect.CodeCanceled {
			t.Errorf("Receive: %v, want Canceled", err)
		}
		if err := <-ended; err == nil {
			t.Error("the server read a message")
		}
	})
	t.Run("close_of_an_unused_stream", func(t *testing.T) {
		t.Parallel()
		ended := make(chan error, 1)
		s := openStream(t, h2cClient(t), serveOne(t, ended), 0)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-ended:
			if err == nil {
				t.Error("the server read a message")
			}
		default: // the request never reached the handler
		}
	})
}

// TestStreamMemoryRules checks that a message's length is checked against
// the limit before its buffer is allocated, and that a buffer passed back
// is reused. Not parallel: it counts the process's allocations.
func TestStreamMemoryRules(t *testing.T) {
	const limit = 1 << 20
	t.Run("message_over_limit_is_refused_before_allocating", func(t *testing.T) {
		base := serveH2C(t, func(w http.ResponseWriter, r *http.Request) {
			if _, _, err := readEnvelope(r.Body); err != nil {
				return
			}
			w.Header().Set("Content-Type", contentTypeStreamProto)
			w.Write(binary.BigEndian.AppendUint32([]byte{0}, 512<<20))
			w.Write(make([]byte, 4096))
			http.NewResponseController(w).Flush()
			<-r.Context().Done()
		})
		s := openStream(t, h2cClient(t), base, limit)
		if err := s.Send(streamRequest); err != nil {
			t.Fatal(err)
		}
		var (
			got []byte
			err error
		)
		n := allocated(func() { got, err = s.Receive(nil) })
		if ce := asConnectError(t, err); ce.Code() != connect.CodeResourceExhausted ||
			ce.Message() != fmt.Sprintf("message size %d is larger than configured max %d", 512<<20, limit) {
			t.Errorf("got %v %q", ce.Code(), ce.Message())
		}
		if len(got) != 0 || n > limit/4 {
			t.Errorf("got %d bytes, %d bytes allocated", len(got), n)
		}
	})
	t.Run("buffer_is_reused", func(t *testing.T) {
		const size = 3 << 20
		want := body(size)
		// The server answers every request with want, allocating nothing
		// for it.
		answer := envelope(0, want)
		base := serveH2C(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentTypeStreamProto)
			for {
				if _, _, err := readEnvelope(r.Body); err != nil {
					return
				}
				w.Write(answer)
				http.NewResponseController(w).Flush()
			}
		})
		// A small window: the transport's buffers stay small.
		s := openStream(t, h2cClientWindow(t, 64<<10), base, 0)
		if err := s.Send(streamRequest); err != nil {
			t.Fatal(err)
		}
		// A buffer too small is replaced by one of the message's length.
		small := make([]byte, 0, 1024)
		buf, err := s.Receive(small)
		if err != nil {
			t.Fatal(err)
		}
		if cap(buf) != size || !bytes.Equal(buf, want) {
			t.Fatalf("got %d bytes in a buffer of %d, want the message in one of %d", len(buf), cap(buf), size)
		}
		first := &buf[0]
		for i := range 3 {
			if err := s.Send(streamRequest); err != nil {
				t.Fatal(err)
			}
			n := allocated(func() { buf, err = s.Receive(buf) })
			if err != nil {
				t.Fatal(err)
			}
			checkReused(t, fmt.Sprintf("message %d", i), buf, want, first, n)
		}
	})
}
