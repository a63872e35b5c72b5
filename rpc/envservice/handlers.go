package envservice

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

// ListGames lists every game of the registry with the spec of its default
// config (made from one env), the agents that can play it with their
// summaries, its reference bot and training defaults (its kit), its
// default config as JSON and the fields of its config (see
// [env.ConfigSchema]), and the server's version (server.WithVersion).
func (s *Server) ListGames(ctx context.Context, _ *botarenav1.ListGamesRequest) (*botarenav1.ListGamesResponse, error) {
	resp := &botarenav1.ListGamesResponse{ServerVersion: s.host.Version()}
	for _, name := range s.host.Registry().Names() {
		info, err := envproto.GameInfo(s.host.Registry(), name)
		if err != nil {
			return nil, server.ConnectError(s.log, botarenav1connect.EnvServiceListGamesProcedure, err)
		}
		resp.Games = append(resp.Games, info)
	}
	return resp, nil
}

// CreatePool makes a pool after checking the request and the server limits:
// the game and the opponents' agents must exist (NotFound), the config,
// learner seats, opponents, workers and batch size must be valid
// (InvalidArgument), and
// the pool must fit MaxEnvsPerPool, MaxPools and MaxTotalEnvs
// (ResourceExhausted). Workers is capped at the server's MaxWorkers; 0 means
// MaxWorkers. An absent seed is drawn at random and returned.
func (s *Server) CreatePool(ctx context.Context, req *botarenav1.CreatePoolRequest) (*botarenav1.CreatePoolResponse, error) {
	resp, err := s.createPool(ctx, req)
	return resp, server.ConnectError(s.log, botarenav1connect.EnvServiceCreatePoolProcedure, err)
}

func (s *Server) createPool(ctx context.Context, req *botarenav1.CreatePoolRequest) (*botarenav1.CreatePoolResponse, error) {
	cfg, err := s.poolConfig(req)
	if err != nil {
		return nil, err
	}
	batchSize := int(req.GetBatchSize()) // checked by poolConfig
	zstd := req.GetCompression() == botarenav1.Compression_COMPRESSION_ZSTD
	// The memory budget (budget.go): the pool's cost, before anything of
	// it is allocated.
	cost, err := s.poolCost(cfg, zstd, req.GetSharedPlanes(), batchSize)
	if err != nil {
		return nil, err
	}
	if err := s.reserve(cfg.NumEnvs); err != nil {
		return nil, err
	}
	mem, err := s.host.Budget().Reserve(server.ClientKey(ctx), "pool", poolDetail(cfg, cost), cost.total(), true)
	if err != nil {
		s.release(cfg.NumEnvs)
		return nil, err
	}
	p, err := vecenv.New(cfg)
	if err != nil {
		mem.Release()
		s.release(cfg.NumEnvs)
		return nil, err
	}
	// The shared form when asked for and when it saves something: some
	// channels are shared and an env has more than one learner row.
	shared := req.GetSharedPlanes() && observations.HasShared(p.Spec()) && len(p.LearnerSeats()) > 1
	schemaMessage := observations.SchemaMessage
	if shared {
		schemaMessage = observations.SharedSchemaMessage
	}
	schema, err := schemaMessage(p.Spec())
	if err != nil {
		p.Close()
		mem.Release()
		s.release(cfg.NumEnvs)
		return nil, err
	}
	sp, err := newServedPool(newID(), req.GetGame(), p, zstd, shared, batchSize)
	if err != nil {
		p.Close()
		mem.Release()
		s.release(cfg.NumEnvs)
		return nil, err
	}
	sp.mem = mem // released when the pool is closed
	if err := s.add(sp); err != nil {
		sp.close("the server shut down")
		s.release(cfg.NumEnvs)
		return nil, err
	}
	learners := make([]int32, 0, len(p.LearnerSeats()))
	for _, seat := range p.LearnerSeats() {
		learners = append(learners, int32(seat))
	}
	mode := envproto.AutoReset(p.AutoReset())
	s.log.Info("pool created", "pool", sp.id, "game", sp.game, "envs", sp.numEnvs, "rows", sp.rows,
		"learner_seats", learners, "workers", p.Workers(), "autoreset", p.AutoReset().String(),
		"zstd", zstd, "shared_planes", shared, "batch_size", batchSize, "seed", cfg.Seed)
	return &botarenav1.CreatePoolResponse{
		PoolId:       sp.id,
		Spec:         envproto.GameSpec(p.Spec()),
		ArrowSchema:  schema,
		Seed:         cfg.Seed,
		NumEnvs:      int32(sp.numEnvs),
		Rows:         int32(sp.rows),
		LearnerSeats: learners,
		AutoReset:    mode,
		Workers:      int32(p.Workers()),
		SharedPlanes: shared,
		BatchSize:    int32(batchSize),
		Opponents:    envproto.Opponents(cfg.OpponentNames),
	}, nil
}

