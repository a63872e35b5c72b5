// Package rpc serves pools of envs over Connect: the botarena.v1.EnvService
// of proto/botarena/v1/env.proto (its comments are the wire contract), with
// a Go client. It is the only package of botarena that imports Connect; the
// generated code is in gen/ (buf, with the simple option).
//
// # Server
//
// A [Server] holds pools ([vecenv.Pool]) keyed by random ids ("p-" and 24
// hex digits). CreatePool validates the request, checks the limits, makes
// the pool and its Arrow encoder (zstd when asked), and returns the spec and
// the Arrow schema message; Reset and Step return one Arrow IPC record-batch
// message per call, one row per learner seat of every env (row = env ×
// len(learner_seats) + k). Step takes the actions as little-endian int32
// bytes, one per row, parsed into a reused slice; it returns the ended flags
// as one byte per row and, in SAME_STEP mode when a row ended, a final batch
// whose observation columns hold the final observations (its other columns,
// mask included, are the step's batch). StepStream is Reset and Step on one
// bidirectional stream. SetOpponents replaces the weighted opponent
// mixtures of a pool's opponent seats between steps (self-play against a
// changing population; see vecenv.Pool.SetOpponents), and Stats reports
// the results per learner seat and per opponent. Render, ClosePool and
// ListGames complete the service.
//
//	s := rpc.NewServer(rpc.WithLogger(log))
//	defer s.Close()
//	hs := rpc.NewHTTPServer("127.0.0.1:50051", s.Handler())
//	hs.ListenAndServe()
//
// [Server.Handler] serves EnvService with Connect, gRPC and gRPC-Web, the
// gRPC health service and server reflection on one path tree;
// [NewHTTPServer] serves it over HTTP/1.1 and h2c. `botarena serve` wires
// both with flags, logging and graceful shutdown.
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
// A batch is encoded into a buffer owned by the pool (one copy of the
// pool's buffers); Connect then marshals the response (a second copy) and
// writes it. The buffer must not be overwritten before Connect has
// marshalled the response, which happens after the handler returned and
// released the pool's lock, so a unary response's buffer goes back to its
// pool only once the response has been written (see recycle.go); a stream
// reuses one buffer, since Send writes before it returns. Responses are never
// compressed by the transport: compression is Arrow's zstd, per pool.
//
// # Limits and defaults
//
//	MaxEnvsPerPool   65536     WithMaxEnvsPerPool,  serve --max-envs-per-pool
//	MaxPools         64        WithMaxPools,        serve --max-pools
//	MaxTotalEnvs     262144    WithMaxTotalEnvs,    serve --max-total-envs
//	IdleTimeout      10 min    WithIdleTimeout,     serve --idle-timeout
//	MaxMessageBytes  256 MiB   WithMaxMessageBytes, serve --max-message-bytes
//	MaxWorkers       GOMAXPROCS WithMaxWorkers,     serve --max-workers
//
// CreatePool also rejects a pool whose batches would exceed MaxMessageBytes.
// A janitor closes pools without a call for IdleTimeout; a later call on one
// is NotFound and says it was closed after being idle.
//
// # Errors
//
// One function maps errors to Connect codes; the message names the pool, the
// field, what was given and what is expected. Internal errors are logged and
// sent with a generic message, never their text.
//
//	NotFound            unknown game (env.ErrUnknownGame), unknown agent
//	                    (agents.ErrUnknownAgent), unknown or closed pool (the
//	                    message says whether it was closed by ClosePool, after
//	                    being idle, or after an internal error)
//	InvalidArgument     config errors (*env.ConfigError, *vecenv.ConfigError,
//	                    malformed config_json), num_envs < 1, learner seats,
//	                    opponents and their mixtures (seats, weights, names),
//	                    action byte count and values, env index, seat,
//	                    render format, a stream's pool id
//	PermissionDenied    external bots and policy files as opponents on a
//	                    server without WithExternalAgents
//	FailedPrecondition  Step or Render before the first Reset
//	PermissionDenied    an external agent (cmd:, dir:, http://, policy:) on a
//	                    server without WithExternalAgents
//	ResourceExhausted   MaxEnvsPerPool, MaxPools, MaxTotalEnvs, MaxMessageBytes
//	                    (also a recorded game's response over it)
//	Unavailable         the server is shutting down
//	Internal            anything else (a panic of a game closes its pool)
//
// # Matches
//
// The Server also implements botarena.v1.MatchService
// (proto/botarena/v1/match.proto): Play plays a whole game with
// league.LocalRunner and PlayBatch a batch with league.PoolRunner (vecenv
// pools, several games per worker), the code paths of a local league run,
// on at most [WithMaxMatches] goroutines at once (further calls wait for a
// slot). A recorded game's data (record) must fit the message limits:
// a game that would not is ResourceExhausted. Agents that are
// not built in are PermissionDenied without [WithExternalAgents]; a game
// whose call is cancelled stops at its next round; Close stops running
// games with Unavailable. [RemoteRunner] is the other side: a
// league.Runner that spreads a league's games over several servers in
// batches, and plays the games of a server that fails on the others (a
// game is deterministic from its seed); `botarena league run --servers`
// uses it. rpc imports league; league never imports rpc.
//
// With [WithLeagues] the MatchService also keeps leagues (leagues.go):
// CreateLeague, GetLeague, AddLeagueAgent, RemoveLeagueAgent,
// ListLeagueAgents, LeagueTable, LeagueGames and the server-streaming
// RunLeague are thin handlers over league.Leagues, which confines the
// leagues to one folder and takes writers in turns; the handlers add the
// server's agent capabilities, its match slots and memory budget for a
// run's games, and the error codes.
//
// # Client
//
// [Dial] returns a [Client] (gRPC over h2c by default; Connect and gRPC-Web
// too); [Client.CreatePool] returns a [Pool] whose Reset, Step and [Stream]
// decode the batches into [env.Buffers] with [observations.Decoder].
package rpc
