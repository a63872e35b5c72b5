package connectwire

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// procedure is what the tests call; the servers answer any path.
const procedure = "/test.v1.Service/Method"

// serve starts an HTTP/1.1 server of h, closed by t.Cleanup, and returns
// its base URL.
func serve(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// newCaller returns a caller of base with limit maxBytes.
func newCaller(t *testing.T, base string, maxBytes int) *Caller {
	t.Helper()
	c, err := NewCaller(http.DefaultClient, base, http.Header{"Authorization": {"Bearer tok"}}, maxBytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// callConnectGo makes the same call through connect-go's own client, with
// the same limit, and returns its error.
func callConnectGo(ctx context.Context, base string, maxBytes int) error {
	c := connect.NewClient[wrapperspb.BytesValue, wrapperspb.BytesValue](http.DefaultClient, base+procedure,
		connect.WithReadMaxBytes(maxBytes), connect.WithSendMaxBytes(maxBytes))
	_, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.Bytes([]byte("req"))))
	return err
}

// asConnectError returns err as a *connect.Error, failing the test when it
// is not one.
func asConnectError(t *testing.T, err error) *connect.Error {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %T %v, want a *connect.Error", err, err)
	}
	return ce
}

// hangUp hijacks the connection of an HTTP/1.1 handler and writes raw
// (status line, headers and part of a body) before closing it.
func hangUp(w http.ResponseWriter, raw string) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	buf.WriteString(raw)
	buf.Flush()
	conn.Close()
}

// body is a response of n bytes, each its index mod 251.
func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// writeChunked writes data in pieces, flushing each, so that the response
// has no Content-Length.
func writeChunked(w http.ResponseWriter, data []byte) {
	rc := http.NewResponseController(w)
	for len(data) > 0 {
		n := min(len(data), 32<<10)
		if _, err := w.Write(data[:n]); err != nil {
			return
		}
		rc.Flush()
		data = data[n:]
	}
}

// errorBody writes an error response of status with a body of
// Content-Type ct.
func errorBody(status int, ct, data string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Add(header[i], header[i+1])
		}
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.WriteHeader(status)
		io.WriteString(w, data)
	}
}

