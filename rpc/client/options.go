package client

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

// DefaultMaxMessageBytes is the default of [WithMaxMessageBytes]: 256 MiB,
// the default message limit of `botarena serve` too.
const DefaultMaxMessageBytes = 256 << 20

// PictureFormat is the Render format of pictures (see [Pool.Paint]): RGB
// pixels of the game's picture.Painter picture, named after Gymnasium's render
// mode.
const PictureFormat = "rgb_array"

// Protocol is the wire protocol a [Client] speaks.
type Protocol uint8

const (
	// GRPC is the gRPC protocol over HTTP/2 (h2c for http:// addresses),
	// what grpcio clients speak.
	GRPC Protocol = iota
	// Connect is the Connect protocol (HTTP/2, h2c for http://), the
	// default. Reset, Step and StepStream read their batches into a buffer
	// the Pool reuses (see the package documentation); StepStream goes
	// over HTTP/1.1 where the server offers it (see [Pool.Stream]).
	Connect
	// GRPCWeb is the gRPC-Web protocol (HTTP/2, h2c for http://).
	GRPCWeb
)

// An Option configures [Dial] and [NewEndpoint].
type Option func(*options)

type options struct {
	protocol        Protocol
	httpClient      *http.Client
	maxMessageBytes int
	connectOpts     []connect.ClientOption
	token           string
	tlsConfig       *tls.Config
}

// WithProtocol sets the wire protocol. The default is [Connect].
func WithProtocol(p Protocol) Option { return func(o *options) { o.protocol = p } }

// WithHTTPClient sets the HTTP client, for TLS or a custom transport; it
// must speak HTTP/2 for streams and for the gRPC protocol. The default is a
// client of its own that speaks HTTP/2 without TLS (h2c) to http://
// addresses and over TLS to https:// ones.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithMaxMessageBytes sets the largest message the client reads or sends.
// The default is [DefaultMaxMessageBytes] (256 MiB).
func WithMaxMessageBytes(n int) Option {
	return func(o *options) { o.maxMessageBytes = n }
}

// WithToken makes every call send "Authorization: Bearer token" (the gRPC
// metadata `authorization`), the token of a server started with
// --auth-token or BOTARENA_AUTH_TOKEN (see server.RequireToken). The default,
// or an empty token, sends none.
func WithToken(token string) Option { return func(o *options) { o.token = token } }

// WithTLSConfig makes the client's own HTTP client speak HTTP/2 over TLS
// with cfg (a private CA in RootCAs, a client certificate, ...), and turns
// a "host:port" address into https://host:port. It has no effect on an
// HTTP client given with [WithHTTPClient]. The default is TLS 1.2 or later
// with the system's roots, for https:// addresses only.
func WithTLSConfig(cfg *tls.Config) Option {
	return func(o *options) { o.tlsConfig = cfg }
}

// WithConnectOptions adds Connect client options (interceptors, ...). With
// any, Reset, Step and StepStream of the [Connect] protocol go through
// connect-go, which applies them, and allocate their batches on every call.
func WithConnectOptions(opts ...connect.ClientOption) Option {
	return func(o *options) { o.connectOpts = append(o.connectOpts, opts...) }
}

// Endpoint is what a client of any service of one server needs, made from
// the options of [Dial]: the base URL, the HTTP client and the Connect
// options. matchservice.RemoteRunner makes its MatchService clients from
// one.
type Endpoint struct {
	BaseURL    string
	HTTPClient *http.Client
	// Owned is set when HTTPClient was made here (the options gave none):
	// its user closes its idle connections when done.
	Owned   bool
	Options []connect.ClientOption
	// MaxMessageBytes is the message limit of Options
	// ([WithMaxMessageBytes]).
	MaxMessageBytes int
}

// NewEndpoint resolves addr ("host:port", h2c, or a base URL) and opts. It
// does not connect. It fails for a malformed address or an unknown
// protocol.
func NewEndpoint(addr string, opts ...Option) (*Endpoint, error) {
	e, _, err := newEndpoint(addr, opts)
	return e, err
}

// newEndpoint is [NewEndpoint], returning the options too.
func newEndpoint(addr string, opts []Option) (*Endpoint, *options, error) {
	o := &options{protocol: Connect, maxMessageBytes: DefaultMaxMessageBytes}
	for _, opt := range opts {
		opt(o)
	}
	e := &Endpoint{BaseURL: addr, HTTPClient: o.httpClient, MaxMessageBytes: o.maxMessageBytes}
	if !strings.Contains(addr, "://") {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return nil, nil, fmt.Errorf("client: address %q: want host:port or a URL: %w", addr, err)
		}
		e.BaseURL = "http://" + addr
		if o.tlsConfig != nil && e.HTTPClient == nil {
			e.BaseURL = "https://" + addr
		}
	}
	e.Options = []connect.ClientOption{
		connect.WithReadMaxBytes(o.maxMessageBytes),
		connect.WithSendMaxBytes(o.maxMessageBytes),
		connect.WithCodec(batchCodec{}),
	}
	switch o.protocol {
	case GRPC:
		e.Options = append(e.Options, connect.WithGRPC())
	case GRPCWeb:
		e.Options = append(e.Options, connect.WithGRPCWeb())
	case Connect:
	default:
		return nil, nil, fmt.Errorf("client: unknown protocol %d", o.protocol)
	}
	if o.token != "" {
		e.Options = append(e.Options, connect.WithInterceptors(tokenInterceptor{header: "Bearer " + o.token}))
	}
	e.Options = append(e.Options, o.connectOpts...)
	if e.HTTPClient == nil {
		e.HTTPClient, e.Owned = newHTTPClient(o.tlsConfig), true
	}
	return e, o, nil
}

// newHTTPClient returns an HTTP client that speaks HTTP/2 with prior
// knowledge to http:// URLs (h2c) and HTTP/2 over TLS to https:// ones
// (with tlsConfig, or TLS 1.2 or later with the system's roots when it is
// nil), with receive windows sized for batches of megabytes.
func newHTTPClient(tlsConfig *tls.Config) *http.Client {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	p.SetHTTP2(true)
	if tlsConfig == nil {
		tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: &http.Transport{
		Protocols:       &p,
		TLSClientConfig: tlsConfig.Clone(),
		HTTP2: &http.HTTP2Config{
			MaxReceiveBufferPerConnection: 256 << 20,
			MaxReceiveBufferPerStream:     64 << 20,
			// Large frames: a batch of megabytes in 16 KiB frames (the
			// HTTP/2 default) costs the server a write per frame.
			MaxReadFrameSize: 1<<24 - 1,
		},
	}}
}

// newHTTP1Client returns the HTTP client of the Connect protocol's
// StepStreams: HTTP/1.1, over TLS to https:// URLs as [newHTTPClient]'s.
func newHTTP1Client(tlsConfig *tls.Config) *http.Client {
	var p http.Protocols
	p.SetHTTP1(true)
	if tlsConfig == nil {
		tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: &http.Transport{Protocols: &p, TLSClientConfig: tlsConfig.Clone()}}
}

// tokenInterceptor is the client side of server.RequireToken: it sets
// "Authorization: Bearer TOKEN" on every call.
type tokenInterceptor struct{ header string }

func (t tokenInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		req.Header().Set("Authorization", t.header)
		return next(ctx, req)
	}
}

func (t tokenInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		conn.RequestHeader().Set("Authorization", t.header)
		return conn
	}
}

func (t tokenInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}
