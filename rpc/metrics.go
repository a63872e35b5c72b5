package rpc

import (
	"context"
	"errors"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

// This file holds a server's Prometheus metrics, in a registry of its own
// that [Server.Handler] serves at /metrics, and the interceptor that feeds
// them and logs failed calls. Counters only count up: rates come from
// PromQL (rate(botarena_agent_steps_total[1m]) is agent-steps per second).
//
//	botarena_build_info{version}                  1, with the version of [WithVersion]
//	botarena_pools_open                           pools open (and being made)
//	botarena_envs_open                            envs of those pools
//	botarena_pools_created_total                  CreatePool calls that made a pool
//	botarena_steps_total                          batches stepped: Step calls and StepStream steps
//	botarena_env_steps_total                      envs stepped (a batch steps every env of its pool)
//	botarena_agent_steps_total                    seats stepped: envs × seats, opponents included
//	botarena_rpc_duration_seconds{procedure}      histogram of unary calls' durations (streams are not timed)
//	botarena_rpc_errors_total{procedure,code}     calls and streams that failed, by Connect code
//	botarena_match_games_in_flight                MatchService games being played
//	botarena_match_games_total                    MatchService games finished (a result or an error)
//	botarena_memory_budget_used_bytes             bytes of the memory budget reserved (see budget.go)
//	botarena_memory_budget_limit_bytes            the memory budget
//	botarena_http_connections_open                connections open, with [Server.LimitListener]
//	botarena_http_connections_refused_total       connections closed at once: the cap was reached, none idle
//	botarena_http_connections_evicted_total       idle connections closed to admit a new one at the cap
//	go_*, process_*                               the Go runtime's and the process's collectors (process_open_fds ...)

// metrics are a server's Prometheus metrics.
type metrics struct {
	reg *prometheus.Registry

	poolsCreated prometheus.Counter
	steps        prometheus.Counter
	envSteps     prometheus.Counter
	agentSteps   prometheus.Counter
	rpcDuration  *prometheus.HistogramVec
	rpcErrors    *prometheus.CounterVec
	matchGames   prometheus.Gauge
	matchPlayed  prometheus.Counter
	connsOpen    prometheus.Gauge
	connsRefused prometheus.Counter
	connsEvicted prometheus.Counter
}

// memoryBudget is what the memory budget (budget.go) offers the metrics.
type memoryBudget interface {
	MemoryInUse() (used, limit int64)
}

// newMetrics makes the metrics of s and registers them, with the Go and
// process collectors, in a new registry.
func newMetrics(s *Server) *metrics {
	f := func(name, help string) prometheus.Opts {
		return prometheus.Opts{Namespace: "botarena", Name: name, Help: help}
	}
	m := &metrics{
		reg:          prometheus.NewRegistry(),
		poolsCreated: prometheus.NewCounter(prometheus.CounterOpts(f("pools_created_total", "Pools made by CreatePool."))),
		steps:        prometheus.NewCounter(prometheus.CounterOpts(f("steps_total", "Batches stepped: Step calls and StepStream steps."))),
		envSteps:     prometheus.NewCounter(prometheus.CounterOpts(f("env_steps_total", "Envs stepped: each batch steps every env of its pool."))),
		agentSteps:   prometheus.NewCounter(prometheus.CounterOpts(f("agent_steps_total", "Seats stepped: envs stepped times the game's seats, opponents included."))),
		rpcDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "botarena", Name: "rpc_duration_seconds",
			Help:    "Durations of unary calls by procedure (streams are not timed).",
			Buckets: prometheus.ExponentialBuckets(100e-6, 4, 10), // 100µs .. 26s
		}, []string{"procedure"}),
		rpcErrors: prometheus.NewCounterVec(prometheus.CounterOpts(f("rpc_errors_total", "Calls and streams that failed, by procedure and Connect code.")),
			[]string{"procedure", "code"}),
		matchGames:   prometheus.NewGauge(prometheus.GaugeOpts(f("match_games_in_flight", "MatchService games being played."))),
		matchPlayed:  prometheus.NewCounter(prometheus.CounterOpts(f("match_games_total", "MatchService games finished, with a result or an error."))),
		connsOpen:    prometheus.NewGauge(prometheus.GaugeOpts(f("http_connections_open", "Connections open (counted by the connection limit's listener)."))),
		connsRefused: prometheus.NewCounter(prometheus.CounterOpts(f("http_connections_refused_total", "Connections closed on accept: the connection cap was reached and none was idle."))),
		connsEvicted: prometheus.NewCounter(prometheus.CounterOpts(f("http_connections_evicted_total", "Idle connections closed to admit a new one at the connection cap."))),
	}
	m.reg.MustRegister(
		m.poolsCreated, m.steps, m.envSteps, m.agentSteps, m.rpcDuration, m.rpcErrors,
		m.matchGames, m.matchPlayed, m.connsOpen, m.connsRefused, m.connsEvicted,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Namespace: "botarena", Name: "build_info", Help: "1, labelled with the server's version.",
			ConstLabels: prometheus.Labels{"version": s.opts.version},
		}, func() float64 { return 1 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("pools_open", "Pools open, and pools being made.")), func() float64 {
			s.mu.Lock()
			defer s.mu.Unlock()
			return float64(s.poolsSlots)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("envs_open", "Envs of the pools open and being made.")), func() float64 {
			s.mu.Lock()
			defer s.mu.Unlock()
			return float64(s.totalEnvs)
		}),
	)
	// The memory budget, once the server has one.
	if b, ok := any(s).(memoryBudget); ok {
		m.reg.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("memory_budget_used_bytes", "Bytes of the memory budget reserved by open pools and games in progress.")), func() float64 {
				used, _ := b.MemoryInUse()
				return float64(used)
			}),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts(f("memory_budget_limit_bytes", "The memory budget in bytes (serve --max-memory).")), func() float64 {
				_, limit := b.MemoryInUse()
				return float64(limit)
			}),
		)
	}
	return m
}