// TestUnaryResponseRules checks, for servers that misbehave in one way each,
// the code and message of the error, and that connect-go's client gives
// the same code and message where the package documents it does.
func TestUnaryResponseRules(t *testing.T) {
	t.Parallel()
	detail := base64.RawStdEncoding.EncodeToString(mustMarshal(t, wrapperspb.String("why")))
	for _, tc := range []struct {
		name     string
		handler  http.HandlerFunc
		maxBytes int
		code     connect.Code
		message  string // the error's message, or with a trailing "…" its prefix
		// differs names why connect-go's client gives another error.
		differs string
	}{
		{name: "wrong_content_type_is_unknown", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>")
		}, code: connect.CodeUnknown, message: `invalid content-type: "text/html"; expecting "application/proto"`},
		{name: "missing_content_type_is_unknown", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header()["Content-Type"] = nil // no sniffing
			w.Write([]byte{1, 2, 3})
		}, code: connect.CodeUnknown, message: `invalid content-type: ""; expecting "application/proto"`},
		{name: "other_codec_is_internal", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "{}")
		}, code: connect.CodeInternal, message: `invalid content-type: "application/json"; expecting "application/proto"`},
		{name: "content_type_with_parameters_is_internal", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/proto; charset=utf-8")
			w.Write(nil)
		}, code: connect.CodeInternal, message: `invalid content-type: "application/proto; charset=utf-8"; expecting "application/proto"`},
		{name: "gzip_encoding_is_internal", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/proto")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte{0x1f, 0x8b})
		}, code: connect.CodeInternal, message: `unknown encoding "gzip": accepted encodings are identity`,
			differs: "connect-go asks for and accepts gzip"},
		{name: "error_body_gives_code_message_and_details", handler: errorBody(http.StatusNotFound, "application/json",
			`{"code":"not_found","message":"no pool p-1","details":[{"type":"google.protobuf.StringValue","value":"`+detail+`"}]}`,
			"Trailer-Request-Id", "r-7", "X-Server", "s"),
			code: connect.CodeNotFound, message: "no pool p-1"},
		{name: "error_body_code_beats_status", handler: errorBody(http.StatusBadRequest, "application/json; charset=utf-8",
			`{"code":"failed_precondition","message":"reset first"}`),
			code: connect.CodeFailedPrecondition, message: "reset first"},
		{name: "error_body_without_code_takes_status", handler: errorBody(http.StatusServiceUnavailable, "application/json",
			`{"message":"busy"}`), code: connect.CodeUnavailable, message: "busy"},
		{name: "error_body_unknown_code_takes_status", handler: errorBody(http.StatusUnauthorized, "application/json",
			`{"code":"no_such_code","message":"who"}`), code: connect.CodeUnauthenticated, message: "who"},
		{name: "error_body_bad_json_takes_status", handler: errorBody(http.StatusForbidden, "application/json",
			`{"code":`), code: connect.CodePermissionDenied, message: "403 Forbidden"},
		{name: "error_body_bad_detail_takes_status", handler: errorBody(http.StatusNotFound, "application/json",
			`{"code":"not_found","details":[{"type":"x","value":"%%%"}]}`), code: connect.CodeUnimplemented, message: "404 Not Found"},
		{name: "error_body_over_limit_is_resource_exhausted", handler: errorBody(http.StatusNotFound, "application/json",
			`{"code":"not_found","message":"`+strings.Repeat("x", 200)+`"}`), maxBytes: 100,
			code: connect.CodeResourceExhausted, message: "message size 233 is larger than configured max 100"},
		{name: "text_error_400_is_internal", handler: errorBody(400, "text/plain", "bad"), code: connect.CodeInternal, message: "400 Bad Request"},
		{name: "text_error_401_is_unauthenticated", handler: errorBody(401, "text/plain", "no"), code: connect.CodeUnauthenticated, message: "401 Unauthorized"},
		{name: "text_error_403_is_permission_denied", handler: errorBody(403, "", ""), code: connect.CodePermissionDenied, message: "403 Forbidden"},
		{name: "text_error_404_is_unimplemented", handler: errorBody(404, "text/html", "<html>"), code: connect.CodeUnimplemented, message: "404 Not Found"},
		{name: "text_error_429_is_unavailable", handler: errorBody(429, "text/plain", ""), code: connect.CodeUnavailable, message: "429 Too Many Requests"},
		{name: "text_error_502_is_unavailable", handler: errorBody(502, "text/plain", ""), code: connect.CodeUnavailable, message: "502 Bad Gateway"},
		{name: "text_error_503_is_unavailable", handler: errorBody(503, "text/plain", ""), code: connect.CodeUnavailable, message: "503 Service Unavailable"},
		{name: "text_error_504_is_unavailable", handler: errorBody(504, "text/plain", ""), code: connect.CodeUnavailable, message: "504 Gateway Timeout"},
		{name: "text_error_500_is_unknown", handler: errorBody(500, "text/plain", "oops"), code: connect.CodeUnknown, message: "500 Internal Server Error"},
		{name: "text_error_418_is_unknown", handler: errorBody(418, "application/proto", "x"), code: connect.CodeUnknown, message: "418 I'm a teapot"},
		{name: "content_length_over_limit_is_resource_exhausted", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/proto")
			w.Write(body(1001))
		}, maxBytes: 1000, code: connect.CodeResourceExhausted, message: "message size 1001 is larger than configured max 1000"},
		{name: "unsized_body_over_limit_is_resource_exhausted", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/proto")
			writeChunked(w, body(300<<10))
		}, maxBytes: 100 << 10, code: connect.CodeResourceExhausted, message: "message size 307200 is larger than configured max 102400"},
		{name: "short_body_is_unknown", handler: func(w http.ResponseWriter, _ *http.Request) {
			hangUp(w, "HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\nContent-Length: 100\r\n\r\nabc")
		}, code: connect.CodeUnknown, message: "read message: unexpected EOF"},
		{name: "hang_up_before_response_is_unavailable", handler: func(w http.ResponseWriter, _ *http.Request) {
			hangUp(w, "")
			// The text of a transport error depends on whether the client was still writing the
			// request (a write on a closed connection) or already reading (EOF): only the code is
			// checked, here and against connect-go.
		}, code: connect.CodeUnavailable, message: "…", differs: "the transport error's text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := serve(t, tc.handler)
			got, err := newCaller(t, base, tc.maxBytes).Call(t.Context(), procedure, nil, []byte("req"))
			if len(got) != 0 {
				t.Errorf("got %d bytes with the error, want none", len(got))
			}
			ce := asConnectError(t, err)
			if ce.Code() != tc.code {
				t.Errorf("code %v (%s), want %v", ce.Code(), ce.Message(), tc.code)
			}
			if prefix, ok := strings.CutSuffix(tc.message, "…"); ok && !strings.HasPrefix(ce.Message(), prefix) ||
				!ok && ce.Message() != tc.message {
				t.Errorf("message %q, want %q", ce.Message(), tc.message)
			}
			if tc.differs != "" {
				return
			}
			want := asConnectError(t, callConnectGo(t.Context(), base, tc.maxBytes))
			if ce.Code() != want.Code() || ce.Message() != want.Message() {
				t.Errorf("got %v %q, connect-go %v %q", ce.Code(), ce.Message(), want.Code(), want.Message())
			}
			compareWithConnectGo(t, ce, want)
		})
	}
}

