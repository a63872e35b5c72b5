// Package unary makes unary calls of the Connect protocol (protobuf,
// uncompressed) over net/http and reads each response message into a
// buffer its caller reuses. It exists for the batch responses of
// EnvService's Reset and Step, megabytes each: connect-go reads a message
// over wire.ConnectRecycleLimit into a fresh buffer, grown as it reads, and
// drops it afterwards (see package wire), so a client going through it
// allocates the whole batch, and more, on every step. Package client sends
// Reset and Step through a [Caller] when it speaks the Connect protocol, and
// reads the batches out of the message with package wire; the env
// service's benchmarks measure the transport with one.
//
// # The protocol
//
// A call is a POST of the marshalled request to the base URL followed by
// the procedure ("/botarena.v1.EnvService/Step"), as connect-go sends it:
// Content-Type application/proto, Connect-Protocol-Version 1,
// Accept-Encoding identity (no compression either way), Content-Length,
// Connect-Timeout-Ms from the context's deadline, connect-go's User-Agent,
// and the caller's headers (Authorization). A 200 response's body is the
// marshalled response message.
//
// # Errors
//
// Every error is a *connect.Error with the code connect-go's client gives
// the same failure:
//
//   - a response with another status and a JSON body (Connect's error
//     form: code, message, details) is a wire error (connect.IsWireError)
//     with that code (the status's code when the body names none), message
//     and details, its Meta the response's headers (Trailer- headers
//     unprefixed), as connect-go returns it; a body that is not JSON, or an
//     unreadable one, gives the code of the HTTP status (connect-go's table)
//     and the status text;
//   - a response of the wrong Content-Type is Unknown (not a Connect
//     response) or Internal (another codec), one with a Content-Encoding
//     other than identity Internal;
//   - a message over the limit, sent or received, is ResourceExhausted, with
//     connect-go's messages;
//   - a canceled call is Canceled, one past its deadline DeadlineExceeded,
//     any other failure to get a response Unavailable, and a failure while
//     reading the body Unknown.
//
// # Memory
//
// A response's size is checked against the limit before its buffer grows:
// its Content-Length, when it has one, before reading anything; otherwise
// the body is read into at most limit+1 bytes of the buffer (one over: how
// a message over the limit is told), whatever its capacity, and the buffer
// grows as it fills, doubling from 64 KiB, and straight to limit+1 bytes
// once doubling would reach the limit. The rest of a body over the limit
// is read and discarded, as connect-go does, for the size in the error and
// so that the connection can be reused. A buffer large
// enough for the response is used as it is, so a caller that passes the
// previous call's buffer back allocates nothing for the message once the
// buffer has grown to the largest response.
package unary

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/anypb"
)

// The Connect protocol's unary headers and values.
const (
	contentTypeProto = "application/proto"
	contentTypeJSON  = "application/json"
	trailerPrefix    = "Trailer-"
)

// userAgent is connect-go's, so that the server sees the same client on
// both paths.
var userAgent = "connect-go/" + connect.Version + " (" + runtime.Version() + ")"

// minGrow is the capacity a buffer first grows to when a response has no
// Content-Length.
const minGrow = 64 << 10

// Caller makes unary calls of the Connect protocol to one server. It is
// safe for concurrent use; the buffers passed to [Caller.Call] are the
// caller's.
type Caller struct {
	client   *http.Client
	base     string // the base URL, without a trailing slash
	header   http.Header
	maxBytes int
}

// NewCaller returns a caller of the server at baseURL ("http://host:port",
// "https://host:port/prefix") through hc, sending header (Authorization, or
// nil) with every call, and refusing messages of more than maxBytes bytes
// either way (0: no limit). It fails for a base URL that is not absolute.
func NewCaller(hc *http.Client, baseURL string, header http.Header, maxBytes int) (*Caller, error) {
	if u, err := url.ParseRequestURI(baseURL); err != nil || u.Host == "" {
		return nil, fmt.Errorf("unary: base URL %q: want an absolute URL", baseURL)
	}
	h := http.Header{
		"Content-Type":             {contentTypeProto},
		"Connect-Protocol-Version": {"1"},
		"Accept-Encoding":          {"identity"},
		"User-Agent":               {userAgent},
	}
	for k, v := range header {
		h[http.CanonicalHeaderKey(k)] = v
	}
	return &Caller{client: hc, base: strings.TrimSuffix(baseURL, "/"), header: h, maxBytes: maxBytes}, nil
}

