package connectwire

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
)

// The Connect protocol's content types.
const (
	contentTypeProto       = "application/proto"
	contentTypeJSON        = "application/json"
	contentTypeStreamProto = "application/connect+proto"
)

// userAgent is connect-go's, so that the server sees the same client on
// every path.
var userAgent = "connect-go/" + connect.Version + " (" + runtime.Version() + ")"

// Caller makes calls of the Connect protocol to one server. It is safe for
// concurrent use; the buffers passed to its methods are the caller's, and a
// [Stream] states its own rules.
type Caller struct {
	client   *http.Client
	http1    *http.Client // streams' HTTP/1.1 client (see [Caller.StreamOverHTTP1]); nil: streams go over client
	base     string       // the base URL, without a trailing slash
	unary    http.Header  // the headers of a unary call
	stream   http.Header  // the headers of a stream
	maxBytes int
}

// NewCaller returns a caller of the server at baseURL ("http://host:port",
// "https://host:port/prefix") through hc, sending header (Authorization, or
// nil) with every call, and refusing messages of more than maxBytes bytes
// either way (0: no limit). hc must speak HTTP/2 for streams. It fails for
// a base URL that is not absolute.
func NewCaller(hc *http.Client, baseURL string, header http.Header, maxBytes int) (*Caller, error) {
	if u, err := url.ParseRequestURI(baseURL); err != nil || u.Host == "" {
		return nil, fmt.Errorf("connectwire: base URL %q: want an absolute URL", baseURL)
	}
	h := http.Header{
		"Connect-Protocol-Version": {"1"},
		// Always, as connect-go: without it http.Client asks for gzip and
		// decodes it out of sight.
		"Accept-Encoding": {"identity"},
		"User-Agent":      {userAgent},
	}
	for k, v := range header {
		h[http.CanonicalHeaderKey(k)] = v
	}
	unary, stream := h.Clone(), h
	unary["Content-Type"] = []string{contentTypeProto}
	stream["Content-Type"] = []string{contentTypeStreamProto}
	stream["Connect-Accept-Encoding"] = []string{"identity"}
	return &Caller{client: hc, base: strings.TrimSuffix(baseURL, "/"), unary: unary, stream: stream, maxBytes: maxBytes}, nil
}

// newRequest returns a POST of body to procedure with a copy of header and
// the context's timeout.
func (c *Caller) newRequest(ctx context.Context, procedure string, header http.Header, body io.Reader) (*http.Request, error) {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+procedure, body)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnknown, err)
	}
	r.Header = header.Clone()
	if deadline, ok := ctx.Deadline(); ok {
		// As connect-go: whole milliseconds, at least 1; no header for a
		// timeout too long to write in 10 digits.
		if ms := strconv.FormatInt(max(int64(time.Until(deadline)/time.Millisecond), 1), 10); len(ms) <= 10 {
			r.Header["Connect-Timeout-Ms"] = []string{ms}
		}
	}
	return r, nil
}

// tooLargeToSend is the error of a message of size bytes to send, over max.
func tooLargeToSend(size, max int) error {
	return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("message size %d exceeds sendMaxBytes %d", size, max))
}