// compareWithConnectGo checks that got, beside its code and message, is
// what connect-go's client gave for the same failure (want): a wire error
// or not, the same details and metadata (but for the date).
func compareWithConnectGo(t *testing.T, got, want *connect.Error) {
	t.Helper()
	if connect.IsWireError(got) != connect.IsWireError(want) {
		t.Errorf("wire error %v, connect-go %v", connect.IsWireError(got), connect.IsWireError(want))
	}
	if g, w := detailsOf(got), detailsOf(want); g != w {
		t.Errorf("details %s, connect-go %s", g, w)
	}
	g, w := got.Meta().Clone(), want.Meta().Clone()
	g.Del("Date")
	w.Del("Date")
	if !sameHeaders(g, w) {
		t.Errorf("meta %v, connect-go %v", g, w)
	}
}

// sameHeaders reports whether a and b hold the same values in the same
// order.
func sameHeaders(a, b http.Header) bool {
	return maps.EqualFunc(a, b, func(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") })
}

// detailsOf returns the type and value of each of err's details.
func detailsOf(err *connect.Error) string {
	var b strings.Builder
	for _, d := range err.Details() {
		fmt.Fprintf(&b, "%s=%x;", d.Type(), d.Bytes())
	}
	return b.String()
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUnaryRequestRules checks what a call sends: connect-go's headers, the
// caller's, and no request over the limit.
func TestUnaryRequestRules(t *testing.T) {
	t.Parallel()
	got := make(chan *http.Request, 1)
	var sent []byte
	base := serve(t, func(w http.ResponseWriter, r *http.Request) {
		sent, _ = io.ReadAll(r.Body)
		got <- r
		w.Header().Set("Content-Type", "application/proto")
	})
	c := newCaller(t, base, 10)
	t.Run("headers_are_connect_gos", func(t *testing.T) {
		if _, err := c.Call(t.Context(), procedure, nil, []byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if r.Method != http.MethodPost || r.URL.Path != procedure || string(sent) != "0123456789" || r.ContentLength != 10 {
			t.Errorf("got %s %s, %d bytes %q", r.Method, r.URL.Path, r.ContentLength, sent)
		}
		for k, v := range map[string]string{
			"Content-Type": "application/proto", "Connect-Protocol-Version": "1", "Accept-Encoding": "identity",
			"User-Agent": userAgent, "Authorization": "Bearer tok", "Connect-Timeout-Ms": "",
		} {
			if g := r.Header.Get(k); g != v {
				t.Errorf("%s: %q, want %q", k, g, v)
			}
		}
	})
	t.Run("request_over_limit_is_resource_exhausted", func(t *testing.T) {
		_, err := c.Call(t.Context(), procedure, nil, []byte("0123456789x"))
		ce := asConnectError(t, err)
		if ce.Code() != connect.CodeResourceExhausted || ce.Message() != "message size 11 exceeds sendMaxBytes 10" {
			t.Errorf("got %v %q", ce.Code(), ce.Message())
		}
		select {
		case <-got:
			t.Error("the request was sent")
		default:
		}
	})
	t.Run("relative_base_url_is_refused", func(t *testing.T) {
		if _, err := NewCaller(http.DefaultClient, "/prefix", nil, 0); err == nil {
			t.Error("no error")
		}
	})
}

// allocated returns the bytes f allocates. Nothing else of the test binary
// may run meanwhile: the tests that call it are not parallel.
func allocated(f func()) uint64 {
	if raceEnabled {
		f()
		return 0 // the race detector allocates: no bound holds
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// checkReused checks that a message read into a passed-back buffer is
// want, is in the buffer whose first byte is first, and allocated at most
// 256 KiB (n bytes) on the way.
func checkReused(t *testing.T, what string, buf, want []byte, first *byte, n uint64) {
	t.Helper()
	if !bytes.Equal(buf, want) {
		t.Fatalf("%s: the message differs", what)
	}
	if &buf[0] != first {
		t.Errorf("%s: a new buffer", what)
	}
	if n > 256<<10 {
		t.Errorf("%s: %d bytes allocated", what, n)
	}
}

// TestUnaryMemoryRules checks that the limit is applied before the buffer
// grows, and that a buffer passed back is reused. Not parallel: it counts
// the process's allocations.
func TestUnaryMemoryRules(t *testing.T) {
	const limit = 1 << 20
	t.Run("content_length_over_limit_is_refused_before_allocating", func(t *testing.T) {
		base := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/proto")
			w.Header().Set("Content-Length", strconv.Itoa(512<<20))
			w.WriteHeader(http.StatusOK)
			w.Write(make([]byte, 4096)) // then the server hangs up
		})
		c := newCaller(t, base, limit)
		var err error
		n := allocated(func() { _, err = c.Call(t.Context(), procedure, nil, nil) })
		if ce := asConnectError(t, err); ce.Code() != connect.CodeResourceExhausted ||
			ce.Message() != fmt.Sprintf("message size %d is larger than configured max %d", 512<<20, limit) {
			t.Errorf("got %v %q", ce.Code(), ce.Message())
		}
		if n > limit/4 {
			t.Errorf("allocated %d bytes", n)
		}
	})
	// An unsized body over the limit, into a buffer of each capacity: the
	// buffer holds at most limit+1 bytes of it, whatever its capacity.
	for _, capacity := range []int{0, limit / 2, 4 * limit} {
		t.Run(fmt.Sprintf("unsized_body_over_limit_stops_at_limit_plus_one/cap=%d", capacity), func(t *testing.T) {
			const size = 3 * limit
			data := body(size)
			base := serve(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/proto")
				writeChunked(w, data)
			})
			c := newCaller(t, base, limit)
			// Once first, to open the connection.
			if _, err := c.Call(t.Context(), procedure, nil, nil); connect.CodeOf(err) != connect.CodeResourceExhausted {
				t.Fatalf("got %v", err)
			}
			dst := make([]byte, 0, capacity)
			var (
				got []byte
				err error
			)
			n := allocated(func() { got, err = c.Call(t.Context(), procedure, dst, nil) })
			if ce := asConnectError(t, err); ce.Code() != connect.CodeResourceExhausted ||
				ce.Message() != fmt.Sprintf("message size %d is larger than configured max %d", size, limit) {
				t.Errorf("got %v %q", ce.Code(), ce.Message())
			}
			if len(got) != 0 {
				t.Errorf("got %d bytes", len(got))
			}
			// The buffer grows by doubling to limit+1 bytes: under 2*limit
			// in all, besides what the transport allocates.
			if capacity < limit && (cap(got) > limit+1 || n > 2*limit+limit/4) {
				t.Errorf("buffer of %d bytes, %d bytes allocated", cap(got), n)
			}
			// A large enough buffer is reused, and filled to limit+1
			// bytes at most.
			if capacity > limit {
				if n > limit/4 {
					t.Errorf("%d bytes allocated", n)
				}
				if cap(got) > 0 && &got[:1][0] != &dst[:1][0] {
					t.Error("the buffer was replaced")
				}
				if slices.ContainsFunc(dst[limit+1 : cap(dst)][:64], func(b byte) bool { return b != 0 }) {
					t.Error("bytes written past limit+1")
				}
			}
		})
	}
	for _, sized := range []bool{true, false} {
		t.Run(fmt.Sprintf("buffer_is_reused/content_length=%v", sized), func(t *testing.T) {
			const size = 3 << 20
			want := body(size)
			base := serve(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/proto")
				if sized {
					w.Header().Set("Content-Length", strconv.Itoa(size))
					w.Write(want)
					return
				}
				writeChunked(w, want)
			})
			c := newCaller(t, base, 0)
			buf, err := c.Call(t.Context(), procedure, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			first := &buf[0]
			for i := range 3 {
				var err error
				n := allocated(func() { buf, err = c.Call(t.Context(), procedure, buf, nil) })
				if err != nil {
					t.Fatal(err)
				}
				checkReused(t, fmt.Sprintf("call %d", i), buf, want, first, n)
			}
		})
	}
}