// poolConfig checks req and turns it into a vecenv config: the checks of
// every face (envproto.PoolConfig), with this server's registry, agents
// and worker cap, then the server's message limit.
func (s *Server) poolConfig(req *botarenav1.CreatePoolRequest) (vecenv.Config, error) {
	p, err := envproto.PoolConfig(req, envproto.PoolOptions{
		Registry: s.host.Registry(), Opponent: s.opponentFactory, MaxWorkers: s.opts.maxWorkers,
	})
	if errors.Is(err, envproto.ErrInvalid) {
		return vecenv.Config{}, server.Mark(server.ErrInvalid, err)
	}
	if err != nil {
		return vecenv.Config{}, err
	}
	if req.GetCompression() != botarenav1.Compression_COMPRESSION_ZSTD {
		batchEnvs := p.BatchSize // the envs of a batch
		if batchEnvs == 0 {
			batchEnvs = p.Config.NumEnvs
		}
		learners := len(p.Config.LearnerSeats)
		if learners == 0 {
			learners = p.Spec.Seats
		}
		rows := int64(batchEnvs) * int64(learners)
		// The body of a batch: observations, mask, reward, three int32 ids
		// and two bitmaps; the header is small.
		size := rows*int64(p.Spec.ObsBytes()+p.Spec.Actions+4+3*4) + 2*(rows+7)/8
		if size > int64(s.host.MaxMessageBytes()) {
			return vecenv.Config{}, server.Markf(server.ErrLimit, "num_envs: a batch of %d envs × %d learner seats is about %.1f MiB, over the server's message limit of %.1f MiB; use fewer envs (or a smaller batch_size), COMPRESSION_ZSTD, or a server with a higher limit (serve --max-message-bytes)",
				batchEnvs, learners, float64(size)/(1<<20), float64(s.host.MaxMessageBytes())/(1<<20))
		}
	}
	return p.Config, nil
}

// Reset starts a new episode in every env of the pool and returns the first
// batch. The batch bytes are the pool's recycled buffer, handed back once
// the response is written (see Server.Handler).
func (s *Server) Reset(ctx context.Context, req *botarenav1.ResetRequest) (*botarenav1.ResetResponse, error) {
	return onBatch(s, ctx, botarenav1connect.EnvServiceResetProcedure, req.GetPoolId(),
		func(p *servedPool, b *batchBuf) error { return p.reset(b) },
		func(b *batchBuf) *botarenav1.ResetResponse { return &botarenav1.ResetResponse{Batch: b.batch} })
}

// Step applies one action per row (little-endian int32s, 4 × rows bytes)
// and returns the batch, the ended flags and, in SAME_STEP mode when a row
// ended, the final batch. A wrong byte count or an action outside
// 0..actions-1 is InvalidArgument naming the row; a Step before the first
// Reset is FailedPrecondition.
func (s *Server) Step(ctx context.Context, req *botarenav1.StepRequest) (*botarenav1.StepResponse, error) {
	return onBatch(s, ctx, botarenav1connect.EnvServiceStepProcedure, req.GetPoolId(),
		func(p *servedPool, b *batchBuf) error { return p.step(req.GetActions(), b) },
		func(b *batchBuf) *botarenav1.StepResponse {
			return &botarenav1.StepResponse{Batch: b.batch, Ended: b.ended, FinalBatch: b.final}
		})
}

// AsyncReset starts a new episode in every env of an async pool in the
// background (see vecenv.Async.Reset); the next Recv calls return the
// first observations. On a synchronous pool it is FailedPrecondition.
func (s *Server) AsyncReset(ctx context.Context, req *botarenav1.AsyncResetRequest) (*botarenav1.AsyncResetResponse, error) {
	return onPool(s, botarenav1connect.EnvServiceAsyncResetProcedure, req.GetPoolId(), func(p *servedPool) (*botarenav1.AsyncResetResponse, error) {
		return &botarenav1.AsyncResetResponse{}, p.asyncReset()
	})
}

