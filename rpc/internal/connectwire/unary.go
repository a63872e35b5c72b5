package connectwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

// minGrow is the capacity a buffer first grows to when a unary response
// has no Content-Length.
const minGrow = 64 << 10

// trailerPrefix marks the trailers among a unary response's headers.
const trailerPrefix = "Trailer-"

// Call sends req, a marshalled request message, to procedure and reads the
// response message into dst's array, or into a larger one when it does not
// fit: it returns the message (an empty slice with the error), whose array
// the caller passes back as dst of its next call. What dst held is
// overwritten. The errors are in the package documentation.
func (c *Caller) Call(ctx context.Context, procedure string, dst, req []byte) ([]byte, error) {
	dst = dst[:0]
	if c.maxBytes > 0 && len(req) > c.maxBytes {
		return dst, tooLargeToSend(len(req), c.maxBytes)
	}
	r, err := c.newRequest(ctx, procedure, c.unary, bytes.NewReader(req))
	if err != nil {
		return dst, err
	}
	resp, err := c.client.Do(r)
	if err != nil {
		return dst, failure(ctx, err, connect.CodeUnavailable, "") // no response
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
	} else if err := checkContentType(ct, "application/", contentTypeProto); err != nil {
		return err
	}
	if err := checkEncoding(resp.Header.Get("Content-Encoding")); err != nil {
		return err
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
			return dst[:0], failure(ctx, err, connect.CodeUnknown, "read message")
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
			return dst[:0], failure(ctx, err, connect.CodeUnknown, "read message")
		}
	}
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
	var e *connect.Error
	if err == nil {
		// An absent or unknown code is the status's, as connect-go.
		e, err = w.asError(httpCode(resp.StatusCode))
	}
	if err != nil {
		return connect.NewError(httpCode(resp.StatusCode), errors.New(resp.Status))
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
