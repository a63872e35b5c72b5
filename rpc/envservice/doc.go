// Package envservice serves pools of envs over Connect: the
// botarena.v1.EnvService of rpc/proto/botarena/v1/env.proto (its comments
// are the wire contract). It is one service of a [server.Host], which
// holds what the services share (the message limit, the memory budget,
// the agent capabilities, metrics, the error table); package client is
// its Go client. It imports env, vecenv, observations and agents, never
// league or what league stores with (bbolt, Parquet).
//
// # Server
//
// A [Server] holds pools ([vecenv.Pool]) keyed by random ids ("p-" and 24
// hex digits). CreatePool validates the request, checks the limits, makes
// the pool and its Arrow encoder (zstd when asked; the shared form of
// observations.WithShared when shared_planes is asked and saves something),
// and returns the spec and the Arrow schema message; Reset and Step return one Arrow IPC record-batch
// message per call, one row per learner seat of every env (row = env ×
// len(learner_seats) + k). Step takes the actions as little-endian int32
// bytes, one per row, parsed into a reused slice; it returns the ended flags
// as one byte per row and, in SAME_STEP mode when a row ended, a final batch
// whose observation columns hold the final observations (its other columns,
// mask included, are the step's batch). StepStream is Reset and Step on one
// bidirectional stream: over HTTP/2 in every protocol, and in the Connect
// protocol over HTTP/1.1 too, full duplex (chunked request and response
// bodies, which connect-go alone refuses; see [Server.Handler]). Python's
// client streams over HTTP/1.1: Go's HTTP/2 server copies every DATA frame
// of a batch, its HTTP/1.1 server writes the batch as the pool holds it.
// SetOpponents replaces the weighted opponent
// mixtures of a pool's opponent seats between steps (self-play against a
// changing population; see vecenv.Pool.SetOpponents), and Stats reports
// the results per learner seat and per opponent. Render, ClosePool and
// ListGames complete the service.
//
// A pool made with a batch_size steps asynchronously, as EnvPool's
// send/recv, over a [vecenv.Async]: AsyncReset resets every env in the
// background, Send queues some envs with their actions (little-endian
// int32 env ids and actions, parsed into reused slices) and returns at
// once, and Recv waits for the next batch of batch_size envs and returns
// it as Step returns its batch (the same encoder, wire form and recycled
// buffers; the env column names each row's env). The rows are the Async's
// batch, byte for byte: with one worker in send order, and every env's
// trajectory the one a synchronous pool gives it for the same actions.
// An async pool refuses Reset, Step and StepStream, a synchronous one
// AsyncReset, Send and Recv; Render, Stats and SetOpponents wait for the
// envs in flight first.
//
//	h := server.New(server.WithLogger(log))
//	s := envservice.New(h)
//	defer h.Close() // closes s
//	hs := server.NewHTTPServer("127.0.0.1:50051", h.Handler(s))
//	hs.ListenAndServe()
//
// The host's Handler serves EnvService with Connect, gRPC and gRPC-Web,
// with the gRPC health service, server reflection and /metrics on one path
// tree; server.NewHTTPServer serves it over HTTP/1.1 and h2c. `botarena
// serve` adds matchservice and the web viewer on the same port, with
// flags, logging and graceful shutdown.
//
// # Concurrency
//
// A Server is safe for concurrent use. Each pool has a mutex: calls on one
// pool (unary and stream alike) run one at a time, calls on different pools
// in parallel, each pool stepping on its own worker goroutines (at most
// [WithMaxWorkers]). The pool registry has its own short-held lock.
//
// # Buffers and aliasing
//
// A batch response is encoded in its protobuf wire form into a buffer owned
// by the pool: the Arrow message straight after its field header (one copy
// of the pool's buffers, the only one on the server), at an 8-aligned
// offset so that clients read its columns in place (rpc/internal/wire).
// The service's codec hands that buffer to Connect as the marshalled
// response, which Connect writes without copying it again or allocating
// (codec.go). The buffer must not be overwritten before Connect has written
// the response, which happens after the handler returned and released the
// pool's lock, so a unary response's buffer goes back to its pool only once
// the response has been written (see recycle.go); a stream reuses one
// buffer, since Send writes before it returns. After warm-up a served step
// allocates nothing of the batch's size (TestServedStepDoesNotAllocateTheBatch).
// Responses are never compressed by the transport: compression is Arrow's
// zstd, per pool.
//
// # Limits and defaults
//
//	MaxEnvsPerPool   65536     WithMaxEnvsPerPool,  serve --max-envs-per-pool
//	MaxPools         64        WithMaxPools,        serve --max-pools
//	MaxTotalEnvs     262144    WithMaxTotalEnvs,    serve --max-total-envs
//	IdleTimeout      10 min    WithIdleTimeout,     serve --idle-timeout
//	MaxWorkers       GOMAXPROCS WithMaxWorkers,     serve --max-workers
//	StreamIdleTimeout 2 min    WithStreamIdleTimeout, serve --stream-idle-timeout
//
// CreatePool also rejects a pool whose batches would exceed the host's
// message limit (server.WithMaxMessageBytes), and one whose cost does not
// fit the host's memory budget or the client's quota (budget.go).
// A janitor closes pools without a call for IdleTimeout; a later call on one
// is NotFound and says it was closed after being idle.
// A StepStream is admitted by the host (server.Host.OpenStream: the
// per-client and per-connection stream limits, and 64 KiB of the memory
// budget while it is open) and ends with DeadlineExceeded once it has
// waited StreamIdleTimeout for its client.
//
// # Errors
//
// server.ConnectError maps errors to Connect codes; the message names the
// pool, the field, what was given and what is expected. Internal errors
// are logged and sent with a generic message, never their text.
//
//	NotFound            unknown game (env.ErrUnknownGame), unknown agent
//	                    (agents.ErrUnknownAgent), unknown or closed pool (the
//	                    message says whether it was closed by ClosePool, after
//	                    being idle, or after an internal error)
//	InvalidArgument     config errors (*env.ConfigError, *vecenv.ConfigError,
//	                    malformed config_json), num_envs < 1, learner seats,
//	                    opponents and their mixtures (seats, weights, names),
//	                    action byte count and values, env index, seat,
//	                    render format, a stream's pool id, batch_size
//	                    outside 0..num_envs, Send's env ids (byte count, more
//	                    than num_envs, out of range, in flight, repeated)
//	PermissionDenied    an external agent (cmd:, dir:, http://, policy:) the
//	                    host's agent capabilities do not cover
//	FailedPrecondition  Step or Render before the first Reset, Send or Recv
//	                    before the first AsyncReset, sync calls on an async
//	                    pool and async calls on a synchronous one, a Recv
//	                    with fewer than batch_size envs in flight
//	ResourceExhausted   MaxEnvsPerPool, MaxPools, MaxTotalEnvs, the message
//	                    limit, the memory budget and the client's quotas
//	Unavailable         the server is shutting down
//	Internal            anything else (a panic of a game closes its pool)
package envservice