// Call sends req, a marshalled request message, to procedure and reads the
// response message into dst's array, or into a larger one when it does not
// fit: it returns the message (an empty slice with the error), whose array
// the caller passes back as dst of its next call. What dst held is
// overwritten. The errors are in the package documentation.
func (c *Caller) Call(ctx context.Context, procedure string, dst, req []byte) ([]byte, error) {
	dst = dst[:0]
	if c.maxBytes > 0 && len(req) > c.maxBytes {
		return dst, connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("message size %d exceeds sendMaxBytes %d", len(req), c.maxBytes))
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+procedure, bytes.NewReader(req))
	if err != nil {
		return dst, connect.NewError(connect.CodeUnknown, err)
	}
	r.Header = c.header.Clone()
	if deadline, ok := ctx.Deadline(); ok {
		// As connect-go: whole milliseconds, at least 1; no header for a
		// timeout too long to write in 10 digits.
		if ms := strconv.FormatInt(max(int64(time.Until(deadline)/time.Millisecond), 1), 10); len(ms) <= 10 {
			r.Header["Connect-Timeout-Ms"] = []string{ms}
		}
	}
	resp, err := c.client.Do(r)
	if err != nil {
		return dst, transportError(ctx, err)
	}
	defer resp.Body.Close()
	if err := c.validate(resp); err != nil {
		return dst, err
	}
	return c.read(ctx, dst, resp)
}

// validate checks a response's status, Content-Type and Content-Encoding,
// in connect-go's order, and returns an error response's error.
func (c *Caller) validate(resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK {
		if ct != contentTypeJSON && ct != contentTypeJSON+"; charset=utf-8" {
			return connect.NewError(httpCode(resp.StatusCode), errors.New(resp.Status))
		}
	} else if codec, ok := strings.CutPrefix(ct, "application/"); !ok {
		return connect.NewError(connect.CodeUnknown, fmt.Errorf("invalid content-type: %q; expecting %q", ct, contentTypeProto))
	} else if codec != "proto" {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("invalid content-type: %q; expecting %q", ct, contentTypeProto))
	}
	if enc := resp.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unknown encoding %q: accepted encodings are identity", enc))
	}
	if resp.StatusCode != http.StatusOK {
		return c.responseError(resp)
	}
	return nil
}

// read reads a 200 response's body into dst's array, or a larger one.
func (c *Caller) read(ctx context.Context, dst []byte, resp *http.Response) ([]byte, error) {
	limit := int64(c.maxBytes)
	if limit <= 0 {
		limit = int64(^uint(0) >> 2) // no limit: what a slice may hold
	}
	if n := resp.ContentLength; n >= 0 {
		if n > limit {
			return dst, tooLarge(n, c.maxBytes)
		}
		if int64(cap(dst)) < n {
			dst = make([]byte, 0, n)
		}
		if _, err := io.ReadFull(resp.Body, dst[:n]); err != nil {
			return dst[:0], readError(ctx, err)
		}
		return dst[:n], nil
	}
	for {
		// The part of the buffer to read into: never past limit+1 bytes,
		// whatever its capacity.
		room := min(int64(cap(dst)), limit+1)
		if int64(len(dst)) == room {
			if int64(len(dst)) > limit {
				// One byte over: count the rest, so that the error gives the
				// size and the connection can be reused.
				rest, err := io.Copy(io.Discard, resp.Body)
				if err != nil {
					return dst[:0], connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("message is larger than configured max %d - unable to determine message size: %w", c.maxBytes, err))
				}
				return dst[:0], tooLarge(int64(len(dst))+rest, c.maxBytes)
			}
			size := max(2*int64(cap(dst)), minGrow)
			if size >= limit {
				// Straight to limit+1: a buffer of limit bytes, full, would
				// grow once more to tell a message of limit bytes from a
				// larger one.
				size = limit + 1
			}
			grown := make([]byte, len(dst), size)
			copy(grown, dst)
			dst, room = grown, int64(cap(grown))
		}
		m, err := resp.Body.Read(dst[len(dst):room])
		dst = dst[:len(dst)+m]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:0], readError(ctx, err)
		}
	}
}

