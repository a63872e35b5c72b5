package server

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"sync"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

// DefaultMaxMessageBytes is the default of [WithMaxMessageBytes].
const DefaultMaxMessageBytes = 256 << 20

// An Option configures a [Host].
type Option func(*options)

type options struct {
	log             *slog.Logger
	reg             *env.Registry
	version         string
	maxMessageBytes int
	agentCaps       agents.Capabilities // WithAgentCapabilities (capabilities.go)
	// The memory budget (budget.go).
	maxMemory, maxClientMemory int64
	maxClientPools             int
	// The connection and stream limits (http.go, streams.go).
	maxClientConns                   int
	maxClientStreams, maxConnStreams int
}

// WithLogger sets the logger of the host and its services: their events
// (pools created and closed, ...), internal errors, connections refused
// at the cap (Warn; see [Host.LimitListener]) and clients' failed calls
// (Debug, with the procedure and the code). The default discards
// everything.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithRegistry sets the registry the services look games up in. The
// default is [env.Default].
func WithRegistry(r *env.Registry) Option { return func(o *options) { o.reg = r } }

// WithVersion sets the version the host reports: ListGames'
// server_version and the version label of botarena_build_info (see
// metrics.go). `botarena serve` sets what `botarena version` prints. The
// default is "".
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithMaxMessageBytes sets the largest message, request or response, the
// services of [Host.Handler] read or send (connect.WithReadMaxBytes and
// WithSendMaxBytes); the services also refuse, before doing the work, what
// would make a larger response (a pool's batch, a recorded game). The
// default is [DefaultMaxMessageBytes] (256 MiB; a batch of 4096 4-player
// Bomberman envs is about 88 MB).
func WithMaxMessageBytes(n int) Option { return func(o *options) { o.maxMessageBytes = n } }

// WithMaxClientConnections sets the most connections one client (the
// peer's IP address) may have open through [Host.LimitListener]. Zero or
// less, the default, means a quarter of the listener's cap, at least
// [DefaultMaxClientConnections] (the whole cap when smaller).
func WithMaxClientConnections(n int) Option { return func(o *options) { o.maxClientConns = n } }

// Host is what the services of one server share: its options, the
// memory budget ([Budget]), the metrics registry, the agent capabilities,
// and the HTTP handler that serves the services with the gRPC health
// service, server reflection and /metrics on one path tree.
//
// A Host is safe for concurrent use. Make the services with it
// (envservice.New, matchservice.New), serve them with [Host.Handler] and
// stop them with [Host.Close].
type Host struct {
	opts    options
	log     *slog.Logger
	health  *grpchealth.StaticChecker
	metrics *metrics
	budget  *Budget

	mu       sync.Mutex
	services []Service // of Handler, closed by Close
	closed   bool
}

// Service is one service a [Host] serves: envservice.Server and
// matchservice.Server implement it.
type Service interface {
	// ServiceName returns the service's full protobuf name
	// ("botarena.v1.EnvService"), for the health service and reflection.
	ServiceName() string
	// Handler returns the service's path and handler, made with opts (the
	// host's limits, panic recovery and interceptors) and the service's
	// own.
	Handler(opts ...connect.HandlerOption) (string, http.Handler)
	// Close stops the service: later calls are Unavailable.
	Close() error
}

