// Package server holds what botarena's Connect services share on one
// port: the [Host] (options, the HTTP handler that mounts the services with
// the gRPC health service, server reflection and Prometheus metrics at
// /metrics), the one table from error kinds to Connect codes
// ([ConnectError]), the memory budget and per-client quotas ([Budget]),
// the agent capabilities ([WithAgentCapabilities]), the bearer-token guard
// ([RequireToken]), the guard against other sites' pages ([Guard]: host
// names without a token, cross-origin requests, form bodies), the
// admission of long-lived streams ([Host.OpenStream]), and the HTTP server
// and connection caps ([NewHTTPServer], [Host.LimitListener]). The services themselves are
// packages of their own: envservice (botarena.v1.EnvService) and
// matchservice (botarena.v1.MatchService); the Go client of EnvService is
// package client.
//
//	h := server.New(server.WithLogger(log))
//	envs := envservice.New(h)
//	matches := matchservice.New(h)
//	defer h.Close() // closes envs and matches
//	hs := server.NewHTTPServer("127.0.0.1:50051", h.Handler(envs, matches))
//	hs.ListenAndServe()
//
// `botarena serve` wires them with flags, logging, the web viewer and
// graceful shutdown.
//
// # Concurrency
//
// A Host is safe for concurrent use, and so is its Budget.
//
// # Limits and defaults
//
//	MaxMessageBytes  256 MiB    WithMaxMessageBytes,  serve --max-message-bytes
//	MaxMemory        half RAM   WithMaxMemory,        serve --max-memory
//	MaxClientMemory  no quota   WithMaxClientMemory,  serve --max-client-memory
//	MaxClientPools   no quota   WithMaxClientPools,   serve --max-client-pools
//	MaxConnections   256        Host.LimitListener,   serve --max-connections
//	MaxClientConns   a quarter  WithMaxClientConnections, serve --max-client-connections
//	                 of the cap, at least 64
//	MaxClientStreams 256        WithMaxClientStreams, serve --max-client-streams
//	MaxConnStreams   128        WithMaxConnStreams,   serve --max-conn-streams
//	StreamBytes      64 KiB     charged per open stream to the memory budget
//	request bodies   IdleTimeout  NewHTTPServer (a stream lifts it: LiftBodyDeadline)
//
// # Errors
//
// [ConnectError] maps errors to Connect codes in one place; the services'
// messages name the pool, the field, what was given and what is expected.
// Internal errors are logged and sent with a generic message, never their
// text, and every message quoting client input clips it ([Clip]).
//
//	NotFound            unknown game (env.ErrUnknownGame), unknown agent
//	                    (agents.ErrUnknownAgent), ErrNotFound (an unknown or
//	                    closed pool: the message says whether it was closed by
//	                    ClosePool, after being idle, or after an internal error)
//	InvalidArgument     ErrInvalid, config errors (*env.ConfigError,
//	                    *vecenv.ConfigError)
//	PermissionDenied    ErrDenied: an agent beyond the capabilities
//	FailedPrecondition  ErrNotReady: Step or Render before the first Reset
//	ResourceExhausted   ErrLimit: the services' limits, the memory budget
//	Unavailable         ErrShuttingDown: the server is shutting down
//	Internal            anything else (a panic of a game closes its pool)
package server