// Metrics returns the server's Prometheus registry: the metrics listed in
// metrics.go, which [Server.Handler] serves at /metrics. Register more
// collectors in it to serve them there too.
func (s *Server) Metrics() *prometheus.Registry { return s.metrics.reg }

// metricsHandler serves the registry in the Prometheus text format (or
// OpenMetrics, as the scraper asks).
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// gamesStarted counts n MatchService games in flight, gameFinished one
// of them finished (with a result or an error), and gamesDropped n of them
// ended unplayed (the rest of a batch that stopped early).
func (m *metrics) gamesStarted(n int) { m.matchGames.Add(float64(n)) }
func (m *metrics) gameFinished() {
	m.matchGames.Dec()
	m.matchPlayed.Inc()
}
func (m *metrics) gamesDropped(n int) { m.matchGames.Sub(float64(n)) }

// countSteps counts one batch of pool id, if it is open.
func (s *Server) countSteps(id string) {
	s.mu.Lock()
	p := s.pools[id]
	s.mu.Unlock()
	if p != nil {
		s.metrics.countBatch(p.numEnvs, p.spec.Seats)
	}
}

func (m *metrics) countBatch(envs, seats int) {
	m.steps.Inc()
	m.envSteps.Add(float64(envs))
	m.agentSteps.Add(float64(envs * seats))
}

// observer is the server's interceptor: it times unary calls, counts
// steps, pools and errors, and logs failed calls: Internal errors are
// logged at Error where they are made ([connectError]), the others (the
// client's: InvalidArgument, NotFound ...) here at Debug with the
// procedure, the code and the peer. A call that fails with NotFound while
// the server is shutting down (a pool closed under it) becomes
// Unavailable, and so does a stream that ends with an error because the
// shutdown closed it (see [Server.Close]).
type observer struct{ s *Server }

func (o observer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		start := time.Now()
		resp, err := next(ctx, req)
		proc := req.Spec().Procedure
		o.s.metrics.rpcDuration.WithLabelValues(proc).Observe(time.Since(start).Seconds())
		if err != nil {
			return resp, o.failed(proc, req.Peer(), err, false)
		}
		switch r := req.Any().(type) {
		case *botarenav1.StepRequest:
			o.s.countSteps(r.GetPoolId())
		case *botarenav1.CreatePoolRequest:
			o.s.metrics.poolsCreated.Inc()
		}
		return resp, nil
	}
}

func (o observer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (o observer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		proc := conn.Spec().Procedure
		if proc == botarenav1connect.EnvServiceStepStreamProcedure {
			conn = &stepStreamConn{StreamingHandlerConn: conn, s: o.s}
		}
		err := next(ctx, conn)
		if err != nil {
			return o.failed(proc, conn.Peer(), err, stoppedStream(ctx))
		}
		return nil
	}
}

// failed counts and logs err, a call's error, and returns the error to
// send: Unavailable instead for a stream that Close ended (stopped), and for
// a NotFound of a closed server (a pool closed by Close under the call).
func (o observer) failed(proc string, peer connect.Peer, err error, stopped bool) error {
	code := connect.CodeOf(err)
	if code != connect.CodeUnavailable && (stopped || code == connect.CodeNotFound && o.s.isClosed()) {
		code, err = connect.CodeUnavailable, connect.NewError(connect.CodeUnavailable, errors.New("the server is shutting down"))
	}
	o.s.metrics.rpcErrors.WithLabelValues(proc, code.String()).Inc()
	if code != connect.CodeInternal {
		msg := err.Error()
		if ce := new(connect.Error); errors.As(err, &ce) {
			msg = ce.Message()
		}
		o.s.log.Debug("call failed", "procedure", proc, "code", code.String(), "peer", peer.Addr, "err", boundText(msg, maxErrorBytes))
	}
	return err
}

// stepStreamConn counts the steps of a StepStream: a response sent after a
// request that was not a reset is a batch of the stream's pool.
type stepStreamConn struct {
	connect.StreamingHandlerConn
	s           *Server
	pool        string
	envs, seats int // of pool, once looked up
	step        bool
}

func (c *stepStreamConn) Receive(msg any) error {
	err := c.StreamingHandlerConn.Receive(msg)
	if err == nil {
		if r, ok := msg.(*botarenav1.StepStreamRequest); ok {
			if c.pool == "" {
				c.pool = r.GetPoolId()
			}
			c.step = !r.GetReset_()
		}
	}
	return err
}

func (c *stepStreamConn) Send(msg any) error {
	err := c.StreamingHandlerConn.Send(msg)
	if err == nil && c.step {
		if c.envs == 0 {
			c.s.mu.Lock()
			if p := c.s.pools[c.pool]; p != nil {
				c.envs, c.seats = p.numEnvs, p.spec.Seats
			}
			c.s.mu.Unlock()
		}
		if c.envs > 0 {
			c.s.metrics.countBatch(c.envs, c.seats)
		}
	}
	return err
}