// New returns a host with the given options; see each option for its
// default.
func New(opts ...Option) *Host {
	o := options{maxMessageBytes: DefaultMaxMessageBytes, maxClientStreams: DefaultMaxClientStreams, maxConnStreams: DefaultMaxConnStreams}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxClientStreams < 1 {
		o.maxClientStreams = DefaultMaxClientStreams
	}
	if o.maxConnStreams < 1 {
		o.maxConnStreams = DefaultMaxConnStreams
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.reg == nil {
		o.reg = env.Default
	}
	h := &Host{opts: o, log: o.log, health: grpchealth.NewStaticChecker(), budget: newBudget(o)}
	h.metrics = newMetrics(h)
	return h
}

// Log returns the host's logger ([WithLogger]).
func (h *Host) Log() *slog.Logger { return h.log }

// Registry returns the registry of games ([WithRegistry]).
func (h *Host) Registry() *env.Registry { return h.opts.reg }

// Version returns the version the host reports ([WithVersion]).
func (h *Host) Version() string { return h.opts.version }

// MaxMessageBytes returns the message limit ([WithMaxMessageBytes]).
func (h *Host) MaxMessageBytes() int { return h.opts.maxMessageBytes }

// Budget returns the host's memory budget, shared by its services.
func (h *Host) Budget() *Budget { return h.budget }

// MemoryInUse returns the bytes of the memory budget reserved by the
// services (open pools, games in progress), and the budget
// ([WithMaxMemory]).
func (h *Host) MemoryInUse() (used, limit int64) { return h.budget.InUse() }

// Closed reports whether [Host.Close] has been called.
func (h *Host) Closed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// Handler returns an HTTP handler serving, on one path tree: services
// (Connect, gRPC and gRPC-Web, with the message size limit of
// [WithMaxMessageBytes]), the gRPC health service (grpc.health.v1.Health:
// SERVING for "" and each service's name until Close), gRPC server
// reflection (v1 and v1alpha) so that grpcurl can list and describe the
// services, and the Prometheus metrics of metrics.go at /metrics.
// Responses are never compressed by the transport (a pool's batches are
// compressed by Arrow, COMPRESSION_ZSTD, for remote links); gzipped
// requests are read. Serve it over HTTP/1.1 and h2c (see [NewHTTPServer]);
// gRPC needs HTTP/2.
//
// [Host.Close] closes the services given here. Call Handler once.
func (h *Host) Handler(services ...Service) http.Handler {
	mux := http.NewServeMux()
	limits := []connect.HandlerOption{
		connect.WithReadMaxBytes(h.opts.maxMessageBytes),
		connect.WithSendMaxBytes(h.opts.maxMessageBytes),
		// Responses are never compressed by the transport, even for clients
		// that accept gzip (connect-go clients do by default): batches are
		// compressed at one layer only, Arrow's (COMPRESSION_ZSTD).
		connect.WithCompressMinBytes(math.MaxInt),
		connect.WithRecover(h.recoverHandler),
		connect.WithInterceptors(observer{h}),
	}
	names := []string{grpchealth.HealthV1ServiceName}
	h.mu.Lock()
	closed := h.closed
	h.services = append(h.services, services...)
	h.mu.Unlock()
	for _, s := range services {
		mux.Handle(s.Handler(limits...))
		names = append(names, s.ServiceName())
		if !closed {
			h.health.SetStatus(s.ServiceName(), grpchealth.StatusServing)
		}
	}
	mux.Handle(grpchealth.NewHandler(h.health))
	reflector := grpcreflect.NewStaticReflector(names...)
	mux.Handle(grpcreflect.NewHandlerV1(reflector))
	mux.Handle(grpcreflect.NewHandlerV1Alpha(reflector))
	mux.Handle("/metrics", h.metrics.handler())
	return mux
}

// recoverHandler turns a panic in a handler into an Internal error and logs
// it. Services may catch their panics earlier (envservice closes the pool
// whose env panicked).
func (h *Host) recoverHandler(_ context.Context, spec connect.Spec, _ http.Header, p any) error {
	h.log.Error("panic in handler", "procedure", spec.Procedure, "panic", p)
	return ConnectError(h.log, spec.Procedure, fmt.Errorf("panic: %v", p))
}

// Close marks the health service NOT_SERVING and closes the services of
// [Host.Handler], in order, each as its Close says (envservice: calls
// running on pools finish, open streams end, every pool is closed;
// matchservice: games in progress stop at their next round); a call that
// fails with NotFound from then on (a pool closed under it) is
// Unavailable. Closing twice is fine (each returns once the services are
// closed). It always returns nil.
//
// To shut down an http.Server serving the handler promptly, call Close
// while (or before) its Shutdown waits: Shutdown alone waits for open
// streams, which end only when their clients close them.
func (h *Host) Close() error {
	h.mu.Lock()
	h.closed = true
	services := h.services
	h.mu.Unlock()
	h.health.SetStatus("", grpchealth.StatusNotServing)
	for _, s := range services {
		h.health.SetStatus(s.ServiceName(), grpchealth.StatusNotServing)
	}
	for _, s := range services {
		s.Close()
	}
	return nil
}