// Send queues envs of an async pool (little-endian int32 env ids) with
// their actions (little-endian int32s, one per learner row of those envs)
// and returns without waiting for their step (see vecenv.Async.Send). A
// byte count that does not fit, more env ids than num_envs, an env out of
// range, in flight or named twice, or an action outside 0..actions-1 is
// InvalidArgument; a Send before the first AsyncReset, or on a
// synchronous pool, is FailedPrecondition.
func (s *Server) Send(ctx context.Context, req *botarenav1.SendRequest) (*botarenav1.SendResponse, error) {
	return onPool(s, botarenav1connect.EnvServiceSendProcedure, req.GetPoolId(), func(p *servedPool) (*botarenav1.SendResponse, error) {
		return &botarenav1.SendResponse{}, p.send(req.GetEnvIds(), req.GetActions())
	})
}

// Recv waits for the next batch of an async pool (see vecenv.Async.Recv)
// and returns it as Step returns a batch: batch_size × len(learner_seats)
// rows, their ended flags and, in SAME_STEP mode when a row ended, the
// final batch. With fewer than batch_size envs in flight, before the first
// AsyncReset, or on a synchronous pool it is FailedPrecondition. A request
// with env_ids or actions is a Send first, with Send's checks and errors;
// when the Send fails nothing is received. The batch bytes are the pool's
// recycled buffer, as Step's.
func (s *Server) Recv(ctx context.Context, req *botarenav1.RecvRequest) (*botarenav1.RecvResponse, error) {
	return onBatch(s, ctx, botarenav1connect.EnvServiceRecvProcedure, req.GetPoolId(),
		func(p *servedPool, b *batchBuf) error {
			if len(req.GetEnvIds()) > 0 || len(req.GetActions()) > 0 {
				if err := p.send(req.GetEnvIds(), req.GetActions()); err != nil {
					return err
				}
			}
			return p.recv(b)
		},
		func(b *batchBuf) *botarenav1.RecvResponse {
			return &botarenav1.RecvResponse{Batch: b.batch, Ended: b.ended, FinalBatch: b.final}
		})
}

// onPool runs call on the pool named id and returns its response. An
// unknown id, and an error of call (through [Server.poolError]), are
// mapped to Connect errors of proc; the response of a call that failed is
// dropped.
func onPool[R any](s *Server, proc, id string, call func(*servedPool) (*R, error)) (*R, error) {
	p, err := s.lookup(id)
	if err != nil {
		return nil, server.ConnectError(s.log, proc, err)
	}
	resp, err := call(p)
	if err != nil {
		return nil, s.poolError(proc, p, err)
	}
	return resp, nil
}

// onBatch is [onPool] for a call that returns a batch: fill writes it into
// one of the pool's buffers, which goes back at once if fill fails and
// otherwise once the response, made by wrap from the buffer, is written
// (see [Server.respond]).
func onBatch[R any](s *Server, ctx context.Context, proc, id string, fill func(*servedPool, *batchBuf) error, wrap func(*batchBuf) *R) (*R, error) {
	return onPool(s, proc, id, func(p *servedPool) (*R, error) {
		b := p.getBuf()
		if err := fill(p, b); err != nil {
			p.putBuf(b)
			return nil, err
		}
		resp := wrap(b)
		s.respond(ctx, p, b, resp)
		return resp, nil
	})
}

// respond arranges for the unary response resp, whose fields are slices of
// b, to be marshalled as b's wire form by the service's codec and for b to
// go back to p once the response is written. Without the recycling
// middleware (the generated handler mounted directly) it does neither: the
// response is marshalled as usual and b is left to the garbage collector.
func (s *Server) respond(ctx context.Context, p *servedPool, b *batchBuf, resp any) {
	if onWritten(ctx, func() {
		s.codec.forget(resp)
		p.putBuf(b)
	}) {
		s.codec.register(resp, b.wire)
	}
}

// poolError maps an error of a call on p; after a panic of the pool's envs
// it closes the pool, which is then in an undefined state.
func (s *Server) poolError(proc string, p *servedPool, err error) error {
	var pe errPanic
	if errors.As(err, &pe) {
		s.log.Error("panic in pool", "procedure", proc, "pool", p.id, "game", p.game, "panic", pe.value)
		s.closePool(p.id, "closed after an internal error (details in the server log)", "pool closed after a panic")
	}
	return server.ConnectError(s.log, proc, err)
}