// tooLarge is the error of a received message of size bytes over max.
func tooLarge(size int64, max int) error {
	return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("message size %d is larger than configured max %d", size, max))
}

// readError is the error of a body that failed.
func readError(ctx context.Context, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if code, ok := contextCode(ctx, err); ok {
		return connect.NewError(code, err)
	}
	return connect.NewError(connect.CodeUnknown, fmt.Errorf("read message: %w", err))
}

// transportError is the error of a call that got no response.
func transportError(ctx context.Context, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if code, ok := contextCode(ctx, err); ok {
		return connect.NewError(code, err)
	}
	return connect.NewError(connect.CodeUnavailable, err)
}

// contextCode returns the code of an error caused by the call's context
// being canceled or past its deadline.
func contextCode(ctx context.Context, err error) (connect.Code, bool) {
	switch {
	case errors.Is(err, context.Canceled):
		return connect.CodeCanceled, true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return connect.CodeDeadlineExceeded, true
	}
	switch ctx.Err() {
	case context.Canceled:
		return connect.CodeCanceled, true
	case context.DeadlineExceeded:
		return connect.CodeDeadlineExceeded, true
	}
	return 0, false
}

// wireError is Connect's JSON error body.
type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"details"`
}

// responseError reads the JSON error body of a response whose status is
// not 200.
func (c *Caller) responseError(resp *http.Response) error {
	body := io.Reader(resp.Body)
	if c.maxBytes > 0 {
		body = io.LimitReader(resp.Body, int64(c.maxBytes)+1)
	}
	data, err := io.ReadAll(body)
	if err == nil && c.maxBytes > 0 && len(data) > c.maxBytes {
		rest, _ := io.Copy(io.Discard, resp.Body)
		return tooLarge(int64(len(data))+rest, c.maxBytes)
	}
	var w wireError
	if err == nil {
		err = json.Unmarshal(data, &w)
	}
	var details []*connect.ErrorDetail
	for _, d := range w.Details {
		if err != nil {
			break
		}
		var value []byte
		if value, err = connect.DecodeBinaryHeader(d.Value); err != nil {
			break
		}
		if !strings.Contains(d.Type, "/") {
			d.Type = "type.googleapis.com/" + d.Type
		}
		var detail *connect.ErrorDetail
		if detail, err = connect.NewErrorDetail(&anypb.Any{TypeUrl: d.Type, Value: value}); err == nil {
			details = append(details, detail)
		}
	}
	if err != nil {
		return connect.NewError(httpCode(resp.StatusCode), errors.New(resp.Status))
	}
	var code connect.Code
	// An unknown code leaves code 0: the status's code, as connect-go.
	if code.UnmarshalText([]byte(w.Code)) != nil || code == 0 {
		code = httpCode(resp.StatusCode)
	}
	e := connect.NewWireError(code, errors.New(w.Message))
	for _, d := range details {
		e.AddDetail(d)
	}
	meta := e.Meta()
	for k, v := range resp.Header {
		if t, ok := strings.CutPrefix(k, trailerPrefix); ok {
			meta[t] = append(meta[t], v...)
		} else {
			meta[k] = append(meta[k], v...)
		}
	}
	return e
}

// httpCode is the code of an error response without a Connect error body,
// by its HTTP status: connect-go's table, which follows gRPC's
// (https://github.com/grpc/grpc/blob/master/doc/http-grpc-status-mapping.md).
func httpCode(status int) connect.Code {
	switch status {
	case 400:
		return connect.CodeInternal
	case 401:
		return connect.CodeUnauthenticated
	case 403:
		return connect.CodePermissionDenied
	case 404:
		return connect.CodeUnimplemented
	case 429, 502, 503, 504:
		return connect.CodeUnavailable
	}
	return connect.CodeUnknown
}
