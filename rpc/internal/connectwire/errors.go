package connectwire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/anypb"
)

// tooLarge is the error of a received message of size bytes over max.
func tooLarge(size int64, max int) error {
	return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("message size %d is larger than configured max %d", size, max))
}

// failure returns the error of a call that failed with err: the code
// coded gives it, or code, with op ("read message") before the error's
// text unless op is empty. An io.EOF becomes io.ErrUnexpectedEOF: io.EOF
// is what a stream's end wraps.
func failure(ctx context.Context, err error, code connect.Code, op string) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if e := coded(ctx, err); e != nil {
		return e
	}
	if op != "" {
		err = fmt.Errorf("%s: %w", op, err)
	}
	return connect.NewError(code, err)
}

// coded returns err with the code connect-go's client gives it when it
// knows one: the context's end and an HTTP/2 stream reset by the server.
// It returns nil for other errors.
func coded(ctx context.Context, err error) error {
	if code, ok := contextCode(ctx, err); ok {
		return connect.NewError(code, err)
	}
	return resetError(ctx, err)
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

// resetError returns the error of an HTTP/2 stream the server reset
// (RST_STREAM), coded by its reason as connect-go codes it (after gRPC's
// table,
// https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md#http2-transport-mapping),
// or nil for another error. net/http's HTTP/2 errors are unexported: the
// reason is read from the text, "stream error: stream ID 3; CANCEL;
// received from peer", as connect-go reads it.
func resetError(ctx context.Context, err error) error {
	if u := new(url.Error); errors.As(err, &u) {
		err = u.Unwrap()
	}
	msg, ok := strings.CutPrefix(err.Error(), "stream error: ")
	if !ok {
		return nil
	}
	if msg, ok = strings.CutSuffix(msg, "; received from peer"); !ok {
		return nil
	}
	reason := strings.TrimSpace(msg[strings.LastIndex(msg, ";")+1:])
	switch reason {
	case "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
		"SETTINGS_TIMEOUT", "FRAME_SIZE_ERROR", "COMPRESSION_ERROR", "CONNECT_ERROR":
		return connect.NewError(connect.CodeInternal, err)
	case "REFUSED_STREAM":
		return connect.NewError(connect.CodeUnavailable, err)
	case "CANCEL":
		// A server may cancel a stream whose deadline has passed.
		if deadline, ok := ctx.Deadline(); ok && time.Now().After(deadline) {
			return connect.NewError(connect.CodeDeadlineExceeded, err)
		}
		return connect.NewError(connect.CodeCanceled, err)
	case "ENHANCE_YOUR_CALM":
		return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("bandwidth exhausted: %w", err))
	case "INADEQUATE_SECURITY":
		return connect.NewError(connect.CodePermissionDenied, fmt.Errorf("transport protocol insecure: %w", err))
	}
	return nil
}

// checkContentType returns the error of a 200 response whose Content-Type
// ct is not want, a Connect content type ("application/" or
// "application/connect+" followed by the codec, prefix): Unknown when ct
// lacks the prefix (not a Connect response), Internal when it names another
// codec.
func checkContentType(ct, prefix, want string) error {
	if !strings.HasPrefix(ct, prefix) {
		return connect.NewError(connect.CodeUnknown, fmt.Errorf("invalid content-type: %q; expecting %q", ct, want))
	}
	if ct != want {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("invalid content-type: %q; expecting %q", ct, want))
	}
	return nil
}

// checkEncoding returns the error of a response compressed with enc (its
// Content-Encoding, or a stream's Connect-Content-Encoding): none for no
// compression.
func checkEncoding(enc string) error {
	if enc != "" && enc != "identity" {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unknown encoding %q: accepted encodings are identity", enc))
	}
	return nil
}

// wireError is Connect's JSON error: the body of a unary error response,
// the error of a stream's end-of-stream message.
type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"details"`
}

// asError returns the error w describes, a wire error with code instead of
// an absent or unknown one, as connect-go builds it. It fails for a detail
// whose value is not base64.
func (w *wireError) asError(code connect.Code) (*connect.Error, error) {
	var c connect.Code
	if c.UnmarshalText([]byte(w.Code)) == nil && c != 0 {
		code = c
	}
	e := connect.NewWireError(code, errors.New(w.Message))
	for _, d := range w.Details {
		value, err := connect.DecodeBinaryHeader(d.Value)
		if err != nil {
			return nil, fmt.Errorf("decode base64: %w", err)
		}
		if !strings.Contains(d.Type, "/") {
			d.Type = "type.googleapis.com/" + d.Type
		}
		detail, err := connect.NewErrorDetail(&anypb.Any{TypeUrl: d.Type, Value: value})
		if err != nil {
			return nil, err
		}
		e.AddDetail(detail)
	}
	return e, nil
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