// StepStream serves Reset and Step requests on one stream, one response per
// request, in order. It is served over HTTP/2 (Connect, gRPC, gRPC-Web)
// and, for the Connect protocol, over HTTP/1.1 too, full duplex (see
// [Server.Handler]). The first request must name a pool; a later one may
// leave pool_id empty or repeat it (another id is InvalidArgument). An error
// ends the stream with its code, like the unary calls. When the client
// closes its side the stream ends normally; when it goes away the handler
// just returns. Either way the pool stays open until ClosePool or the idle
// timeout.
//
// A stream is admitted by the host (server.Host.OpenStream: the
// connection's and the client's stream limits, and its share of the memory
// budget), or ends at once with ResourceExhausted. It may wait for its
// client ([WithStreamIdleTimeout]) for as long as the stream idle timeout,
// from when it opens or sent its last response until the next request
// arrives: past it the stream ends with DeadlineExceeded. Between requests
// it holds no batch: each response is built in one of its pool's buffers
// (charged to the pool) and the buffer goes back once sent.
func (s *Server) StepStream(ctx context.Context, stream *connect.BidiStream[botarenav1.StepStreamRequest, botarenav1.StepStreamResponse]) error {
	const proc = botarenav1connect.EnvServiceStepStreamProcedure
	admitted, err := s.host.OpenStream(ctx)
	if err != nil {
		return server.ConnectError(s.log, proc, err)
	}
	defer admitted.Close()
	body := streamBodyOf(ctx)
	if body != nil {
		body.startIdle()
		defer body.stopIdle()
	}
	var p *servedPool
	resp := &botarenav1.StepStreamResponse{}
	for {
		req, err := stream.Receive()
		if body != nil {
			body.pauseIdle()
			if err != nil && body.idled.Load() {
				return s.streamIdleError()
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil && !stoppedStream(ctx) {
				// The client went away. (Over HTTP/1.1 the read that
				// Close interrupted cancels ctx too: counter sends
				// that stream Unavailable.)
				return nil
			}
			return err
		}
		if p == nil {
			if req.GetPoolId() == "" {
				return server.ConnectError(s.log, proc, server.Invalidf("pool_id: the first request of a stream must name the pool"))
			}
			if p, err = s.lookup(req.GetPoolId()); err != nil {
				return server.ConnectError(s.log, proc, err)
			}
		} else if id := req.GetPoolId(); id != "" && id != p.id {
			return server.ConnectError(s.log, proc, server.Invalidf("pool_id: got %q, but this stream serves pool %q", server.Clip(id), p.id))
		}
		b := p.getBuf() // Send writes before it returns: the buffer goes back after it
		if req.GetReset_() {
			err = p.reset(b)
		} else {
			err = p.step(req.GetActions(), b)
		}
		if err != nil {
			p.putBuf(b)
			return s.poolError(proc, p, err)
		}
		resp.Batch, resp.Ended, resp.FinalBatch = b.batch, b.ended, b.final
		s.codec.register(resp, b.wire)
		if body != nil {
			body.resumeIdle()
		}
		err = stream.Send(resp)
		s.codec.forget(resp)
		resp.Batch, resp.Ended, resp.FinalBatch = nil, nil, nil
		p.putBuf(b)
		if err != nil {
			if body != nil && body.idled.Load() {
				return s.streamIdleError()
			}
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// streamIdleError is the error of a StepStream that waited for its client
// longer than the stream idle timeout.
func (s *Server) streamIdleError() error {
	return connect.NewError(connect.CodeDeadlineExceeded, fmt.Errorf(
		"StepStream: waited %v for the client (the stream idle timeout, serve --stream-idle-timeout); send the next request sooner, or open a stream when you need one", s.opts.streamIdle))
}

// Render returns env's state in one of the game's native formats as seat
// sees it (-1: the full state), or its picture as RGB pixels with format
// "rgb_array"; an empty format means the first text format.
func (s *Server) Render(ctx context.Context, req *botarenav1.RenderRequest) (*botarenav1.RenderResponse, error) {
	return onPool(s, botarenav1connect.EnvServiceRenderProcedure, req.GetPoolId(), func(p *servedPool) (*botarenav1.RenderResponse, error) {
		return p.render(int(req.GetEnv()), int(req.GetSeat()), req.GetFormat())
	})
}

// Stats returns the pool's episode statistics per learner seat and its
// number of Step calls; with reset set it clears the statistics after
// reading them (the Step count keeps counting).
func (s *Server) Stats(ctx context.Context, req *botarenav1.StatsRequest) (*botarenav1.StatsResponse, error) {
	return onPool(s, botarenav1connect.EnvServiceStatsProcedure, req.GetPoolId(), func(p *servedPool) (*botarenav1.StatsResponse, error) {
		st, steps, err := p.stats(req.GetReset_())
		if err != nil {
			return nil, err
		}
		return envproto.Stats(st, steps), nil
	})
}

// ClosePool closes the pool, waiting for a call running on it, and frees
// its envs. An unknown or already closed pool is NotFound.
func (s *Server) ClosePool(ctx context.Context, req *botarenav1.ClosePoolRequest) (*botarenav1.ClosePoolResponse, error) {
	const proc = botarenav1connect.EnvServiceClosePoolProcedure
	id := req.GetPoolId()
	if _, err := s.lookup(id); err != nil {
		return nil, server.ConnectError(s.log, proc, err)
	}
	if !s.closePool(id, "closed by ClosePool", "pool closed") {
		_, err := s.lookup(id) // closed meanwhile: say how
		return nil, server.ConnectError(s.log, proc, err)
	}
	return &botarenav1.ClosePoolResponse{}, nil
}

// opponentFactory checks that the agent spec name can play game on this
// server and returns its factory; field names the request field in errors.
// An unknown agent is NotFound, the console agent InvalidArgument, and an
// external bot or policy file PermissionDenied unless the server allows
// it (WithAgentCapabilities).
func (s *Server) opponentFactory(game, field, name string) (env.AgentFactory, error) {
	if name == "console" {
		// It would wait for input at the server's terminal.
		return nil, server.Invalidf("%s: the console agent plays at botarena's own terminal (botarena play), not in served pools", field)
	}
	if !agents.Known(game, name) {
		return nil, fmt.Errorf("%s: %w %q for %s (valid: %s)",
			field, agents.ErrUnknownAgent, server.Clip(name), game, strings.Join(append(agents.Names(game), agents.Schemes(game)...), ", "))
	}
	made, err := s.host.AllowAgent(game, field, name) // capabilities.go
	if err != nil {
		return nil, err
	}
	return func(spec *env.Spec) (env.Agent, error) {
		a, err := agents.New(game, made, spec)
		if err != nil && !errors.Is(err, agents.ErrUnknownAgent) {
			// The agent exists but cannot play this game or config.
			// The error names what it read by the client's path, not the server's.
			return nil, server.Invalidf("agent %q: %w", server.Clip(name), s.host.HidePaths(err))
		}
		return a, err
	}, nil
}

// SetOpponents replaces the mixtures of the listed opponent seats (see
// vecenv.Pool.SetOpponents). Every seat and choice is checked before
// anything changes: an unknown agent is NotFound, an external bot or
// policy file the server does not allow PermissionDenied, and
// a learner or invalid seat, an empty mixture, a repeated name, a negative
// or non-finite weight or weights without a positive sum InvalidArgument.
// The seats are then set in seat order; an agent that cannot be made for
// the pool's config (InvalidArgument) stops there, leaving the seats
// before it set.
func (s *Server) SetOpponents(ctx context.Context, req *botarenav1.SetOpponentsRequest) (*botarenav1.SetOpponentsResponse, error) {
	return onPool(s, botarenav1connect.EnvServiceSetOpponentsProcedure, req.GetPoolId(), func(p *servedPool) (*botarenav1.SetOpponentsResponse, error) {
		mixes, err := s.opponentMixes(p, req.GetOpponents())
		if err != nil {
			return nil, err
		}
		return &botarenav1.SetOpponentsResponse{}, p.setOpponents(mixes)
	})
}

// opponentMixes checks a SetOpponents request's mixtures for pool p
// (envproto.Mixtures, with this server's agents).
func (s *Server) opponentMixes(p *servedPool, req map[int32]*botarenav1.OpponentMix) ([]envproto.Mixture, error) {
	mixes, err := envproto.Mixtures(req, p.game, p.id, p.spec.Seats, p.learners, envproto.PoolOptions{Opponent: s.opponentFactory, Clip: server.Clip})
	if errors.Is(err, envproto.ErrInvalid) {
		return nil, server.Mark(server.ErrInvalid, err)
	}
	return mixes, err
}
