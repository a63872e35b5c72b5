package envservice

import (
	"context"
	"errors"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

// This file holds the service's Prometheus metrics, registered in its
// host's registry (see package server's metrics.go for the host's own:
// call durations and errors, connections, the memory budget), and the
// interceptor that feeds them. Counters only count up: rates come from
// PromQL (rate(botarena_agent_steps_total[1m]) is agent-steps per second).
//
//	botarena_pools_open                           pools open (and being made)
//	botarena_envs_open                            envs of those pools
//	botarena_pools_created_total                  CreatePool calls that made a pool
//	botarena_steps_total                          batches stepped: Step calls, StepStream steps and async Send calls
//	botarena_env_steps_total                      envs stepped (a batch steps every env of its pool, a Send its envs)
//	botarena_agent_steps_total                    seats stepped: envs × seats, opponents included

// metrics are the service's Prometheus metrics.
type metrics struct {
	poolsCreated prometheus.Counter
	steps        prometheus.Counter
	envSteps     prometheus.Counter
	agentSteps   prometheus.Counter
}

// newMetrics makes the metrics of s and registers them in its host's
// registry.
func newMetrics(s *Server) *metrics {
	h := s.host
	m := &metrics{
		poolsCreated: h.NewCounter("pools_created_total", "Pools made by CreatePool."),
		steps:        h.NewCounter("steps_total", "Batches stepped: Step calls, StepStream steps and async Send calls."),
		envSteps:     h.NewCounter("env_steps_total", "Envs stepped: each batch steps every env of its pool, each Send its envs."),
		agentSteps:   h.NewCounter("agent_steps_total", "Seats stepped: envs stepped times the game's seats, opponents included."),
	}
	h.NewGaugeFunc("pools_open", "Pools open, and pools being made.", func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(s.poolsSlots)
	})
	h.NewGaugeFunc("envs_open", "Envs of the pools open and being made.", func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(s.totalEnvs)
	})
	return m
}

// countSteps counts one batch of envs envs of pool id (-1: all its envs),
// if it is open.
func (s *Server) countSteps(id string, envs int) {
	s.mu.Lock()
	p := s.pools[id]
	s.mu.Unlock()
	if p != nil {
		if envs < 0 {
			envs = p.numEnvs
		}
		s.metrics.countBatch(envs, p.spec.Seats)
	}
}

func (m *metrics) countBatch(envs, seats int) {
	m.steps.Inc()
	m.envSteps.Add(float64(envs))
	m.agentSteps.Add(float64(envs * seats))
}

// counter is the service's interceptor, inside the host's: it counts
// steps and pools, and ends a stream that [Server.Close] stopped with
// Unavailable rather than the error its closed body gave.
type counter struct{ s *Server }

func (c counter) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		resp, err := next(ctx, req)
		if err != nil {
			return resp, err
		}
		switch r := req.Any().(type) {
		case *botarenav1.StepRequest:
			c.s.countSteps(r.GetPoolId(), -1)
		case *botarenav1.SendRequest:
			c.s.countSteps(r.GetPoolId(), len(r.GetEnvIds())/4)
		case *botarenav1.CreatePoolRequest:
			c.s.metrics.poolsCreated.Inc()
		}
		return resp, nil
	}
}

func (c counter) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (c counter) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		if conn.Spec().Procedure == botarenav1connect.EnvServiceStepStreamProcedure {
			conn = &stepStreamConn{StreamingHandlerConn: conn, s: c.s}
		}
		err := next(ctx, conn)
		if err != nil && connect.CodeOf(err) != connect.CodeUnavailable && stoppedStream(ctx) {
			err = connect.NewError(connect.CodeUnavailable, errors.New("the server is shutting down"))
		}
		return err
	}
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
