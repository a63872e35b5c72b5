package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// This file holds a host's Prometheus metrics, in a registry of its own
// that [Host.Handler] serves at /metrics, and the interceptor that feeds
// them and logs failed calls. The services register theirs in the same
// registry (envservice: pools, envs and steps; matchservice: games).
// Counters only count up: rates come from PromQL
// (rate(botarena_agent_steps_total[1m]) is agent-steps per second).
//
//	botarena_build_info{version}                  1, with the version of [WithVersion]
//	botarena_rpc_duration_seconds{procedure}      histogram of unary calls' durations (streams are not timed)
//	botarena_rpc_errors_total{procedure,code}     calls and streams that failed, by Connect code
//	botarena_memory_budget_used_bytes             bytes of the memory budget reserved (see budget.go)
//	botarena_memory_budget_limit_bytes            the memory budget
//	botarena_http_connections_open                connections open, with [Host.LimitListener]
//	botarena_http_connections_refused_total       connections closed at once: a cap was reached, none could be closed for them
//	botarena_http_connections_evicted_total       idle connections closed to admit a new one at a cap
//	botarena_streams_open                         streams open (StepStreams), see [Host.OpenStream]
//	go_*, process_*                               the Go runtime's and the process's collectors (process_open_fds ...)

// metrics are a host's Prometheus metrics.
type metrics struct {
	reg *prometheus.Registry

	rpcDuration  *prometheus.HistogramVec
	rpcErrors    *prometheus.CounterVec
	connsOpen    prometheus.Gauge
	connsRefused prometheus.Counter
	connsEvicted prometheus.Counter
}

// MetricOpts returns the options of the metric botarena_<name>, for the
// metrics in a host's registry ([Host.Metrics]): those of
// [Host.NewCounter], [Host.NewGauge] and [Host.NewGaugeFunc], and of the
// other kinds a caller makes itself.
func MetricOpts(name, help string) prometheus.Opts {
	return prometheus.Opts{Namespace: "botarena", Name: name, Help: help}
}

// NewCounter makes the counter botarena_<name> with help and registers it
// in the host's registry ([Host.Metrics]): a service's own counter. It
// panics, as prometheus.Registry.MustRegister does, when the registry
// holds a metric of that name already.
func (h *Host) NewCounter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts(MetricOpts(name, help)))
	h.metrics.reg.MustRegister(c)
	return c
}

// NewGauge makes the gauge botarena_<name> with help and registers it in
// the host's registry, as [Host.NewCounter] does a counter.
func (h *Host) NewGauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts(MetricOpts(name, help)))
	h.metrics.reg.MustRegister(g)
	return g
}

// NewGaugeFunc registers in the host's registry the gauge botarena_<name>
// with help, whose value is value() at each scrape, as [Host.NewCounter]
// does a counter. value is called from the scraping goroutine, so it must
// be safe for concurrent use.
func (h *Host) NewGaugeFunc(name, help string, value func() float64) {
	h.metrics.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts(MetricOpts(name, help)), value))
}

// newMetrics makes the metrics of h and registers them, with the Go and
// process collectors, in a new registry.
func newMetrics(h *Host) *metrics {
	f := MetricOpts
	m := &metrics{
		reg: prometheus.NewRegistry(),
		rpcDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "botarena", Name: "rpc_duration_seconds",
			Help:    "Durations of unary calls by procedure (streams are not timed).",
			Buckets: prometheus.ExponentialBuckets(100e-6, 4, 10), // 100µs .. 26s
		}, []string{"procedure"}),
		rpcErrors: prometheus.NewCounterVec(prometheus.CounterOpts(f("rpc_errors_total", "Calls and streams that failed, by procedure and Connect code.")),
			[]string{"procedure", "code"}),
		connsOpen:    prometheus.NewGauge(prometheus.GaugeOpts(f("http_connections_open", "Connections open (counted by the connection limit's listener)."))),
		connsRefused: prometheus.NewCounter(prometheus.CounterOpts(f("http_connections_refused_total", "Connections closed on accept: a connection cap (the server's or the client's) was reached and none could be closed for them."))),
		connsEvicted: prometheus.NewCounter(prometheus.CounterOpts(f("http_connections_evicted_total", "Idle connections closed to admit a new one at a connection cap."))),
	}
	m.reg.MustRegister(
		m.rpcDuration, m.rpcErrors, m.connsOpen, m.connsRefused, m.connsEvicted,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Namespace: "botarena", Name: "build_info", Help: "1, labelled with the server's version.",
			ConstLabels: prometheus.Labels{"version": h.opts.version},
		}, func() float64 { return 1 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("memory_budget_used_bytes", "Bytes of the memory budget reserved by open pools and games in progress.")), func() float64 {
			used, _ := h.budget.InUse()
			return float64(used)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("streams_open", "Streams open (StepStreams), each charged to the memory budget.")), func() float64 {
			return float64(h.budget.streamsOpen())
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("memory_budget_limit_bytes", "The memory budget in bytes (serve --max-memory).")), func() float64 {
			_, limit := h.budget.InUse()
			return float64(limit)
		}),
	)
	return m
}

// Metrics returns the host's Prometheus registry: the metrics listed in
// metrics.go and those its services register, which [Host.Handler] serves
// at /metrics. Register more collectors in it to serve them there too.
func (h *Host) Metrics() *prometheus.Registry { return h.metrics.reg }

// metricsHandler serves the registry in the Prometheus text format (or
// OpenMetrics, as the scraper asks).
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// observer is the host's interceptor: it times unary calls, counts
// errors, and logs failed calls: Internal errors are logged at Error where
// they are made ([ConnectError]), the others (the client's:
// InvalidArgument, NotFound ...) here at Debug with the procedure, the
// code and the peer. A call that fails with NotFound while the host is
// shutting down (a pool closed under it) becomes Unavailable.
type observer struct{ h *Host }

func (o observer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		start := time.Now()
		resp, err := next(ctx, req)
		proc := req.Spec().Procedure
		o.h.metrics.rpcDuration.WithLabelValues(proc).Observe(time.Since(start).Seconds())
		if err != nil {
			return resp, o.failed(proc, req.Peer(), err)
		}
		return resp, nil
	}
}

func (o observer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (o observer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		if err := next(ctx, conn); err != nil {
			return o.failed(conn.Spec().Procedure, conn.Peer(), err)
		}
		return nil
	}
}

// failed counts and logs err, a call's error, and returns the error to
// send: Unavailable instead for a NotFound of a closed host (a pool closed
// by Close under the call).
func (o observer) failed(proc string, peer connect.Peer, err error) error {
	code := connect.CodeOf(err)
	if code == connect.CodeNotFound && o.h.Closed() {
		code, err = connect.CodeUnavailable, connect.NewError(connect.CodeUnavailable, errors.New("the server is shutting down"))
	}
	o.h.metrics.rpcErrors.WithLabelValues(proc, code.String()).Inc()
	if code != connect.CodeInternal {
		msg := err.Error()
		if ce := new(connect.Error); errors.As(err, &ce) {
			msg = ce.Message()
		}
		o.h.log.Debug("call failed", "procedure", proc, "code", code.String(), "peer", peer.Addr, "err", boundText(msg, maxErrorBytes))
	}
	return err
}
